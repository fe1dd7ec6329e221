/**
 * The six search actions (the paper's FindClass, FindFunction,
 * FindCodeSnippet, SemanticSearch, ViewCode, Finish): their argument schemas
 * as the model writes them, their mapping onto reponav tools, and the
 * normalised key used to tell two proposals apart.
 */
import * as z from '../../zod-mini.js';
import { parseFileSpan } from '../../tools/index.js';
import type { ActionType, TraceAction } from './trace-types.js';

/** Every action name, in the order they are described to the model. */
export const ACTION_TYPES: readonly ActionType[] = ['FindClass', 'FindFunction', 'FindCodeSnippet', 'SemanticSearch', 'ViewCode', 'Finish'];

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
// Models often write numbers as strings ("40"): accept both.
const line = z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000_000));
const pattern = z.optional(text(200));

/** Argument schema per action (unknown keys are dropped). */
export const ACTION_ARG_SCHEMAS: Record<ActionType, z.ZodMiniType<Record<string, unknown>>> = {
  FindClass: z.object({ name: text(300), file_pattern: pattern }),
  FindFunction: z.object({ name: text(300), file_pattern: pattern }),
  FindCodeSnippet: z.object({ text: text(2000), file_pattern: pattern }),
  SemanticSearch: z.object({ query: text(1000), file_pattern: pattern }),
  ViewCode: z
    .object({ file: z.optional(text(4096)), start: z.optional(line), end: z.optional(line), symbol: z.optional(text(300)) })
    .check(z.refine((a) => a.file !== undefined || a.symbol !== undefined, { message: 'ViewCode needs file or symbol' })),
  Finish: z.object({ reason: z.optional(z.string().check(z.maxLength(2000))) }),
};

/** One line per action for prompts: name, arguments, what it is for. */
export const ACTION_DESCRIPTIONS: Record<ActionType, string> = {
  FindClass: 'FindClass {"name": "Cart" | "pkg/mod.py:Cart", "file_pattern"?: glob} — where a class/struct/interface is defined, with its members.',
  FindFunction: 'FindFunction {"name": "checkout" | "Cart.checkout", "file_pattern"?: glob} — where a function or method is defined, with its signature.',
  FindCodeSnippet: 'FindCodeSnippet {"text": exact code text, "file_pattern"?: glob} — every place an exact string occurs (a call, a constant, an error message).',
  SemanticSearch: 'SemanticSearch {"query": plain-words description, "file_pattern"?: glob} — code units best matching a description (names, signatures, docs, bodies).',
  ViewCode: 'ViewCode {"file": "path.py", "start"?: n, "end"?: n} or {"symbol": "Cart.checkout"} — read numbered source lines.',
  Finish: 'Finish {"reason": why the evidence gathered so far is enough} — stop searching and write the answer.',
};

/** The reponav tool each action runs (Finish runs none). */
export const ACTION_TOOLS: Record<Exclude<ActionType, 'Finish'>, string> = {
  FindClass: 'find_class',
  FindFunction: 'find_function',
  FindCodeSnippet: 'find_code_snippet',
  SemanticSearch: 'semantic_search',
  ViewCode: 'view_code',
};

/** Maps loose spellings (`find_class`, `findclass`, `view`) onto action names. */
export function normaliseActionName(name: string): ActionType | null {
  const squashed = name.replace(/[^a-z]/gi, '').toLowerCase();
  for (const type of ACTION_TYPES) if (type.toLowerCase() === squashed) return type;
  const aliases: Record<string, ActionType> = {
    class: 'FindClass',
    function: 'FindFunction',
    findmethod: 'FindFunction',
    snippet: 'FindCodeSnippet',
    findsnippet: 'FindCodeSnippet',
    search: 'SemanticSearch',
    view: 'ViewCode',
    viewfile: 'ViewCode',
    answer: 'Finish',
    done: 'Finish',
  };
  return aliases[squashed] ?? null;
}

/** The argument names each action takes, in the order they are described. */
const ACTION_ARG_NAMES: Record<ActionType, readonly string[]> = {
  FindClass: ['name', 'file_pattern'],
  FindFunction: ['name', 'file_pattern'],
  FindCodeSnippet: ['text', 'file_pattern'],
  SemanticSearch: ['query', 'file_pattern'],
  ViewCode: ['file', 'start', 'end', 'symbol'],
  Finish: ['reason'],
};

