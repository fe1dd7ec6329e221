import { describe, expect, it } from 'vitest';
import { parseAction } from './actions.js';
import { PlateauDetector } from './plateau-detector.js';
import { SearchTree } from './search-tree.js';
import { canExpand, isOpen, selectNode, uctScore } from './uct.js';

const action = (name: string) => {
  const parsed = parseAction('FindFunction', { name });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.action;
};
const limits = { maxChildren: 3, maxDepth: 4, uctC: 1.41 };

/** Adds a child scored `score` and back-propagates it, as one simulation does. */
function grow(tree: SearchTree, parentId: number, name: string, score: number) {
  const child = tree.addChild(tree.get(parentId), action(name), 1);
  child.score = score;
  tree.backpropagate(child, score);
  return child;
}

describe('uctScore', () => {
  it('is mean/100 plus c·sqrt(ln N / n), and +∞ for an unvisited child', () => {
    expect(uctScore({ valueSum: 80, visits: 1 }, 3, 1.41)).toBeCloseTo(0.8 + 1.41 * Math.sqrt(Math.log(3)), 10);
    expect(uctScore({ valueSum: 140, visits: 4 }, 6, 1.41)).toBeCloseTo(0.35 + 1.41 * Math.sqrt(Math.log(6) / 4), 10);
    expect(uctScore({ valueSum: 0, visits: 0 }, 6, 1.41)).toBe(Number.POSITIVE_INFINITY);
    expect(uctScore({ valueSum: 50, visits: 1 }, 1, 0)).toBe(0.5);
  });
});

describe('selection and back-propagation', () => {
  it('back-propagates values and visits to the root', () => {
    const tree = new SearchTree();
    grow(tree, 0, 'a', 60);
    const b = grow(tree, 0, 'b', 80);
    grow(tree, 0, 'c', 40);
    expect(tree.root).toMatchObject({ visits: 3, valueSum: 180 });
    grow(tree, b.id, 'd', 20);
    grow(tree, b.id, 'e', 30);
    expect(tree.get(b.id)).toMatchObject({ visits: 3, valueSum: 130 });
    expect(tree.root).toMatchObject({ visits: 5, valueSum: 230 });
  });

  it('expands the root until it has maxChildren, then follows UCT', () => {
    const tree = new SearchTree();
    expect(selectNode(tree, limits)!.node.id).toBe(0);
    grow(tree, 0, 'a', 60);
    grow(tree, 0, 'b', 80);
    expect(selectNode(tree, limits)!.node.id).toBe(0); // 2 < 3 children: root again
    grow(tree, 0, 'c', 40);
    // Equal exploration terms: the best mean wins.
    expect(selectNode(tree, limits)!.path.map((n) => n.id)).toEqual([0, 2]);
    grow(tree, 2, 'd', 20);
    grow(tree, 2, 'e', 30);
    grow(tree, 2, 'f', 10);
    // b: 140/4 → 0.35 + 1.41·sqrt(ln6/4) ≈ 1.294; a: 0.6 + 1.41·sqrt(ln6) ≈ 2.487; c ≈ 2.287.
    expect(selectNode(tree, limits)!.node.id).toBe(1);
  });

  it('skips closed subtrees and reports a closed tree', () => {
    const tree = new SearchTree();
    const a = grow(tree, 0, 'a', 90);
    const b = grow(tree, 0, 'b', 10);
    tree.root.exhausted = true;
    a.exhausted = true; // a is closed: no children and no further expansion
    expect(isOpen(tree, a, limits)).toBe(false);
    expect(selectNode(tree, limits)!.node.id).toBe(b.id);
    b.exhausted = true;
    expect(selectNode(tree, limits)).toBeNull();
  });

  it('never selects or expands a Finish node (one that passed ended the search; one that failed is closed), nor a node at the depth limit', () => {
    const tree = new SearchTree();
    const a = grow(tree, 0, 'a', 50);
    const finish = parseAction('Finish', { reason: 'enough' });
    if (!finish.ok) throw new Error('finish');
    const f = tree.addChild(a, finish.action, 2);
    f.score = 99;
    tree.backpropagate(f, 99);
    tree.root.exhausted = true;
    a.exhausted = true;
    expect(canExpand(f, limits)).toBe(false);
    expect(isOpen(tree, f, limits)).toBe(false);
    expect(selectNode(tree, limits)).toBeNull();
    const deep = tree.addChild(tree.root, action('deep'), 1);
    deep.depth = limits.maxDepth;
    expect(canExpand(deep, limits)).toBe(false);
  });

  it('picks the best path by mean value, ignoring Finish nodes', () => {
    const tree = new SearchTree();
    grow(tree, 0, 'a', 60);
    const b = grow(tree, 0, 'b', 80);
    grow(tree, b.id, 'c', 70);
    expect(tree.bestPath().map((n) => n.id)).toEqual([0, 2, 3]);
  });
});

describe('PlateauDetector', () => {
  it('fires after `window` iterations without an improvement of epsilon', () => {
    const p = new PlateauDetector(2, 1);
    p.record(60);
    p.record(60);
    expect(p.plateaued()).toBe(false);
    p.record(60.5);
    expect(p.plateaued()).toBe(true);
    const q = new PlateauDetector(2, 1);
    for (const s of [10, 20, 30]) q.record(s);
    expect(q.plateaued()).toBe(false);
    expect(new PlateauDetector(0, 1).plateaued()).toBe(false);
  });
});
