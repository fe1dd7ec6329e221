import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/mulberry32.js';
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

/** Random lists of 4-12 candidates and 6 features, 1-3 golds each; feature 1 leans toward the gold, the rest are noise. */
function randomLists(seed: number, count: number): List[] {
  const next = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const n = 4 + Math.floor(next() * 9);
    const golds = 1 + Math.floor(next() * 3);
    const labels = Array.from({ length: n }, (_, j) => (j < golds ? 1 : 0));
    const x = labels.map((l) => [next() * 2 - 0.5 * l, next() + l * next(), next(), next() * 10, next() < 0.5 ? 1 : 0, next() - 0.5]);
    return { x, labels };
  });
}

interface Model { weights: number[]; epochs: number; decrement: number }

describe('ranker-model optimiser converges', () => {
  const settings = [
    { loss: 'softmax', l2: 1 },
    { loss: 'softmax', l2: 0.01 },
    { loss: 'pairwise', l2: 1 },
    { loss: 'pairwise', l2: 0.01 },
    { loss: 'pairwise', l2: 0.1, lambda: false },
  ];

  it('never raises the loss from one epoch to the next, and stops converged (generated lists)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      for (const setting of settings) {
        const losses: number[] = [];
        const model = trainLevel(randomLists(seed, 40), { ...setting, onEpoch: (_: number, loss: number) => losses.push(loss) }) as Model;
        const where = `seed ${seed} ${JSON.stringify(setting)}`;
        for (let e = 1; e < losses.length; e++) expect(losses[e], `${where} epoch ${e}`).toBeLessThanOrEqual(losses[e - 1]!);
        expect(model.decrement, where).toBeLessThanOrEqual(1e-15 * Math.max(1, losses[losses.length - 1]!));
        expect(model.epochs, where).toBeLessThan(100);
      }
    }
  });

  it('one more epoch after convergence changes no ranking and no weight (generated lists)', () => {
    for (let seed = 1; seed <= 12; seed++) {
      for (const setting of settings) {
        const data = randomLists(seed, 40);
        const model = trainLevel(data, setting) as Model;
        const more = trainLevel(data, { ...setting, extraEpochs: 1 }) as Model;
        const where = `seed ${seed} ${JSON.stringify(setting)}`;
        // Weights are rounded to 1e-6: one more step may move a weight across a rounding boundary, never further.
        more.weights.forEach((w, d) => expect(Math.abs(w - model.weights[d]!), `${where} weight ${d}`).toBeLessThanOrEqual(1.0000001e-6));
        for (const list of randomLists(seed + 1000, 20)) {
          const keys = list.x.map((_, i) => `c${i}`);
          expect(rerank(more, keys, list.x), where).toEqual(rerank(model, keys, list.x));
        }
      }
    }
  });

  it('reaches the minimum: no weight nudged by ±1e-3 gives a lower loss (softmax, written out here independently)', () => {
    const data = randomLists(7, 40);
    const model = trainLevel(data, { loss: 'softmax', l2: 0.1 }) as Model & { mean: number[]; scale: number[] };
    const prior = model.weights.map((_, d) => (d === 0 ? 4 : 0));
    const objective = (w: number[]) => {
      let total = 0;
      for (const list of data) {
        const s = list.x.map((row) => row.reduce((a, v, d) => a + w[d]! * ((v - model.mean[d]!) / model.scale[d]!), 0));
        const top = Math.max(...s);
        const log = top + Math.log(s.reduce((a, v) => a + Math.exp(v - top), 0));
        const golds = list.labels.filter((l) => l === 1).length;
        total += s.reduce((a, v, j) => a + (list.labels[j] === 1 ? (log - v) / golds : 0), 0);
      }
      return total / data.length + w.reduce((a, v, d) => a + 0.05 * (v - prior[d]!) ** 2, 0);
    };
    const at = objective(model.weights);
    for (let d = 0; d < model.weights.length; d++) {
      for (const nudge of [-1e-3, 1e-3]) {
        const w = model.weights.map((v, i) => (i === d ? v + nudge : v));
        expect(objective(w), `dimension ${d} ${nudge}`).toBeGreaterThan(at);
      }
    }
  });

  it('throws rather than return weights that did not converge', () => {
    expect(() => trainLevel(randomLists(3, 40), { loss: 'softmax', l2: 0.01, epochs: 1 })).toThrow(/did not converge in 1 epochs/);
  });

  it('refuses l2 = 0 (the loss would not be strongly convex)', () => {
    expect(() => trainLevel(lists(5), { l2: 0 })).toThrow(/l2 must be > 0/);
  });
});
