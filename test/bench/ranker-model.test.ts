import { describe, expect, it } from 'vitest';
// @ts-expect-error: a bench module in plain JavaScript, without type declarations
import { pairwiseCoefficients, rerank, trainLevel } from '../../bench/ranker-model.mjs';

interface List { x: number[][]; labels: number[] }

/** Lists where the default's score (dimension 0) puts a non-gold first and dimension 1 marks the gold. */
function lists(count: number): List[] {
  return Array.from({ length: count }, (_, i) => ({
    x: [
      [1, 0, i % 3],
      [0.9, 1, (i + 1) % 3],
      [0.5, 0, (i + 2) % 3],
    ],
    labels: [0, 1, 0],
  }));
}

describe('ranker-model pairwise loss', () => {
  it('gives the gold a negative coefficient and the non-golds a positive one, summing to zero', () => {
    const c = pairwiseCoefficients([2, 1, 0], [0, 1, 0]) as number[];
    expect(c[1]).toBeLessThan(0);
    expect(c[0]).toBeGreaterThan(0);
    expect(c[2]).toBeGreaterThan(0);
    expect(c.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });

  it('weighs a pair by its DCG change: the pair across the top counts more than the one lower down', () => {
    const c = pairwiseCoefficients([3, 2, 1, 0], [0, 1, 0, 0]) as number[];
    expect(c[0]).toBeGreaterThan(c[3]!);
    const uniform = pairwiseCoefficients([3, 2, 1, 0], [0, 1, 0, 0], false) as number[];
    expect(uniform[0]! / uniform[3]!).toBeLessThan(c[0]! / c[3]!);
  });

  it('learns a feature that marks the gold and moves it first', () => {
    const model = trainLevel(lists(30), { loss: 'pairwise', l2: 0.01 });
    expect(model.weights[1]).toBeGreaterThan(0);
    expect(rerank(model, ['a', 'b', 'c'], lists(1)[0]!.x)[0]).toBe('b');
  });

  it('keeps the default order under a strong pull toward it', () => {
    const model = trainLevel(lists(30), { loss: 'pairwise', l2: 1000 });
    expect(rerank(model, ['a', 'b', 'c'], lists(1)[0]!.x)).toEqual(['a', 'b', 'c']);
  });

  it('gives the same weights on the same data (deterministic)', () => {
    expect(trainLevel(lists(20), { loss: 'pairwise' })).toEqual(trainLevel(lists(20), { loss: 'pairwise' }));
  });

  it('refuses an unknown loss', () => {
    expect(() => trainLevel(lists(2), { loss: 'hinge' })).toThrow(/unknown loss/);
  });
});
