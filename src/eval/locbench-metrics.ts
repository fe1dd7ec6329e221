/**
 * LocBench localization metrics with the exact semantics of LocAgent's
 * `evaluation/eval_metric.py` (`cal_metrics_w_dataset`), re-derived from its
 * label-vector formulation:
 *
 * - gold per level (de-duplicated, first occurrence kept): file = the part of
 *   each `edit_functions` item before the first `:`; module = `file:` + the
 *   first dotted part of the symbol after the last `:`; function = the whole
 *   string;
 * - only the top `maxK` predictions count (`maxK` = largest k of the level);
 * - a prediction position is a hit when the item is in the gold set — the
 *   metric does NOT de-duplicate predictions (a repeated gold item is two hits),
 *   so callers de-duplicate first (see {@link dedupePreservingOrder});
 * - `ideal` = min(|gold|, maxK) leading ones.
 *
 * All per-instance scores are plain numbers so that aggregation can stream.
 */

/** The three localization levels LocBench reports. */
export type LocLevel = 'file' | 'module' | 'function';

/** Levels in report order. */
export const LOC_LEVELS: readonly LocLevel[] = ['file', 'module', 'function'];

/** The k values reported per level (LocAgent's default `k_values_list`). */
export const LEVEL_KS: Readonly<Record<LocLevel, readonly number[]>> = {
  file: [1, 3, 5],
  module: [5, 10],
  function: [5, 10],
};

/** The prediction field LocAgent reads for each level. */
export const LEVEL_PREDICTION_KEY = {
  file: 'found_files',
  module: 'found_modules',
  function: 'found_entities',
} as const satisfies Record<LocLevel, string>;

/** Metric families, named as LocAgent names them in its result keys (`Acc@5`, `Recall@10`, …). */
export const METRIC_NAMES = ['Acc', 'Recall', 'NDCG', 'P', 'MAP'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Scores keyed `${MetricName}@${k}`, e.g. `{ 'Acc@5': 1, 'Recall@5': 0.5, … }`. */
export type MetricScores = Record<string, number>;

/**
 * Returns `items` without repeats, keeping the first occurrence of each, and how
 * many were removed. Does not mutate its input.
 */
export function dedupePreservingOrder(items: readonly string[]): { items: string[]; removed: number } {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    if (seen.has(item)) continue;
    seen.add(item);
    out.push(item);
  }
  return { items: out, removed: items.length - out.length };
}

/**
 * The gold list of one level derived from an instance's `edit_functions`
 * (`path/file.py:Class.method` or `path/file.py:function`), de-duplicated in order.
 * A top-level function is its own module: `a.py:f` → module `a.py:f`.
 */
export function goldAtLevel(editFunctions: readonly string[], level: LocLevel): string[] {
  const out: string[] = [];
  for (const item of editFunctions) {
    // split(':')[0] and split(':')[-1] as in eval_metric.py (first and last colon parts).
    const parts = item.split(':');
    const file = parts[0] ?? '';
    let value: string;
    if (level === 'file') value = file;
    else if (level === 'module') value = `${file}:${(parts[parts.length - 1] ?? '').split('.')[0] ?? ''}`;
    else value = item;
    out.push(value);
  }
  return dedupePreservingOrder(out).items;
}

function dcg(labels: readonly number[], k: number): number {
  let total = 0;
  for (let i = 0; i < Math.min(k, labels.length); i++) total += (labels[i] ?? 0) / Math.log2(i + 2);
  return total;
}

function countHits(labels: readonly number[], k: number): number {
  let hits = 0;
  for (let i = 0; i < Math.min(k, labels.length); i++) hits += labels[i] ?? 0;
  return hits;
}

/**
 * Scores one instance at one level. Returns null when `gold` is empty (LocAgent
 * skips such instances for that level). `predictions` are used as given (ranked,
 * NOT de-duplicated here); `ks` must be non-empty and positive.
 *
 * - `Acc@k` (strict) = 1 iff hits in top k == min(|gold|, k): every gold item is
 *   in the top k, or, with more gold than k, the top k are all gold.
 * - `Recall@k` = hits in top k / min(|gold|, max(ks)) — the denominator uses the
 *   largest reported k of the level, not k (so file Recall@1 with 3 gold items is
 *   at most 1/3).
 * - `NDCG@k`, `P@k` (= hits/k) and `MAP@k` (sum of precision at hit ranks / k)
 *   follow eval_metric.py too.
 */
