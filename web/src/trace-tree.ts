/**
 * The MCTS search tree as SVG: a tidy top-down layout (leaves side by side,
 * parents centred over their children), nodes coloured by mean value
 * (red 0 → green 100) and sized by visits, the answer path drawn heavier.
 */
import type { TraceNode } from '../../src/agents/ask/trace-types.js';
import { h, svg } from './dom.js';

const X_GAP = 124;
const Y_GAP = 104;
const MARGIN = 70;
const MIN_RADIUS = 7;
const MAX_EXTRA_RADIUS = 15;

/** A node's mean back-propagated value (0–100), or null when never visited. */
export function meanValue(node: Pick<TraceNode, 'valueSum' | 'visits'>): number | null {
  return node.visits > 0 ? node.valueSum / node.visits : null;
}

/** Red (0) through amber to green (100); grey for unvisited nodes. */
export function valueColour(value: number | null): string {
  if (value === null) return '#b8bcc4';
  const v = Math.max(0, Math.min(100, value));
  return `hsl(${Math.round(v * 1.2)}, 62%, ${v > 50 ? 40 : 48}%)`;
}

/** A short label for a node: its action type, `root` for the root. */
export function nodeLabel(node: TraceNode): string {
  return node.action ? node.action.type : 'root';
}

interface Placed {
  node: TraceNode;
  x: number;
  y: number;
  depth: number;
}

/**
 * Positions every node reachable from a root. Nodes whose parent is missing
 * hang under the first root (the server warned about them); cycles are cut.
 */
export function layoutTree(nodes: readonly TraceNode[]): { placed: Map<number, Placed>; width: number; height: number } {
  const ids = new Set(nodes.map((n) => n.id));
  const roots = nodes.filter((n) => n.parentId === null);
  const firstRoot = roots[0]?.id ?? null;
  const children = new Map<number, TraceNode[]>();
  for (const n of nodes) {
    if (n.parentId === null) continue;
    const parent = ids.has(n.parentId) ? n.parentId : firstRoot;
    if (parent === null || parent === n.id) continue;
    children.set(parent, [...(children.get(parent) ?? []), n]);
  }
  for (const list of children.values()) list.sort((a, b) => a.id - b.id);
  const placed = new Map<number, Placed>();
  let slot = 0;
  let maxDepth = 0;
  const place = (node: TraceNode, depth: number): number => {
    if (placed.has(node.id)) return placed.get(node.id)!.x;
    placed.set(node.id, { node, x: 0, y: 0, depth }); // reserve first: a cycle stops here
    maxDepth = Math.max(maxDepth, depth);
    const kids = (children.get(node.id) ?? []).filter((k) => !placed.has(k.id));
    let x: number;
    if (kids.length === 0) x = slot++;
    else {
      const xs = kids.map((k) => place(k, depth + 1));
      x = (xs[0]! + xs[xs.length - 1]!) / 2;
    }
    placed.set(node.id, { node, x, y: depth, depth });
    return x;
  };
  for (const root of roots) place(root, 0);
  for (const p of placed.values()) {
    p.x = MARGIN + p.x * X_GAP;
    p.y = MARGIN + p.y * Y_GAP;
  }
  return { placed, width: Math.max(1, slot) * X_GAP - X_GAP + 2 * MARGIN, height: maxDepth * Y_GAP + 2 * MARGIN + 24 };
}

export interface TreeOptions {
  answerPath: readonly number[];
  onSelect: (node: TraceNode) => void;
}

/** The SVG tree; `select(id)` marks a node as selected. */
export function renderTree(nodes: readonly TraceNode[], options: TreeOptions): { element: SVGSVGElement; select: (id: number) => void } {
  const { placed, width, height } = layoutTree(nodes);
  const maxVisits = Math.max(1, ...nodes.map((n) => n.visits));
  const radiusOf = (node: TraceNode) => MIN_RADIUS + MAX_EXTRA_RADIUS * Math.sqrt(node.visits / maxVisits);
  const onPath = new Set<string>();
  for (let i = 1; i < options.answerPath.length; i++) onPath.add(`${options.answerPath[i - 1]}>${options.answerPath[i]}`);
  const edges: SVGElement[] = [];
  const circles: SVGElement[] = [];
  const groups = new Map<number, SVGGElement>();
  for (const p of placed.values()) {
    const parent = p.node.parentId !== null ? placed.get(p.node.parentId) ?? (p.depth > 0 ? [...placed.values()].find((q) => q.depth === 0) : undefined) : undefined;
    if (parent && parent !== p) {
      // From below the parent's two label lines to the top of the child's circle, so no edge crosses text.
      const fromY = parent.y + radiusOf(parent.node) + 30;
      const toY = p.y - radiusOf(p.node) - 2;
      const midY = (fromY + toY) / 2;
      const answer = onPath.has(`${parent.node.id}>${p.node.id}`);
      edges.push(svg('path', { d: `M${parent.x},${fromY} C${parent.x},${midY} ${p.x},${midY} ${p.x},${toY}`, class: answer ? 'edge answer-edge' : 'edge' }));
    }
    const value = meanValue(p.node);
    const radius = radiusOf(p.node);
    const score = p.node.score === null ? '' : ` · ${Math.round(p.node.score)}`;
    const title = `#${p.node.id} ${nodeLabel(p.node)}${p.node.action ? ` ${JSON.stringify(p.node.action.args)}` : ''}\nmean value ${value === null ? '–' : value.toFixed(1)}, visits ${p.node.visits}, score ${p.node.score ?? '–'}`;
    const group = svg(
      'g',
      {
        class: p.node.toolError ? 'tree-node tool-error' : 'tree-node',
        'data-node-id': p.node.id,
        transform: `translate(${p.x},${p.y})`,
        tabindex: 0,
        role: 'button',
        'aria-label': `Node ${p.node.id}: ${nodeLabel(p.node)}`,
        onclick: () => options.onSelect(p.node),
        onkeydown: (event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            options.onSelect(p.node);
          }
        },
      },
      svg('title', null, title),
      svg('circle', { r: radius.toFixed(1), fill: valueColour(value) }),
      svg('text', { class: 'node-label', y: (radius + 13).toFixed(1), 'text-anchor': 'middle' }, nodeLabel(p.node)),
      svg('text', { class: 'node-sub', y: (radius + 25).toFixed(1), 'text-anchor': 'middle' }, `#${p.node.id}${score} · ${p.node.visits}v`),
    );
    groups.set(p.node.id, group);
    circles.push(group);
  }
  const element = svg(
    'svg',
    { class: 'tree', id: 'trace-tree', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'Search tree' },
    svg('g', { class: 'edges' }, edges),
    svg('g', { class: 'nodes' }, circles),
  );
  const select = (id: number) => {
    for (const [nodeId, group] of groups) group.classList.toggle('selected', nodeId === id);
  };
  return { element, select };
}

/** The colour and size legend. */
export function treeLegend(): HTMLElement {
  const stops = [0, 25, 50, 75, 100].map((v) => svg('stop', { offset: `${v}%`, 'stop-color': valueColour(v) }));
  return h(
    'div',
    { class: 'legend' },
    h('span', null, 'mean value'),
    svg(
      'svg',
      { width: 160, height: 14, 'aria-hidden': 'true' },
      svg('defs', null, svg('linearGradient', { id: 'value-gradient' }, stops)),
      svg('rect', { width: 160, height: 14, rx: 3, fill: 'url(#value-gradient)' }),
    ),
    h('span', { class: 'muted small' }, '0 → 100 · size = visits · heavy line = answer path · grey = unvisited'),
  );
}
