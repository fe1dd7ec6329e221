/**
 * Evaluation: score a new node's action and evidence 0–100 against the
 * written rubric — by default DeepRepoQA's (relevance, scope, result size,
 * category fit, exploration valued, five score bands), or ours with
 * `rubric: 'reponav'` — and suggest a follow-up. The score is the node's value — a one-step simulation
 * — and is back-propagated to the root. A failed evaluation gives value 0.
 */
import * as z from '../../zod-mini.js';
import { describeAction } from './actions.js';
import { renderEvidence, renderTrajectory } from './memory-render.js';
import { foldKeys } from './reply-keys.js';
import { callJsonRole, type RoleRuntime, type RoleTokens } from './role-caller.js';
import { evaluationSystem, type EvaluationRubricName } from './role-prompts.js';
import type { SearchTree } from './search-tree.js';
import type { TraceNode } from './trace-types.js';

/** `85`, `"85"`, `"85/100"`, `85.4` → a number; anything else stays as is (and fails validation). */
function leadingNumber(v: unknown): unknown {
  if (typeof v === 'string') {
    const match = /-?\d+(?:\.\d+)?/.exec(v);
    return match ? Number(match[0]) : v;
  }
  return v;
}

/** The evaluation reply; scores outside 0–100 are clamped (a model writing 105 means "very good", not "invalid"). */
export const EvaluationSchema = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object') return v;
    const o = foldKeys(v) as Record<string, unknown>;
    return { ...o, follow_up: o.follow_up ?? o.followup ?? o.next };
  },
  z.object({
    // (zod's number already refuses Infinity and NaN: the chainable API's `.finite()` added no check.)
    score: z.pipe(
      z.preprocess(leadingNumber, z.number()),
      z.transform((n: number) => Math.round(Math.min(100, Math.max(0, n)))),
    ),
    rationale: z._default(z.string(), ''),
    follow_up: z._default(z.string(), ''),
  }),
);

/** A parsed evaluation. */
export type Evaluation = z.output<typeof EvaluationSchema>;

/** Builds the evaluation prompt for `node` (already executed). */
export function evaluationMessages(question: string, tree: SearchTree, node: TraceNode, stage: { maxDepth: number; rubric?: EvaluationRubricName }) {
  const parent = tree.parent(node)!;
  const latest = [`Action: ${describeAction(node.action!)}`];
  if (node.action!.rationale) latest.push(`Planned because: ${node.action!.rationale}`);
  if (node.toolError) latest.push(`Tool error: ${node.toolText ?? ''}`);
  else if (node.action!.type === 'Finish') latest.push('(Finish runs no tool: judge whether the trajectory above suffices to answer.)');
  else if (node.evidence.length === 0) latest.push('Evidence: nothing new (no results, or only code already on the trajectory).');
  else latest.push('Evidence:', ...node.evidence.map((e) => renderEvidence(e)));
  const user = [
    `Question: ${question}`,
    '',
    'Trajectory before this step:',
    renderTrajectory(tree.path(parent)),
    '',
    `Step to score (step ${node.depth} of at most ${stage.maxDepth}):`,
    ...latest,
  ].join('\n');
  return [
    { role: 'system' as const, content: evaluationSystem(stage.rubric) },
    { role: 'user' as const, content: user },
  ];
}

/** Runs evaluation for `node`; `evaluation` is null when the reply could not be used (value 0). */
export async function evaluate(
  rt: RoleRuntime,
  input: { question: string; tree: SearchTree; node: TraceNode; iteration: number; maxDepth: number; maxTokens: number; rubric?: EvaluationRubricName },
): Promise<{ evaluation: Evaluation | null; tokens: RoleTokens }> {
  const reply = await callJsonRole(
    rt,
    {
      role: 'evaluation',
      nodeId: input.node.id,
      iteration: input.iteration,
      messages: evaluationMessages(input.question, input.tree, input.node, { maxDepth: input.maxDepth, ...(input.rubric ? { rubric: input.rubric } : {}) }),
      temperature: 0,
      maxTokens: input.maxTokens,
    },
    EvaluationSchema,
  );
  return { evaluation: reply.ok ? reply.value : null, tokens: reply.tokens };
}
