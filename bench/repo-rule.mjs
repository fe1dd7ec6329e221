// The per-repository rule for a ranking change: the change does not lose
// where, in every repository and at every level's deepest scored cut-offs,
// the paired bootstrap interval of (change − baseline) keeps its low end at or
// above a floor (−0.01). A pooled interval hides a repository that loses;
// this reads each repository alone, so one lost instance in a small
// repository fails the rule unless the same repository wins another.
import { pairedBootstrap } from '../dist/eval/paired-bootstrap.js';

/** The metrics the rule reads: file Acc@3 / @5 (the deepest file cut-offs scored), module and function Acc@5 / @10. */
export const RULE_METRICS = [['file', 'Acc@3'], ['file', 'Acc@5'], ['module', 'Acc@5'], ['module', 'Acc@10'], ['function', 'Acc@5'], ['function', 'Acc@10']];

/** The lowest interval end the rule accepts. */
export const RULE_FLOOR = -0.01;

const value = (s, [level, metric]) => s?.[level]?.[metric] ?? 0;

/**
 * Per repository (sorted) and metric, the paired bootstrap of `candidate`
 * against `base` (per-instance LocBench scores, `repoOf[i]` the repository of
 * instance i) → `{ rows, failing }`: every row `{ repo, n, metric, difference,
 * low, high, won, lost }` and the rows whose low end is below `floor`.
 */
export function perRepositoryRule(repoOf, base, candidate, { metrics = RULE_METRICS, floor = RULE_FLOOR } = {}) {
  if (base.length !== repoOf.length || candidate.length !== repoOf.length) throw new Error('perRepositoryRule: one score per instance on both sides');
  const rows = [];
  for (const repo of [...new Set(repoOf)].sort()) {
    const ii = repoOf.flatMap((r, i) => (r === repo ? [i] : []));
    for (const metric of metrics) {
      const r = pairedBootstrap(ii.map((i) => value(base[i], metric)), ii.map((i) => value(candidate[i], metric)));
      rows.push({ repo, n: ii.length, metric, difference: r.difference, low: r.low, high: r.high, won: r.won, lost: r.lost });
    }
  }
  return { rows, failing: rows.filter((row) => row.low < floor) };
}
