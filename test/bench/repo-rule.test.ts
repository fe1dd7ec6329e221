import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/mulberry32.js';
// @ts-expect-error: a bench module in plain JavaScript, without type declarations
import { perRepositoryRule, RULE_METRICS } from '../../bench/repo-rule.mjs';

type Scores = Record<string, Record<string, number>>;
interface Row { repo: string; metric: [string, string]; low: number; won: number; lost: number }

/** 2-5 repositories of 4-30 instances each, every metric of RULE_METRICS 0 or 1 at random. */
function generated(seed: number): { repoOf: string[]; scores: Scores[] } {
  const next = mulberry32(seed);
  const repoOf: string[] = [];
  const repos = 2 + Math.floor(next() * 4);
  for (let r = 0; r < repos; r++) for (let n = 4 + Math.floor(next() * 27); n > 0; n--) repoOf.push(`owner/repo${r}`);
  const scores = repoOf.map(() => {
    const s: Scores = { file: {}, module: {}, function: {} };
    for (const [level, metric] of RULE_METRICS as [string, string][]) s[level]![metric] = next() < 0.5 ? 1 : 0;
    return s;
  });
  return { repoOf, scores };
}

const flip = (scores: Scores[], i: number, [level, metric]: [string, string], to: number): Scores[] =>
  scores.map((s, k) => (k === i ? { ...s, [level]: { ...s[level], [metric]: to } } : s));

describe('perRepositoryRule', () => {
  it('passes a change that alters nothing, and one that only wins (generated)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { repoOf, scores } = generated(seed);
      expect(perRepositoryRule(repoOf, scores, scores).failing, `seed ${seed}`).toEqual([]);
      const next = mulberry32(seed + 100);
      const i = Math.floor(next() * repoOf.length);
      const metric = RULE_METRICS[Math.floor(next() * RULE_METRICS.length)] as [string, string];
      const base = flip(scores, i, metric, 0);
      expect(perRepositoryRule(repoOf, base, flip(base, i, metric, 1)).failing, `seed ${seed}`).toEqual([]);
    }
  });

  it('fails a change that loses one instance, naming exactly that repository and metric (generated)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { repoOf, scores } = generated(seed);
      const next = mulberry32(seed + 200);
      const i = Math.floor(next() * repoOf.length);
      const metric = RULE_METRICS[Math.floor(next() * RULE_METRICS.length)] as [string, string];
      const base = flip(scores, i, metric, 1);
      const { rows, failing } = perRepositoryRule(repoOf, base, flip(base, i, metric, 0)) as { rows: Row[]; failing: Row[] };
      expect(failing.map((r) => [r.repo, r.metric]), `seed ${seed}`).toEqual([[repoOf[i], metric]]);
      expect(failing[0]!.lost, `seed ${seed}`).toBe(1);
      expect(rows.length, `seed ${seed}`).toBe(new Set(repoOf).size * RULE_METRICS.length);
    }
  });

  it('refuses score lists that do not match the instances', () => {
    expect(() => perRepositoryRule(['a/b'], [], [])).toThrow(/one score per instance/);
  });
});