/**
 * Argument keys as models write them (`Name`, `filePattern`, `FILE_PATTERN`)
 * mapped onto the action's own names; keys that match none stay as written
 * (and are reported as unknown).
 */
function normaliseArgKeys(type: ActionType, args: unknown): Record<string, unknown> {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return {};
  const squash = (k: string) => k.replace(/[^a-z0-9]/gi, '').toLowerCase();
  const known = new Map(ACTION_ARG_NAMES[type].map((k) => [squash(k), k]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    const target = known.get(squash(key)) ?? key;
    if (!(target in out) || key === target) out[target] = value;
  }
  return out;
}

/** A proposal that passed validation, or why it did not. */
export type ParsedAction = { ok: true; action: TraceAction } | { ok: false; reason: string };

/**
 * Validates one proposal `{action, args}` into a TraceAction with normalised
 * arguments and key. A ViewCode `file` written as `path:10-20` is split into
 * start/end so that both spellings get the same key.
 */
export function parseAction(name: string, args: unknown, rationale = ''): ParsedAction {
  const type = normaliseActionName(name);
  if (!type) return { ok: false, reason: `unknown action '${name.slice(0, 60)}'` };
  const given = normaliseArgKeys(type, args);
  const parsed = ACTION_ARG_SCHEMAS[type].safeParse(given);
  if (!parsed.success) {
    // "Invalid input: expected string, received undefined" means the argument is missing: say so.
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || type}: ${/received undefined$/.test(i.message) ? 'missing' : i.message}`);
    // Name the argument the model got wrong and the ones the action takes: that is what it needs to correct itself.
    const unknown = Object.keys(given).filter((k) => !ACTION_ARG_NAMES[type].includes(k));
    if (unknown.length > 0) problems.unshift(`unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k.slice(0, 40)}'`).join(', ')} (${type} takes ${ACTION_ARG_NAMES[type].join(', ')})`);
    return { ok: false, reason: problems.join('; ') };
  }
  const clean = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  if (type === 'ViewCode' && typeof clean.file === 'string' && clean.start === undefined && clean.end === undefined) {
    const span = parseFileSpan(clean.file);
    if (span.start !== undefined) Object.assign(clean, { file: span.path, start: span.start, end: span.end });
  }
  if (typeof clean.file === 'string') clean.file = clean.file.replace(/^\.\//, '');
  if (type === 'ViewCode' && typeof clean.start === 'number' && typeof clean.end === 'number' && clean.end < clean.start) {
    return { ok: false, reason: `ViewCode end ${clean.end} is before start ${clean.start}` };
  }
  return { ok: true, action: { type, args: clean, key: actionKey(type, clean), rationale: rationale.trim().slice(0, 500) } };
}

/**
 * The dedupe key: action type plus arguments with strings trimmed,
 * whitespace-collapsed and lower-cased, keys sorted. Two proposals with the
 * same key would run the same tool call (up to case), so only one is kept.
 * Finish has one key whatever its reason: finishing twice is one choice.
 */
export function actionKey(type: ActionType, args: Record<string, unknown>): string {
  if (type === 'Finish') return 'Finish';
  const parts = Object.keys(args)
    .filter((k) => args[k] !== undefined)
    .sort()
    .map((k) => {
      const v = args[k];
      return `${k}=${typeof v === 'string' ? v.trim().replace(/\s+/g, ' ').toLowerCase() : String(v)}`;
    });
  return `${type}(${parts.join(',')})`;
}

/** The tool arguments an action runs with (Finish has none). */
export function toolArgsFor(action: TraceAction): { tool: string; args: Record<string, unknown> } | null {
  if (action.type === 'Finish') return null;
  const tool = ACTION_TOOLS[action.type];
  const args: Record<string, unknown> = { ...action.args };
  // Result-size limits: enough to rank from, small enough for the prompts.
  if (action.type === 'FindClass' || action.type === 'FindFunction') args.limit = 10;
  if (action.type === 'FindCodeSnippet') args.limit = 20;
  if (action.type === 'SemanticSearch') args.top_k = 10;
  return { tool, args };
}

/** `FindFunction(name="checkout")`: a short human form for prompts and logs. */
export function describeAction(action: Pick<TraceAction, 'type' | 'args'>): string {
  const args = Object.entries(action.args)
    .map(([k, v]) => `${k}=${JSON.stringify(typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}…` : v)}`)
    .join(', ');
  return `${action.type}(${args})`;
}
