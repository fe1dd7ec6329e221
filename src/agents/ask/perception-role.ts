/**
 * Perception: before a node is expanded, summarise its trajectory and what
 * the sibling branches already tried, so planning can avoid redundancy and
 * aim at the gaps. A failed perception is not fatal: planning proceeds with
 * an empty analysis.
 */
import * as z from '../../zod-mini.js';
import { renderBranches, renderTrajectory } from './memory-render.js';
import { foldKeys } from './reply-keys.js';
import { callJsonRole, type RoleRuntime, type RoleTokens } from './role-caller.js';
import { PERCEPTION_SYSTEM } from './role-prompts.js';
import type { SearchTree } from './search-tree.js';
import type { TraceNode } from './trace-types.js';

// Models answer a list as a single string now and then; accept it.
const list = z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? [] : [v]) : (v ?? [])), z.array(z.string()).check(z.maxLength(20)));

/** The perception reply. */
export const PerceptionSchema = z.preprocess(
  foldKeys,
  z.object({
    summary: z._default(z.string(), ''),
    redundancy: list,
    gaps: list,
    promising: list,
  }),
);

/** What perception found (possibly the empty fallback). */
export type Perception = z.output<typeof PerceptionSchema>;

/** The analysis used when perception fails. */
export const EMPTY_PERCEPTION: Perception = { summary: '', redundancy: [], gaps: [], promising: [] };

/** Builds the perception prompt for expanding `node`. */
export function perceptionMessages(question: string, tree: SearchTree, node: TraceNode) {
  const user = [
    `Question: ${question}`,
    '',
    'Trajectory so far:',
    renderTrajectory(tree.path(node)),
    '',
    'Branches already tried from this point:',
    renderBranches(tree.children(node)),
    '',
    'Branches tried by sibling steps (alternatives to the last step):',
    renderBranches(tree.siblings(node)),
  ].join('\n');
  return [
    { role: 'system' as const, content: PERCEPTION_SYSTEM },
    { role: 'user' as const, content: user },
  ];
}

/** Runs perception for `node`; never fails (falls back to {@link EMPTY_PERCEPTION}). */
export async function perceive(
  rt: RoleRuntime,
  input: { question: string; tree: SearchTree; node: TraceNode; iteration: number; temperature: number; maxTokens: number },
): Promise<{ perception: Perception; tokens: RoleTokens; ok: boolean }> {
  const reply = await callJsonRole(
    rt,
    {
      role: 'perception',
      nodeId: input.node.id,
      iteration: input.iteration,
      messages: perceptionMessages(input.question, input.tree, input.node),
      temperature: input.temperature,
      maxTokens: input.maxTokens,
    },
    PerceptionSchema,
  );
  return reply.ok ? { perception: reply.value, tokens: reply.tokens, ok: true } : { perception: EMPTY_PERCEPTION, tokens: reply.tokens, ok: false };
}
