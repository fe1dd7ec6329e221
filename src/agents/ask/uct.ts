/**
 * UCT selection (Kocsis & Szepesvári): from the root, descend to the child
 * maximising  mean/100 + c·√(ln N_parent / N_child)  until reaching a node
 * that can still be expanded, or a dead end. A Finish node is never
 * selected: one that passed its checks ended the search when it was
 * evaluated (mcts-search.ts), one that failed them is closed. Values are
 * scores on 0–100, scaled to 0–1 here so the constant keeps its usual range.
 */
import type { SearchTree } from './search-tree.js';
import { meanValue } from './search-tree.js';
import type { TraceNode } from './trace-types.js';

/** What selection needs from the settings. */
export interface SelectionLimits {
  maxChildren: number;
  maxDepth: number;
  uctC: number;
}

/**
 * The UCT value of a child. An unvisited child scores +∞ so it is tried
 * before any visited sibling.
 */
export function uctScore(child: Pick<TraceNode, 'valueSum' | 'visits'>, parentVisits: number, c: number): number {
  if (child.visits === 0) return Number.POSITIVE_INFINITY;
  const exploitation = meanValue(child) / 100;
  const exploration = c * Math.sqrt(Math.log(Math.max(1, parentVisits)) / child.visits);
  return exploitation + exploration;
}

/**
 * A node may get more children while it is not a Finish node, has fewer than
 * `maxChildren` children, is above the depth limit, and planning has not
 * reported it exhausted. (Re-expanding a node with fewer children than the
 * limit is how a dropped duplicate gets replaced.)
 */
export function canExpand(node: TraceNode, limits: SelectionLimits): boolean {
  return node.action?.type !== 'Finish' && !node.exhausted && node.childIds.length < limits.maxChildren && node.depth < limits.maxDepth;
}

/** A subtree is open when selection can still do something useful in it: it holds an expandable node. */
export function isOpen(tree: SearchTree, node: TraceNode, limits: SelectionLimits): boolean {
  if (canExpand(node, limits)) return true;
  return tree.children(node).some((child) => isOpen(tree, child, limits));
}

/**
 * Selection. Returns the node where this iteration acts (expands) and the root-to-node path, or null when
 * the whole tree is closed. Among children only open subtrees compete; ties
 * go to the older child (lower id), so runs are deterministic.
 */
export function selectNode(tree: SearchTree, limits: SelectionLimits): { node: TraceNode; path: TraceNode[] } | null {
  let node = tree.root;
  if (!isOpen(tree, node, limits)) return null;
  const path = [node];
  for (;;) {
    if (canExpand(node, limits)) return { node, path };
    const open = tree.children(node).filter((child) => isOpen(tree, child, limits));
    if (open.length === 0) return { node, path };
    let best = open[0]!;
    let bestScore = uctScore(best, node.visits, limits.uctC);
    for (const child of open.slice(1)) {
      const score = uctScore(child, node.visits, limits.uctC);
      if (score > bestScore) {
        best = child;
        bestScore = score;
      }
    }
    node = best;
    path.push(node);
  }
}
