/**
 * Planning: propose up to `k` diverse next actions from a node. The model is
 * told what was already tried here and by sibling branches; proposals are
 * still checked here, because models repeat themselves and misname
 * arguments: an action that does not validate, or whose normalised key
 * matches an existing child (a sibling of the new one), a step on the
 * trajectory, or an earlier proposal in the same reply is dropped and
 * recorded with its reason. When proposals were dropped and slots are left,
 * the planner is told why and gets one corrective round (errors reach the
 * model that made them); later expansions of the node show the reasons too.
 */
import * as z from '../../zod-mini.js';
import { jsonObjectSpans } from '../../llm/index.js';
import { parseAction } from './actions.js';
import { renderBranches, renderTrajectory } from './memory-render.js';
import { foldKeys } from './reply-keys.js';
import type { Perception } from './perception-role.js';
import { callJsonRole, type RoleRuntime, type RoleTokens } from './role-caller.js';
import { planningSystem } from './role-prompts.js';
import type { SearchTree } from './search-tree.js';
import type { TraceAction, TraceNode } from './trace-types.js';

const ProposalSchema = z.preprocess(
  (raw) => {
    // Keys in any casing; `type`/`tool` are common spellings of `action`, `arguments`/`params`/`parameters` of `args`,
    // and arguments written beside the action (`{"action": "FindClass", "name": "Cart"}`) are its arguments.
    const v = foldKeys(raw) as any;
    if (!v || typeof v !== 'object') return v;
    const { action, type, tool, rationale, args, arguments: args2, params, parameters, ...beside } = v;
    return { action: action ?? type ?? tool, args: args ?? args2 ?? params ?? parameters ?? beside, ...(rationale !== undefined ? { rationale } : {}) };
  },
  z.object({
    action: z.string().check(z.minLength(1)),
    args: z._default(z.record(z.string(), z.unknown()), {}),
    rationale: z._default(z.string(), ''),
  }),
);

/**
 * A reply of native tool calls (the client renders each as a
 * `{"name": …, "arguments": …}` line, parallel calls one per line) read as
 * the planner's `{"actions": […]}`; any other reply unchanged.
 */
export function toolCallsAsActions(text: string): string {
  if (/"actions"\s*:/i.test(text)) return text;
  const actions = toolCallLines(text);
  return actions.length > 0 ? JSON.stringify({ actions }) : text;
}

/** The `{"name": …, "arguments": …}` lines of a reply (native tool calls as the client renders them), as actions, in order. */
export function toolCallLines(text: string): Array<{ action: string; args: unknown }> {
  const actions: Array<{ action: string; args: unknown }> = [];
  for (const span of jsonObjectSpans(text)) {
    try {
      const call = JSON.parse(span) as { name?: unknown; arguments?: unknown };
      if (typeof call.name === 'string' && 'arguments' in call) actions.push({ action: call.name, args: call.arguments ?? {} });
    } catch {
      // not JSON: not a tool call
    }
  }
  return actions;
}

/** The planning reply. */
export const PlanningSchema = z.preprocess(foldKeys, z.object({ actions: z.array(ProposalSchema).check(z.maxLength(20)) }));

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
    ...(node.rejected.length > 0 ? ['Proposals rejected here before (do not make these mistakes again):', renderRejections(node.rejected.slice(-MAX_REJECTIONS_SHOWN)), ''] : []),
    `Propose up to ${k} diverse next action${k === 1 ? '' : 's'}.`,
  ].join('\n');
  return [
    { role: 'system' as const, content: planningSystem() },
    { role: 'user' as const, content: user },
  ];
}

/** Earlier rejections shown in a planning prompt at most (the newest). */
const MAX_REJECTIONS_SHOWN = 6;

/** Rejections as prompt lines: what was proposed and why it was dropped. */
export function renderRejections(rejected: readonly RejectedProposal[]): string {
  return rejected.map((r) => `- ${r.type.slice(0, 60)} ${JSON.stringify(r.args ?? {}).slice(0, 200)}: ${r.reason}`).join('\n');
}

/** The corrective turn after a planning reply whose proposals were (partly) rejected. */
export function rejectionMessage(rejected: readonly RejectedProposal[], slots: number): string {
  return [
    `${rejected.length === 1 ? 'One of your proposals was' : `${rejected.length} of your proposals were`} rejected:`,
    renderRejections(rejected),
    `Propose up to ${slots} new action${slots === 1 ? '' : 's'} that fix${slots === 1 ? 'es' : ''} these problems: use only the action names and argument names listed in the instructions, and nothing already tried.`,
    'Reply with one JSON object only: {"actions": [...]}.',
  ].join('\n');
}

