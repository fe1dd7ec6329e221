import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { ensembleScore, trainLambdaMart, treeValue, type RankingList } from './lambdamart.js';


/**
 * Lists of 20 candidates with 4 features; one relevant per list, chosen by a
 * rule no single feature orders by: feature 0 is a noisy score, and the
 * relevant one has feature 1 above 0.5 AND feature 2 below 0.3 (an interaction
 * a tree can learn and a linear model cannot).
 */
function lists(seed: number, count: number): RankingList[] {
  const r = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const x = Array.from({ length: 20 }, () => [r(), r(), r(), r()]);
    const target = Math.floor(r() * 20);
    x[target] = [r(), 0.5 + r() / 2, r() * 0.3, r()];
    // Every other candidate breaks the rule.
    x.forEach((row, i) => i !== target && row[1]! > 0.5 && (row[2] = 0.3 + r() * 0.7));
    return { x, y: x.map((_, i) => (i === target ? 1 : 0)) };
  });
}

/** Share of lists whose relevant candidate the trees rank first. */
function top1(trees: Parameters<typeof ensembleScore>[0], data: RankingList[]): number {
  let hit = 0;
  for (const list of data) {
    const scores = list.x.map((x) => ensembleScore(trees, x));
    const best = scores.reduce((b, s, i) => (s > scores[b]! ? i : b), 0);
    if (list.y[best] === 1) hit++;
  }
  return hit / data.length;
}

describe('LambdaMART', () => {
  for (const seed of [1, 7, 42]) {
    it(`learns an interaction of two features on held-out lists (seed ${seed})`, () => {
      const train = lists(seed, 200);
      const test = lists(seed + 1000, 100);
      const trees = trainLambdaMart(train, { trees: 30, leaves: 8, minLeaf: 20 });
      expect(trees).toHaveLength(30);
      // Chance is 1/20; the rule is learnable exactly.
      expect(top1(trees, test)).toBeGreaterThan(0.9);
    });
  }

  it('is deterministic: the same data gives the same trees', () => {
    const data = lists(3, 80);
    expect(JSON.stringify(trainLambdaMart(data, { trees: 5 }))).toBe(JSON.stringify(trainLambdaMart(data, { trees: 5 })));
  });

  it('respects the leaf count and the fewest rows per leaf', () => {
    const data = lists(5, 60);
    const rows = data.flatMap((l) => l.x);
    for (const tree of trainLambdaMart(data, { trees: 5, leaves: 4, minLeaf: 100 })) {
      const leaves = tree.feature.map((f, i) => (f < 0 ? i : -1)).filter((i) => i >= 0);
      expect(leaves.length).toBeLessThanOrEqual(4);
      const counts = new Map<number, number>();
      for (const x of rows) {
        let node = 0;
        while (tree.feature[node]! >= 0) node = x[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
        counts.set(node, (counts.get(node) ?? 0) + 1);
      }
      for (const n of counts.values()) expect(n).toBeGreaterThanOrEqual(100);
    }
  });

  it('learns nothing from lists without a relevant candidate or without an irrelevant one', () => {
    expect(trainLambdaMart([{ x: [[1], [2]], y: [0, 0] }, { x: [[1], [2]], y: [1, 1] }], { trees: 3 })).toEqual([]);
  });

  it('a tree is evaluated from its root down to a leaf', () => {
    const tree = { feature: [0, -1, 1, -1, -1], threshold: [0.5, 0, 2, 0, 0], left: [1, -1, 3, -1, -1], right: [2, -1, 4, -1, -1], value: [0, -1, 0, 3, 5] };
    expect(treeValue(tree, [0.4, 9])).toBe(-1);
    expect(treeValue(tree, [0.6, 2])).toBe(3);
    expect(treeValue(tree, [0.6, 2.1])).toBe(5);
  });
});
