/**
 * The search tree: nodes hold an action and its evidence, the root-to-node
 * path is the memory handed to the model, and every node carries the MCTS
 * statistics (visits and the sum of values back-propagated through it).
 * Nodes are stored in the trace's own shape so the tree serialises as is.
 */
import type { TraceAction, TraceEvidence, TraceNode } from './trace-types.js';

/** A mutable tree of TraceNodes, root at id 0. */
export class SearchTree {
  readonly nodes: TraceNode[] = [];

  constructor() {
    this.nodes.push(newNode(0, null, 0, 0, null));
  }

  get root(): TraceNode {
    return this.nodes[0]!;
  }

  get(id: number): TraceNode {
    const node = this.nodes[id];
    if (!node) throw new Error(`no search node ${id}`);
    return node;
  }

  children(node: TraceNode): TraceNode[] {
    return node.childIds.map((id) => this.get(id));
  }

  parent(node: TraceNode): TraceNode | null {
    return node.parentId === null ? null : this.get(node.parentId);
  }

  /** Root-to-node, both included. */
  path(node: TraceNode): TraceNode[] {
    const out: TraceNode[] = [];
    for (let n: TraceNode | null = node; n; n = this.parent(n)) out.push(n);
    return out.reverse();
  }

  /** The other children of the node's parent (what sibling branches tried). */
  siblings(node: TraceNode): TraceNode[] {
    const parent = this.parent(node);
    return parent ? this.children(parent).filter((c) => c.id !== node.id) : [];
  }

  /** Adds a child holding `action`, created in `iteration`; it starts unvisited. */
  addChild(parent: TraceNode, action: TraceAction, iteration: number): TraceNode {
    const child = newNode(this.nodes.length, parent.id, parent.depth + 1, iteration, action);
    this.nodes.push(child);
    parent.childIds.push(child.id);
    return child;
  }

  /**
   * Back-propagation: adds one visit and `value` to the node and every
   * ancestor up to the root. Values are in score units (0–100).
   */
  backpropagate(node: TraceNode, value: number): void {
    for (let n: TraceNode | null = node; n; n = this.parent(n)) {
      n.visits += 1;
      n.valueSum += value;
    }
  }

  /** Evidence on the root-to-node path, oldest first. */
  pathEvidence(node: TraceNode): TraceEvidence[] {
    return this.path(node).flatMap((n) => n.evidence);
  }

  /** Highest Evaluation score of any node, or null before the first one. */
  bestScore(): number | null {
    let best: number | null = null;
    for (const n of this.nodes) if (n.score !== null && (best === null || n.score > best)) best = n.score;
    return best;
  }

  /**
   * The path to answer from when no Finish was chosen: from the root, follow
   * the child with the highest mean value (ties: more visits, then lower id).
   */
  bestPath(): TraceNode[] {
    let node = this.root;
    const path = [node];
    for (;;) {
      // A Finish node adds no evidence: the path ends at its parent.
      const children = this.children(node).filter((c) => c.action?.type !== 'Finish');
      if (children.length === 0) return path;
      children.sort((a, b) => meanValue(b) - meanValue(a) || b.visits - a.visits || a.id - b.id);
      node = children[0]!;
      path.push(node);
    }
  }

  /** Total tokens recorded on nodes. */
  totalTokens(): number {
    return this.nodes.reduce((sum, n) => sum + n.tokens.input + n.tokens.output, 0);
  }
}

/** Mean back-propagated value of a node (0 when unvisited), in score units. */
export function meanValue(node: Pick<TraceNode, 'valueSum' | 'visits'>): number {
  return node.visits === 0 ? 0 : node.valueSum / node.visits;
}

function newNode(id: number, parentId: number | null, depth: number, iteration: number, action: TraceAction | null): TraceNode {
  return {
    id,
    parentId,
    childIds: [],
    depth,
    createdAt: iteration,
    action,
    evidence: [],
    toolText: null,
    toolError: false,
    score: null,
    evaluation: null,
    valueSum: 0,
    visits: 0,
    exhausted: false,
    perception: null,
    rejected: [],
    tokens: { input: 0, output: 0 },
  };
}
