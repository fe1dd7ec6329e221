import { describe, expect, it } from 'vitest';
import { isSignificant, pairedBootstrap, pairedBootstrapMany, quantile, seededRandom } from './paired-bootstrap.js';

/** Normal CDF (Abramowitz–Stegun 7.1.26 erf), for the large-sample check. */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(z) / Math.SQRT2);
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

describe('pairedBootstrap', () => {
  it('agrees with the exact bootstrap distribution, enumerated over all n^n resamples of a small sample', () => {
    const a = [0, 1, 0, 1, 0];
    const b = [1, 1, 0, 0, 1];
    const d = b.map((v, i) => v - a[i]!);
    const exact: number[] = [];
    for (let code = 0; code < 5 ** 5; code++) {
      let sum = 0;
      for (let k = 0, c = code; k < 5; k++, c = Math.floor(c / 5)) sum += d[c % 5]!;
      exact.push(sum / 5);
    }
    exact.sort((x, y) => x - y);
    const result = pairedBootstrap(a, b);
    // Atoms of the exact distribution are 0.2 apart; Monte Carlo with 10,000 draws lands on the same atom or its neighbour.
    expect(Math.abs(result.low - quantile(exact, 0.025))).toBeLessThanOrEqual(0.2 + 1e-9);
    expect(Math.abs(result.high - quantile(exact, 0.975))).toBeLessThanOrEqual(0.2 + 1e-9);
    const exactP = exact.filter((v) => Math.abs(v - 0.2) >= 0.2 - 1e-12).length / exact.length;
    expect(result.pValue).toBeCloseTo(exactP, 1);
    expect(result).toMatchObject({ n: 5, meanA: 0.4, meanB: 0.6, won: 2, lost: 1, tied: 2 });
    expect(result.difference).toBeCloseTo(0.2, 12);
  });

  it('matches the normal approximation on a large sample (interval and p-value)', () => {
    const random = seededRandom(42);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 400; i++) {
      const hard = random() < 0.4;
      a.push(hard ? 0 : random() < 0.8 ? 1 : 0);
      b.push(hard ? (random() < 0.15 ? 1 : 0) : random() < 0.85 ? 1 : 0);
    }
    const d = b.map((v, i) => v - a[i]!);
    const mean = d.reduce((s, v) => s + v, 0) / d.length;
    const se = Math.sqrt(d.reduce((s, v) => s + (v - mean) ** 2, 0) / d.length / d.length);
    const result = pairedBootstrap(a, b, { resamples: 10_000, seed: 7 });
    expect(result.difference).toBeCloseTo(mean, 12);
    expect(Math.abs(result.low - (mean - 1.959964 * se))).toBeLessThan(0.15 * se);
    expect(Math.abs(result.high - (mean + 1.959964 * se))).toBeLessThan(0.15 * se);
    const normalP = 2 * (1 - normalCdf(Math.abs(mean) / se));
    expect(Math.abs(result.pValue - normalP)).toBeLessThan(0.02);
  });

  it('is reproducible under a seed and shares one draw across measures', () => {
    const a = [1, 0, 1, 1, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 1, 0, 1, 1];
    expect(pairedBootstrap(a, b, { seed: 3 })).toEqual(pairedBootstrap(a, b, { seed: 3 }));
    const many = pairedBootstrapMany(new Map([['x', { a, b }], ['y', { a, b }]]), { seed: 3 });
    expect(many.get('x')).toEqual(many.get('y'));
    expect(many.get('x')).toEqual(pairedBootstrap(a, b, { seed: 3 }));
  });

  it('reports no difference as p = 1 with an interval around zero, and a uniform gain as significant', () => {
    const same = pairedBootstrap([1, 0, 1, 0], [0, 1, 1, 0]);
    expect(same).toMatchObject({ difference: 0, pValue: 1, won: 1, lost: 1, tied: 2 });
    expect(isSignificant(same)).toBe(false);
    const gain = pairedBootstrap(new Array(30).fill(0), new Array(30).fill(1));
    expect(gain).toMatchObject({ difference: 1, low: 1, high: 1, won: 30 });
    expect(gain.pValue).toBeCloseTo(1 / 10_001, 10);
    expect(isSignificant(gain)).toBe(true);
  });

  it('refuses score lists of different lengths', () => {
    expect(() => pairedBootstrap([1, 0], [1])).toThrow(/expected 2/);
  });
});

describe('quantile', () => {
  it('interpolates linearly between order statistics like numpy', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([0, 10], 0.025)).toBeCloseTo(0.25, 12);
  });
});
