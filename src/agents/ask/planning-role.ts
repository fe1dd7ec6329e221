/**
 * Planning: propose up to `k` diverse next actions from a node. The model is
 * told what was already tried here and by sibling branches; proposals are
 * still checked here, because models repeat themselves: an action whose
 * normalised key matches an existing child (a sibling of the new one), a step
 * on the trajectory, or an earlier proposal in the same reply is dropped and
 * recorded with its reason.
 */
import { z } from 'zod';
import { parseAction } from './actions.js';
import { renderBranches, renderTrajectory } from './memory-render.js';
import type { Perception } from './perception-role.js';
import { callJsonRole, type RoleRuntime, type RoleTokens } from './role-caller.js';
import { planningSystem } from './role-prompts.js';
import type { SearchTree } from './search-tree.js';
import type { TraceAction, TraceNode } from './trace-types.js';

const ProposalSchema = z.preprocess(
  // `{"type": …}` and `{"tool": …}` are common spellings of `action`.
  (v) => (v && typeof v === 'object' && !('action' in v) ? { ...v, action: (v as any).type ?? (v as any).tool } : v),
  z.object({
    action: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
    rationale: z.string().default(''),
  }),
);

/** The planning reply. */
export const PlanningSchema = z.object({ actions: z.array(ProposalSchema).max(20) });

/** A dropped proposal. */
export interface RejectedProposal {
  type: string;
  args: unknown;
  reason: string;
}

/** Builds the planning prompt for `k` new children of `node`. */
export function planningMessages(question: string, tree: SearchTree, node: TraceNode, perception: Perception, k: number) {
  const analysis = [
    perception.summary ? `Summary: ${perception.summary}` : 'Summary: (none)',
    `Redundant so far: ${perception.redundancy.join('; ') || '(none)'}`,
    `Gaps: ${perception.gaps.join('; ') || '(none)'}`,
    `Promising targets: ${perception.promising.join('; ') || '(none)'}`,
  ].join('\n');
  const user = [
    `Question: ${question}`,
    '',
    'Trajectory so far:',
    renderTrajectory(tree.path(node)),
    '',
    'Analysis of the search state:',
    analysis,
    '',
    'Already tried here (do not repeat):',
    renderBranches(tree.children(node)),
    '',
    'Tried by sibling branches (do not repeat; they are alternatives to the last step):',
    renderBranches(tree.siblings(node)),
    '',
    `Propose up to ${k} diverse next action${k === 1 ? '' : 's'}.`,
  ].join('\n');
  return [
    { role: 'system' as const, content: planningSystem() },
    { role: 'user' as const, content: user },
  ];
}

/**
 * Validates and dedupes raw proposals for children of `node`, keeping at
 * most `k`. Finish is refused while the trajectory holds no evidence (there
 * would be nothing to answer from).
 */
export function screenProposals(
  tree: SearchTree,
  node: TraceNode,
  proposals: ReadonlyArray<{ action: string; args: unknown; rationale: string }>,
  k: number,
): { accepted: TraceAction[]; rejected: RejectedProposal[] } {
  const siblingKeys = new Set(tree.children(node).map((c) => c.action!.key));
  const pathKeys = new Set(tree.path(node).flatMap((n) => (n.action ? [n.action.key] : [])));
  const pathHasEvidence = tree.pathEvidence(node).length > 0;
  const accepted: TraceAction[] = [];
  const rejected: RejectedProposal[] = [];
  for (const p of proposals) {
    const parsed = parseAction(p.action, p.args, p.rationale);
    const reject = (reason: string) => rejected.push({ type: p.action, args: p.args, reason });
    if (!parsed.ok) reject(parsed.reason);
    else if (siblingKeys.has(parsed.action.key)) reject('repeats a sibling branch');
    else if (pathKeys.has(parsed.action.key)) reject('repeats a step on the trajectory');
    else if (accepted.some((a) => a.key === parsed.action.key)) reject('duplicate within this proposal');
    else if (parsed.action.type === 'Finish' && !pathHasEvidence) reject('Finish before any evidence was found');
    else if (accepted.length >= k) reject(`over the limit of ${k} new children`);
    else accepted.push(parsed.action);
  }
  return { accepted, rejected };
}

/** Runs planning for `node`; a failed reply yields no actions (the caller marks the node exhausted). */
export async function plan(
  rt: RoleRuntime,
  input: { question: string; tree: SearchTree; node: TraceNode; perception: Perception; k: number; iteration: number; temperature: number; maxTokens: number },
): Promise<{ accepted: TraceAction[]; rejected: RejectedProposal[]; tokens: RoleTokens; ok: boolean }> {
  const reply = await callJsonRole(
    rt,
    {
      role: 'planning',
      nodeId: input.node.id,
      iteration: input.iteration,
      messages: planningMessages(input.question, input.tree, input.node, input.perception, input.k),
      temperature: input.temperature,
      maxTokens: input.maxTokens,
    },
    PlanningSchema,
  );
  if (!reply.ok) return { accepted: [], rejected: [{ type: '(reply)', args: null, reason: reply.error }], tokens: reply.tokens, ok: false };
  return { ...screenProposals(input.tree, input.node, reply.value.actions, input.k), tokens: reply.tokens, ok: true };
}
