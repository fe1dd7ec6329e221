/**
 * Loose validation of an `ask` trace (see agents/ask/trace-types.ts) before
 * the page draws it. Only the fields the view reads are checked; everything
 * else passes through untouched, so a newer trace with extra fields still
 * opens. A few older or hand-written spellings are accepted and mapped
 * (`action.name` for `action.type`, `evaluation.score`/`reason`, `value`), and
 * structural problems that do not stop drawing (a dangling parent) become
 * warnings rather than errors.
 */
import * as z from '../zod-mini.js';
import type { AskTrace } from '../agents/ask/index.js';
import { ApiError } from './http-io.js';

const line = z.number().check(z.int(), z.gte(0));

const evidenceShape = z.looseObject({
  path: z.string(),
  startLine: line,
  endLine: line,
  symbol: z.optional(z.nullable(z.string())),
  excerpt: z.optional(z.string()),
});

const actionShape = z.looseObject({
  type: z.string(),
  args: z._default(z.record(z.string(), z.unknown()), {}),
  rationale: z.optional(z.string()),
});

const nodeShape = z.looseObject({
  id: z.number().check(z.int()),
  parentId: z.nullable(z.number().check(z.int())),
  action: z.nullable(actionShape),
  evidence: z._default(z.array(evidenceShape), []),
  score: z._default(z.nullable(z.number()), null),
  evaluation: z._default(z.nullable(z.looseObject({ rationale: z.string(), followUp: z._default(z.string(), '') })), null),
  valueSum: z._default(z.number(), 0),
  visits: z._default(z.number().check(z.int(), z.gte(0)), 0),
  toolText: z.optional(z.nullable(z.string())),
});

const citationShape = z.looseObject({
  text: z.string(),
  path: z.nullable(z.string()),
  startLine: line,
  endLine: line,
  valid: z._default(z.boolean(), true),
  reason: z.optional(z.nullable(z.string())),
});

const traceShape = z.looseObject({
  version: z.number().check(z.int()),
  method: z.string(),
  question: z.string(),
  nodes: z._default(z.array(nodeShape), []),
  answerPath: z._default(z.array(z.number().check(z.int())), []),
  steps: z._default(z.array(z.looseObject({ step: z.number().check(z.int()), thought: z._default(z.string(), '') })), []),
  answer: z.looseObject({
    text: z.string(),
    citations: z._default(z.array(citationShape), []),
    dropped: z._default(z.array(citationShape), []),
  }),
});

/** The newest trace version this view was written against; newer ones still open, with a warning. */
export const KNOWN_TRACE_VERSION = 1;

/** A zod issue list as at most five `where: problem` phrases. */
export function describeIssues(error: z.$ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
    return `${where || '(top level)'}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '';
  return `${parts.join('; ')}${more}`;
}

/** Maps older or hand-written spellings onto the current ones (without touching the input). */
function normaliseSpellings(value: unknown): unknown {
  if (!isRecord(value) || !Array.isArray(value.nodes)) return value;
  const nodes = value.nodes.map((raw) => {
    if (!isRecord(raw)) return raw;
    const node: Record<string, unknown> = { ...raw };
    if (isRecord(node.action) && node.action.type === undefined && typeof node.action.name === 'string') {
      node.action = { ...node.action, type: node.action.name };
    }
    if (isRecord(node.evaluation)) {
      const evaluation = node.evaluation;
      if (node.score === undefined && typeof evaluation.score === 'number') node.score = evaluation.score;
      if (evaluation.rationale === undefined && typeof evaluation.reason === 'string') node.evaluation = { ...evaluation, rationale: evaluation.reason };
    }
    if (node.valueSum === undefined && typeof node.value === 'number') {
      node.valueSum = node.value * (typeof node.visits === 'number' && node.visits > 0 ? node.visits : 1);
    }
    return node;
  });
  return { ...value, nodes };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that `value` is a trace the view can draw. Throws ApiError 422
 * naming `origin` and the first problems; returns the trace and warnings.
 */
export function parseAskTrace(value: unknown, origin: string): { trace: AskTrace; warnings: string[] } {
  if (!isRecord(value) || (value.nodes === undefined && value.answer === undefined)) {
    throw new ApiError(422, `${origin} is not a reponav ask trace (expected the JSON written by \`reponav ask --trace FILE\`).`, 'BAD_TRACE');
  }
  const parsed = traceShape.safeParse(normaliseSpellings(value));
  if (!parsed.success) throw new ApiError(422, `${origin} is not a readable ask trace: ${describeIssues(parsed.error)}.`, 'BAD_TRACE');
  const trace = parsed.data;
  const warnings: string[] = [];
  if (trace.version > KNOWN_TRACE_VERSION) warnings.push(`Trace version ${trace.version} is newer than this view (${KNOWN_TRACE_VERSION}); some details may be missing.`);
  const ids = new Set<number>();
  for (const node of trace.nodes) {
    if (ids.has(node.id)) throw new ApiError(422, `${origin} is not a readable ask trace: node id ${node.id} appears twice.`, 'BAD_TRACE');
    ids.add(node.id);
  }
  const roots = trace.nodes.filter((n) => n.parentId === null);
  if (trace.nodes.length > 0 && roots.length === 0) {
    throw new ApiError(422, `${origin} is not a readable ask trace: no root node (a node with parentId null).`, 'BAD_TRACE');
  }
  if (roots.length > 1) warnings.push(`${roots.length} root nodes; each is drawn as its own tree.`);
  const dangling = trace.nodes.filter((n) => n.parentId !== null && !ids.has(n.parentId));
  if (dangling.length > 0) warnings.push(`Nodes ${dangling.map((n) => n.id).slice(0, 10).join(', ')} name a parent that is not in the trace; they are drawn under the root.`);
  return { trace: trace as unknown as AskTrace, warnings };
}
