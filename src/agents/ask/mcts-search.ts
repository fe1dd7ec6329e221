/**
 * The Monte-Carlo tree search of DeepRepoQA. One iteration:
 *
 *  1. Selection — UCT from the root to a node that can be expanded;
 *  2. Expansion — Perception analyses the node's trajectory and its sibling
 *     branches, Planning proposes up to `maxChildren` new actions (deduped;
 *     rejected proposals get one corrective round). An expansion that
 *     creates no child closes its node (fully expanded) and selection runs
 *     again in the same iteration, so no iteration ends without progress;
 *  3. Simulation — each new child is executed (tool call → evidence) and
 *     scored by Evaluation; that one-step score is its value. A Finish child
 *     ends the search at once (as in the paper: choosing Finish ends it) when
 *     it passes the checks — Evaluation scored it at least `finishMinScore`
 *     and its path holds evidence; one that fails them is scored down (value
 *     0), closed, and the search goes on;
 *  4. Back-propagation — the value and one visit go to every ancestor.
 *
 * The loop ends on Finish, the iteration limit, a budget (leaving the answer
 * reserve), a plateau of the best score (only if a plateau window is set;
 * off by default), or when no open node is left.
 */
import type { AskSettings } from './ask-settings.js';
import { evaluate } from './evaluation-role.js';
import { covered } from './evidence.js';
import { executeAction, type ExecutionEnvironment } from './execution-role.js';
import { perceive } from './perception-role.js';
import { plan } from './planning-role.js';
import { PlateauDetector } from './plateau-detector.js';
import type { RoleRuntime, RoleTokens } from './role-caller.js';
import { SearchStop } from './run-budget.js';
import { SearchTree } from './search-tree.js';
import type { StopReason, TraceEvidence, TraceIteration, TraceNode } from './trace-types.js';
import { canExpand, selectNode, type SelectionLimits } from './uct.js';

/** Progress after each iteration (for a CLI status line). */
export interface SearchProgress {
  iteration: number;
  nodes: number;
  bestScore: number | null;
  tokens: number;
}

/** What the search runs with. */
export interface SearchEnvironment {
  question: string;
  rt: RoleRuntime;
  exec: ExecutionEnvironment;
  settings: AskSettings;
  onProgress?: (progress: SearchProgress) => void;
}

/** The finished search. */
export interface SearchOutcome {
  tree: SearchTree;
  stopReason: StopReason;
  iterations: TraceIteration[];
  /** Root → Finish node when Finish was chosen, else root → best leaf by mean value. */
  answerPath: TraceNode[];
}

/** Runs the search; never throws for model or tool trouble (see module comment for the stop conditions). */
export async function runMctsSearch(env: SearchEnvironment): Promise<SearchOutcome> {
  const { settings, rt } = env;
  const limits: SelectionLimits = { maxChildren: settings.maxChildren, maxDepth: settings.maxDepth, uctC: settings.uctC };
  const tree = new SearchTree();
  const plateau = new PlateauDetector(settings.plateau.window, settings.plateau.epsilon);
  const iterations: TraceIteration[] = [];
  let stopReason: StopReason | null = null;
  let finish: TraceNode | null = null;
  let iteration = 0;
  let current: TraceIteration | null = null;
  try {
    while (stopReason === null) {
      if (iteration >= settings.iterations) {
        stopReason = 'iterations';
        break;
      }
      const budgetStop = rt.budget.searchStop();
      if (budgetStop) {
        stopReason = budgetStop;
        break;
      }
      let selected = selectNode(tree, limits);
      if (!selected) {
        stopReason = 'exhausted';
        break;
      }
      iteration += 1;
      current = { iteration, selectedId: selected.node.id, path: selected.path.map((n) => n.id), createdIds: [], bestScore: null, tokensSoFar: 0, elapsedMs: 0 };
      iterations.push(current);
      // Every iteration makes progress: an expansion that creates nothing closes its node and
      // selection runs again within the same iteration (each retry closes a node, so this ends).
      while (selected) {
        const { node, path } = selected;
        current.selectedId = node.id;
        current.path = path.map((n) => n.id);
        if (canExpand(node, limits)) {
          const finished = await expand(env, tree, node, iteration, current);
          if (finished) {
            finish = finished;
            stopReason = 'finish';
          } else if (current.createdIds.length === 0 && node.exhausted) {
            (current.closedIds ??= []).push(node.id);
            const budgetStop = rt.budget.searchStop();
            if (budgetStop) throw new SearchStop(budgetStop);
            selected = selectNode(tree, limits);
            if (!selected) stopReason = 'exhausted';
            continue;
          }
        } else {
          // Not reached while selection enters only open subtrees; a visit is
          // still counted so no future selection rule can spin without progress.
          tree.backpropagate(node, node.score ?? 0);
        }
        break;
      }
      closeIteration(current, tree, rt);
      env.onProgress?.({ iteration, nodes: tree.nodes.length, bestScore: tree.bestScore(), tokens: current.tokensSoFar });
      plateau.record(tree.bestScore());
      if (stopReason === null && plateau.plateaued()) stopReason = 'plateau';
    }
  } catch (error) {
    if (!(error instanceof SearchStop)) throw error;
    stopReason = error.reason;
    if (current) closeIteration(current, tree, rt);
  }
  const answerPath = finish ? tree.path(finish) : tree.bestPath();
  return { tree, stopReason: stopReason ?? 'iterations', iterations, answerPath };
}

