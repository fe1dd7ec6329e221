/**
 * Scores a predictions JSONL (ours or another tool's, LocAgent shape) against
 * LocBench instances. Semantics follow LocAgent: every in-scope instance with
 * gold is scored, an instance without a prediction line scores as empty lists,
 * and when an id appears on several lines the last one wins. Unlike the metric
 * itself, each ranked list is de-duplicated first; the number removed is
 * reported.
 */
import type { LocbenchInstance, MalformedLine } from './locbench-instances.js';
import {
  MetricAccumulator,
  scoreInstance,
  type InstanceScores,
  type LocbenchMetrics,
} from './locbench-metrics.js';
import { dedupePrediction, readPredictionLines } from './prediction-file.js';

/** Metrics of one slice (a category or a repository). */
export interface GroupScores {
  instances: number;
  withPrediction: number;
  metrics: LocbenchMetrics;
}

/** Everything scoring a predictions file produced. */
export interface ScoredPredictions {
  /** LocAgent semantics: all in-scope instances, missing predictions scored as empty. */
  metrics: LocbenchMetrics;
  /** Only the in-scope instances that have a prediction line. */
  metricsPredictedOnly: LocbenchMetrics;
  byCategory: Record<string, GroupScores>;
  byRepo: Record<string, GroupScores>;
  counts: {
    /** In-scope instances. */
    instances: number;
    withPrediction: number;
    missingPrediction: number;
    /** Items removed by per-list de-duplication, summed over used lines. */
    duplicatesRemoved: number;
    /** Used prediction lines that had at least one duplicate. */
    predictionsWithDuplicates: number;
    /** Lines for an id seen earlier in the file (the later line was used). */
    repeatedPredictionLines: number;
    /** Valid lines whose instance is not in scope (ignored). */
    outOfScopePredictionLines: number;
    malformedPredictionLines: number;
  };
  /** Every in-scope instance's scores, in instance order (missing predictions scored as empty); for paired comparisons. */
  perInstance: InstanceScoreRow[];
  /** The first malformed prediction lines (at most 50), with reasons. */
  malformedPredictionLines: MalformedLine[];
  /** Raw timing samples from our `meta` (absent for other tools' files). */
  timingSamples: {
    /** `meta.wall_ms` of each used line that had it. */
    wallMs: number[];
    /** `meta.timings[stage]` per stage. */
    stages: Record<string, number[]>;
  };
}

/** One instance's scores with what identifies and groups it. */
export interface InstanceScoreRow {
  instanceId: string;
  repo: string;
  category: string;
  /** Whether the predictions file had a line for it. */
  predicted: boolean;
  scores: InstanceScores;
}

/** Options of {@link scorePredictions}. */
export interface ScorePredictionsOptions {
  /** The instances to score (the scope); gold comes from their `edit_functions`. */
  instances: readonly LocbenchInstance[];
  predictionsPath: string;
}

const MAX_REPORTED_MALFORMED = 50;

interface UsedLine {
  scores: InstanceScores;
  duplicatesRemoved: number;
  wallMs?: number;
  stages?: Record<string, number>;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function stageTimings(value: unknown): Record<string, number> | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const out: Record<string, number> = {};
  for (const [key, raw] of Object.entries(value)) {
    const n = finiteNumber(raw);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

function emptyGroup(): { instances: number; withPrediction: number; acc: MetricAccumulator } {
  return { instances: 0, withPrediction: 0, acc: new MetricAccumulator() };
}

/**
 * Streams `predictionsPath` and scores it against `instances`. Only per-instance
 * score numbers are kept in memory, never the prediction lists. Throws
 * ReponavError FILE_NOT_FOUND when the predictions file is missing; malformed
 * lines are counted and listed, never fatal.
 */
export async function scorePredictions(options: ScorePredictionsOptions): Promise<ScoredPredictions> {
  const byId = new Map<string, LocbenchInstance>();
  for (const instance of options.instances) byId.set(instance.instance_id, instance);

  const used = new Map<string, UsedLine>();
  const malformed: MalformedLine[] = [];
  let malformedCount = 0;
  let repeated = 0;
  let outOfScope = 0;
  for await (const line of readPredictionLines(options.predictionsPath)) {
    if (!line.ok) {
      malformedCount += 1;
      if (malformed.length < MAX_REPORTED_MALFORMED) malformed.push({ lineNumber: line.lineNumber, reason: line.reason });
      continue;
    }
    const instance = byId.get(line.prediction.instance_id);
    if (!instance) {
      outOfScope += 1;
      continue;
    }
    if (used.has(instance.instance_id)) repeated += 1;
    const { prediction, duplicatesRemoved } = dedupePrediction(line.prediction);
    const meta = line.prediction.meta;
    used.set(instance.instance_id, {
      scores: scoreInstance(instance.edit_functions, prediction),
      duplicatesRemoved,
      wallMs: finiteNumber(meta?.wall_ms),
      stages: stageTimings(meta?.timings),
    });
  }

  const overall = new MetricAccumulator();
  const predictedOnly = new MetricAccumulator();
  const categories = new Map<string, ReturnType<typeof emptyGroup>>();
  const repos = new Map<string, ReturnType<typeof emptyGroup>>();
  const wallMs: number[] = [];
  const stages: Record<string, number[]> = {};
  let duplicatesRemoved = 0;
  let predictionsWithDuplicates = 0;
  const perInstance: InstanceScoreRow[] = [];

  for (const instance of options.instances) {
    const line = used.get(instance.instance_id);
    const scores = line ? line.scores : scoreInstance(instance.edit_functions, null);
    overall.add(scores);
    perInstance.push({ instanceId: instance.instance_id, repo: instance.repo, category: instance.category, predicted: line !== undefined, scores });
    for (const [groups, key] of [
      [categories, instance.category],
      [repos, instance.repo],
    ] as const) {
      let group = groups.get(key);
      if (!group) groups.set(key, (group = emptyGroup()));
      group.instances += 1;
      if (line) group.withPrediction += 1;
      group.acc.add(scores);
    }
    if (!line) continue;
    predictedOnly.add(scores);
    duplicatesRemoved += line.duplicatesRemoved;
    if (line.duplicatesRemoved > 0) predictionsWithDuplicates += 1;
    if (line.wallMs !== undefined) wallMs.push(line.wallMs);
    for (const [stage, ms] of Object.entries(line.stages ?? {})) (stages[stage] ??= []).push(ms);
  }

  const finish = (groups: Map<string, ReturnType<typeof emptyGroup>>): Record<string, GroupScores> => {
    const out: Record<string, GroupScores> = {};
    for (const key of [...groups.keys()].sort()) {
      const group = groups.get(key)!;
      out[key] = { instances: group.instances, withPrediction: group.withPrediction, metrics: group.acc.result() };
    }
    return out;
  };

  return {
    metrics: overall.result(),
    metricsPredictedOnly: predictedOnly.result(),
    byCategory: finish(categories),
    byRepo: finish(repos),
    counts: {
      instances: options.instances.length,
      withPrediction: predictedOnly.count,
      missingPrediction: options.instances.length - predictedOnly.count,
      duplicatesRemoved,
      predictionsWithDuplicates,
      repeatedPredictionLines: repeated,
      outOfScopePredictionLines: outOfScope,
      malformedPredictionLines: malformedCount,
    },
    perInstance,
    malformedPredictionLines: malformed,
    timingSamples: { wallMs, stages },
  };
}