/** Rejections the model can act on (a proposal over the slot limit was not a mistake). */
const correctable = (r: RejectedProposal) => !r.reason.startsWith('over the limit');

/**
 * Validates and dedupes raw proposals for children of `node`, keeping at
 * most `k` in all, `taken` (accepted by an earlier round of the same
 * expansion) included. Finish is refused while the trajectory holds no
 * evidence (there would be nothing to answer from).
 */
export function screenProposals(
  tree: SearchTree,
  node: TraceNode,
  proposals: ReadonlyArray<{ action: string; args: unknown; rationale: string }>,
  k: number,
  taken: readonly TraceAction[] = [],
): { accepted: TraceAction[]; rejected: RejectedProposal[] } {
  const siblingKeys = new Set(tree.children(node).map((c) => c.action!.key));
  const pathKeys = new Set(tree.path(node).flatMap((n) => (n.action ? [n.action.key] : [])));
  const pathHasEvidence = tree.pathEvidence(node).length > 0;
  const accepted: TraceAction[] = [...taken];
  const rejected: RejectedProposal[] = [];
  for (const p of proposals) {
    const parsed = parseAction(p.action, p.args, p.rationale);
    const reject = (reason: string) => rejected.push({ type: p.action, args: p.args, reason });
    if (!parsed.ok) reject(parsed.reason);
    else if (siblingKeys.has(parsed.action.key) || taken.some((a) => a.key === parsed.action.key)) reject('repeats a sibling branch');
    else if (pathKeys.has(parsed.action.key)) reject('repeats a step on the trajectory');
    else if (accepted.some((a) => a.key === parsed.action.key)) reject('duplicate within this proposal');
    else if (parsed.action.type === 'Finish' && !pathHasEvidence) reject('Finish before any evidence was found');
    else if (accepted.length >= k) reject(`over the limit of ${k} new children`);
    else accepted.push(parsed.action);
  }
  return { accepted: accepted.slice(taken.length), rejected };
}

/**
 * Runs planning for `node`: one call, and when proposals were rejected for
 * a reason the model can fix while slots are left, one corrective round
 * that shows it the reasons. A failed reply yields no actions (the caller
 * marks the node exhausted). `rejected` holds every dropped proposal of
 * both rounds.
 */
export async function plan(
  rt: RoleRuntime,
  input: { question: string; tree: SearchTree; node: TraceNode; perception: Perception; k: number; iteration: number; temperature: number; maxTokens: number },
): Promise<{ accepted: TraceAction[]; rejected: RejectedProposal[]; tokens: RoleTokens; ok: boolean; corrected: boolean }> {
  const messages = planningMessages(input.question, input.tree, input.node, input.perception, input.k);
  const request = { role: 'planning' as const, nodeId: input.node.id, iteration: input.iteration, messages, temperature: input.temperature, maxTokens: input.maxTokens };
  const reply = await callJsonRole(rt, request, PlanningSchema, toolCallsAsActions);
  if (!reply.ok) return { accepted: [], rejected: [{ type: '(reply)', args: null, reason: reply.error }], tokens: reply.tokens, ok: false, corrected: false };
  const tokens = { ...reply.tokens };
  const first = screenProposals(input.tree, input.node, reply.value.actions, input.k);
  const fixable = first.rejected.filter(correctable);
  const slots = input.k - first.accepted.length;
  if (fixable.length === 0 || slots <= 0) return { ...first, tokens, ok: true, corrected: false };

  const before = rt.records.length;
  const retry = await callJsonRole(
    rt,
    { ...request, messages: [...messages, { role: 'assistant', content: reply.raw ?? JSON.stringify(reply.value) }, { role: 'user', content: rejectionMessage(fixable, slots) }] },
    PlanningSchema,
    toolCallsAsActions,
  );
  for (const record of rt.records.slice(before)) record.note = 'corrective round: the planner was shown why its proposals were rejected';
  tokens.input += retry.tokens.input;
  tokens.output += retry.tokens.output;
  if (!retry.ok) return { accepted: first.accepted, rejected: [...first.rejected, { type: '(corrective reply)', args: null, reason: retry.error }], tokens, ok: true, corrected: true };
  const second = screenProposals(input.tree, input.node, retry.value.actions, input.k, first.accepted);
  return { accepted: [...first.accepted, ...second.accepted], rejected: [...first.rejected, ...second.rejected], tokens, ok: true, corrected: true };
}