function closeIteration(record: TraceIteration, tree: SearchTree, rt: RoleRuntime): void {
  record.bestScore = tree.bestScore();
  record.tokensSoFar = rt.budget.tokensUsed();
  record.elapsedMs = rt.budget.elapsedMs();
}

/**
 * Expansion and one-step simulation of every new child, with back-propagation.
 * Returns the Finish child that passed its checks (the search ends; no
 * further child of this expansion is run), else null.
 */
async function expand(env: SearchEnvironment, tree: SearchTree, node: TraceNode, iteration: number, record: TraceIteration): Promise<TraceNode | null> {
  const { settings, rt, question } = env;
  const maxTokens = settings.maxReplyTokens;
  const perceived = await perceive(rt, { question, tree, node, iteration, temperature: 0, maxTokens });
  addTokens(node, perceived.tokens);
  node.perception = perceived.perception;
  const k = settings.maxChildren - node.childIds.length;
  const planned = await plan(rt, { question, tree, node, perception: perceived.perception, k, iteration, temperature: settings.explorationTemperature, maxTokens });
  addTokens(node, planned.tokens);
  node.rejected.push(...planned.rejected);
  if (planned.accepted.length === 0) {
    // Nothing new to try from here: close the node so selection looks elsewhere.
    node.exhausted = true;
    return null;
  }
  for (const action of planned.accepted) {
    // Check before each child: one expansion must not eat the answer reserve.
    const stop = rt.budget.searchStop();
    if (stop) throw new SearchStop(stop);
    const child = tree.addChild(node, action, iteration);
    record.createdIds.push(child.id);
    const result = await executeAction(env.exec, action, tree.pathEvidence(node));
    child.evidence = result.evidence;
    child.toolText = result.toolText;
    child.toolError = result.toolError;
    const evaluated = await evaluate(rt, { question, tree, node: child, iteration, maxDepth: settings.maxDepth, maxTokens, rubric: settings.rubric });
    addTokens(child, evaluated.tokens);
    if (evaluated.evaluation) {
      child.score = evaluated.evaluation.score;
      child.evaluation = { rationale: evaluated.evaluation.rationale, followUp: evaluated.evaluation.follow_up };
    }
    if (action.type === 'Finish') {
      const reason = finishProblem(tree, child, settings.finishMinScore);
      child.finishCheck = { passed: reason === null, reason };
      child.exhausted = true;
      // A Finish that fails its checks is scored down: its branch must not look like an answer.
      tree.backpropagate(child, reason === null ? (child.score ?? 0) : 0);
      if (reason === null) return child;
      continue;
    }
    tree.backpropagate(child, child.score ?? 0);
  }
  return null;
}

/** Why a Finish may not end the search, or null when it may. */
function finishProblem(tree: SearchTree, finish: TraceNode, minScore: number): string | null {
  if (tree.pathEvidence(finish).length === 0) return 'no evidence on its path';
  if (finish.score === null) return 'Evaluation gave it no score';
  if (finish.score < minScore) return `Evaluation scored it ${finish.score}, below ${minScore}`;
  return null;
}

function addTokens(node: TraceNode, tokens: RoleTokens): void {
  node.tokens.input += tokens.input;
  node.tokens.output += tokens.output;
}

/**
 * The evidence the answer is written from: the answer path's evidence in
 * trajectory order, then the rest of the tree's by node score (best first),
 * skipping spans already shown, at most `max` items.
 */
export function answerEvidence(tree: SearchTree, answerPath: readonly TraceNode[], max: number): TraceEvidence[] {
  const out: TraceEvidence[] = [];
  const add = (e: TraceEvidence) => {
    if (out.length < max && !covered(e, out)) out.push(e);
  };
  for (const node of answerPath) node.evidence.forEach(add);
  const onPath = new Set(answerPath.map((n) => n.id));
  const others = tree.nodes.filter((n) => !onPath.has(n.id) && n.evidence.length > 0);
  others.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.id - b.id);
  for (const node of others) node.evidence.forEach(add);
  return out;
}