export function scoreLevel(
  gold: readonly string[],
  predictions: readonly string[],
  ks: readonly number[],
): MetricScores | null {
  if (gold.length === 0) return null;
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new RangeError(`ks must be positive integers, got [${ks.join(', ')}]`);
  }
  const maxK = Math.max(...ks);
  const goldSet = new Set(gold);
  const labels = predictions.slice(0, maxK).map((p) => (goldSet.has(p) ? 1 : 0));
  const idealCount = Math.min(gold.length, maxK);
  const ideal = Array.from({ length: idealCount }, () => 1);

  const scores: MetricScores = {};
  for (const k of ks) {
    const hits = countHits(labels, k);
    scores[`Acc@${k}`] = hits === Math.min(idealCount, k) ? 1 : 0;
    scores[`Recall@${k}`] = hits / idealCount;
    const idealDcg = dcg(ideal, k);
    scores[`NDCG@${k}`] = idealDcg === 0 ? 0 : dcg(labels, k) / idealDcg;
    scores[`P@${k}`] = hits / k;
    let ap = 0;
    let seen = 0;
    for (let j = 0; j < Math.min(k, labels.length); j++) {
      if (labels[j] === 1) {
        seen += 1;
        ap += seen / (j + 1);
      }
    }
    scores[`MAP@${k}`] = ap / k;
  }
  return scores;
}

/** Mean metrics of one level over the instances that had gold at that level. */
export interface LevelMetrics {
  /** Instances scored at this level (non-empty gold). */
  evaluated: number;
  /** Instances left out at this level because their gold was empty. */
  skippedEmptyGold: number;
  /** Means keyed `Acc@k`, `Recall@k`, `NDCG@k`, `P@k`, `MAP@k`; empty when nothing was evaluated. */
  scores: MetricScores;
}

/** Metrics of all three levels. */
export type LocbenchMetrics = Record<LocLevel, LevelMetrics>;

/** The per-level scores of one instance (null = empty gold at that level). */
export type InstanceScores = Record<LocLevel, MetricScores | null>;

/** Minimal prediction shape the scorer reads (LocAgent's output keys). */
export interface LevelPredictions {
  found_files: readonly string[];
  found_modules: readonly string[];
  found_entities: readonly string[];
}

/**
 * Scores one instance at every level. A missing prediction (null) scores as
 * empty lists, as LocAgent does for instances absent from the output file.
 */
export function scoreInstance(editFunctions: readonly string[], prediction: LevelPredictions | null): InstanceScores {
  const result = {} as InstanceScores;
  for (const level of LOC_LEVELS) {
    const predicted = prediction ? prediction[LEVEL_PREDICTION_KEY[level]] : [];
    result[level] = scoreLevel(goldAtLevel(editFunctions, level), predicted, LEVEL_KS[level]);
  }
  return result;
}

/**
 * Streams instance scores into per-level sums; memory is O(number of metric
 * keys), independent of the number of instances.
 */
export class MetricAccumulator {
  private readonly sums: Record<LocLevel, Map<string, number>> = {
    file: new Map(),
    module: new Map(),
    function: new Map(),
  };
  private readonly evaluated: Record<LocLevel, number> = { file: 0, module: 0, function: 0 };
  private readonly emptyGold: Record<LocLevel, number> = { file: 0, module: 0, function: 0 };

  /** Adds one instance's scores (from {@link scoreInstance}). */
  add(scores: InstanceScores): void {
    for (const level of LOC_LEVELS) {
      const levelScores = scores[level];
      if (!levelScores) {
        this.emptyGold[level] += 1;
        continue;
      }
      this.evaluated[level] += 1;
      const sums = this.sums[level];
      for (const [key, value] of Object.entries(levelScores)) sums.set(key, (sums.get(key) ?? 0) + value);
    }
  }

  /** Number of instances added so far. */
  get count(): number {
    return this.evaluated.file + this.emptyGold.file;
  }

  /** Means per level; a level with no evaluated instance has empty `scores`. */
  result(): LocbenchMetrics {
    const out = {} as LocbenchMetrics;
    for (const level of LOC_LEVELS) {
      const n = this.evaluated[level];
      const scores: MetricScores = {};
      if (n > 0) for (const [key, sum] of this.sums[level]) scores[key] = sum / n;
      out[level] = { evaluated: n, skippedEmptyGold: this.emptyGold[level], scores };
    }
    return out;
  }
}

/**
 * The file-to-function gap: file Acc@5 − function Acc@5 (how much of the file
 * localization fails to carry down to functions). Null when either is missing.
 */
export function fileToFunctionGap(metrics: LocbenchMetrics): number | null {
  const file = metrics.file.scores['Acc@5'];
  const fn = metrics.function.scores['Acc@5'];
  return file === undefined || fn === undefined ? null : file - fn;
}

/** SweRank's LocBench headline metrics (Reddy et al. 2025): strict file Acc@5, module Acc@10, function Acc@10. */
export interface SweRankMetrics {
  fileAcc5: number | null;
  moduleAcc10: number | null;
  functionAcc10: number | null;
}

/** The three metrics SweRank reports on LocBench, read from `metrics` (null where a level has no instance). */
export function sweRankMetrics(metrics: LocbenchMetrics): SweRankMetrics {
  return {
    fileAcc5: metrics.file.scores['Acc@5'] ?? null,
    moduleAcc10: metrics.module.scores['Acc@10'] ?? null,
    functionAcc10: metrics.function.scores['Acc@10'] ?? null,
  };
}
