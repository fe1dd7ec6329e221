/**
 * Paired comparison of two LocBench runs over the same instances: for each
 * reported metric (Acc and Recall at every k of every level), the difference
 * B − A with a paired-bootstrap interval and p-value (paired-bootstrap.ts),
 * instances won / lost / tied, and which instances flipped. Per-instance
 * scores are re-derived from each run's predictions and the gold of its
 * instances file, exactly as `eval score` computes them.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ReponavError } from '../errors.js';
import { readLocbenchInstances } from './locbench-instances.js';
import { runScope } from './run-scope.js';
import { LEVEL_KS, LOC_LEVELS, type LocLevel } from './locbench-metrics.js';
import { mcNemarOfScores } from './mcnemar.js';
import { DEFAULT_BOOTSTRAP, isSignificant, pairedBootstrapMany, type PairedBootstrapOptions, type PairedDifference } from './paired-bootstrap.js';
import type { LocbenchSummary } from './report.js';
import { scorePredictions, type InstanceScoreRow } from './score-predictions.js';
import { countOf } from '../plural.js';

/** One run's per-instance scores. */
export interface RunScores {
  label: string;
  rows: InstanceScoreRow[];
}

/** One metric's paired comparison, with the instances that flipped. */
export interface MeasureComparison extends PairedDifference {
  level: LocLevel;
  metric: string;
  /** Exact McNemar p-value on per-instance hits (mcnemar.ts); null when the scores are not all 0/1 (Recall with several gold items). */
  mcnemarP: number | null;
  /** Instances where B scored higher (won) / lower (lost) than A, by id. */
  wonInstances: string[];
  lostInstances: string[];
}

/** The paired comparison of run B against baseline A. */
export interface RunComparison {
  baseline: string;
  label: string;
  /** Instances scored in both runs (the pairs). */
  paired: number;
  /** Instances only one run covers (left out of the pairs). */
  onlyBaseline: number;
  onlyOther: number;
  resamples: number;
  seed: number;
  confidence: number;
  measures: MeasureComparison[];
  /** Per repository: A and B means of file Acc@5 and function Acc@5 over the paired instances. */
  byRepo: { repo: string; n: number; file: [number, number]; function: [number, number] }[];
}

/** The metrics compared, in report order: Acc then Recall at each reported k, per level. */
export function comparedMetrics(): { level: LocLevel; metric: string }[] {
  const out: { level: LocLevel; metric: string }[] = [];
  for (const level of LOC_LEVELS) for (const name of ['Acc', 'Recall']) for (const k of LEVEL_KS[level]) out.push({ level, metric: `${name}@${k}` });
  return out;
}

/**
 * Loads a run's per-instance scores: its predictions (`predictions.jsonl`
 * beside the summary, else the path the summary records) scored against the
 * instances file the summary records (or `instancesPath`), limited to the
 * instances the run selected (its recorded `only`/`limit`, see run-scope.ts). Throws
 * FILE_NOT_FOUND naming what is missing.
 */
export async function loadRunScores(label: string, summaryPath: string, summary: LocbenchSummary, instancesPath?: string): Promise<RunScores> {
  const beside = join(dirname(summaryPath), 'predictions.jsonl');
  const predictionsPath = existsSync(beside) ? beside : summary.source?.predictions;
  if (!predictionsPath || !existsSync(predictionsPath)) {
    throw new ReponavError('FILE_NOT_FOUND', `no predictions for ${summaryPath}: neither ${beside} nor the recorded ${summary.source?.predictions ?? '(none)'} exists`);
  }
  const instancesFile = instancesPath ?? summary.source?.instances;
  if (!instancesFile || !existsSync(instancesFile)) {
    throw new ReponavError(
      'FILE_NOT_FOUND',
      `the instances file of ${summaryPath} (${instancesFile ?? 'not recorded'}) does not exist; pass --instances FILE`,
    );
  }
  // Only the instances the run selected: one it never attempted is not a miss.
  const instances = runScope((await readLocbenchInstances(instancesFile)).instances, summary.config ?? {});
  const scored = await scorePredictions({ instances, predictionsPath });
  return { label, rows: scored.perInstance };
}

/**
 * Compares run B with baseline A over the instances both cover: one paired
 * bootstrap draw for all metrics (see paired-bootstrap.ts). An instance with
 * empty gold at a level is left out of that level's metrics.
 */
export function compareRuns(a: RunScores, b: RunScores, options: PairedBootstrapOptions = {}): RunComparison {
  const bById = new Map(b.rows.map((row) => [row.instanceId, row]));
  const aIds = new Set(a.rows.map((row) => row.instanceId));
  const pairs = a.rows.filter((row) => bById.has(row.instanceId)).map((row) => [row, bById.get(row.instanceId)!] as const);
  const metrics = comparedMetrics();
  const perMeasure = new Map<string, { a: number[]; b: number[]; ids: string[] }>();
  for (const { level, metric } of metrics) {
    const entry = { a: [] as number[], b: [] as number[], ids: [] as string[] };
    for (const [rowA, rowB] of pairs) {
      const scoreA = rowA.scores[level]?.[metric];
      const scoreB = rowB.scores[level]?.[metric];
      if (scoreA === undefined || scoreB === undefined) continue;
      entry.a.push(scoreA);
      entry.b.push(scoreB);
      entry.ids.push(rowA.instanceId);
    }
    perMeasure.set(`${level} ${metric}`, entry);
  }
  // Levels can differ in how many instances have gold, so each level gets its own draw (same seed).
  const results = new Map<string, PairedDifference>();
  for (const level of LOC_LEVELS) {
    const group = new Map([...perMeasure].filter(([key]) => key.startsWith(`${level} `)));
    for (const [key, value] of pairedBootstrapMany(group, options)) results.set(key, value);
  }
  const measures: MeasureComparison[] = metrics.map(({ level, metric }) => {
    const key = `${level} ${metric}`;
    const { a: scoresA, b: scoresB, ids } = perMeasure.get(key)!;
    return {
      level,
      metric,
      ...results.get(key)!,
      mcnemarP: mcNemarOfScores(scoresA, scoresB)?.pValue ?? null,
      wonInstances: ids.filter((_, i) => scoresB[i]! > scoresA[i]!),
      lostInstances: ids.filter((_, i) => scoresB[i]! < scoresA[i]!),
    };
  });
  const repos = new Map<string, { n: number; fa: number; fb: number; ga: number; gb: number }>();
  for (const [rowA, rowB] of pairs) {
    const entry = repos.get(rowA.repo) ?? { n: 0, fa: 0, fb: 0, ga: 0, gb: 0 };
    entry.n++;
    entry.fa += rowA.scores.file?.['Acc@5'] ?? 0;
    entry.fb += rowB.scores.file?.['Acc@5'] ?? 0;
    entry.ga += rowA.scores.function?.['Acc@5'] ?? 0;
    entry.gb += rowB.scores.function?.['Acc@5'] ?? 0;
    repos.set(rowA.repo, entry);
  }
  return {
    baseline: a.label,
    label: b.label,
    paired: pairs.length,
    onlyBaseline: a.rows.length - pairs.length,
    onlyOther: b.rows.filter((row) => !aIds.has(row.instanceId)).length,
    resamples: options.resamples ?? DEFAULT_BOOTSTRAP.resamples,
    seed: options.seed ?? DEFAULT_BOOTSTRAP.seed,
    confidence: options.confidence ?? DEFAULT_BOOTSTRAP.confidence,
    measures,
    byRepo: [...repos.keys()].sort().map((repo) => {
      const e = repos.get(repo)!;
      return { repo, n: e.n, file: [e.fa / e.n, e.fb / e.n], function: [e.ga / e.n, e.gb / e.n] };
    }),
  };
}

const fixed = (value: number) => value.toFixed(3);
const signed = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '±') + Math.abs(value).toFixed(3);
const pText = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));

/**
 * Markdown for one comparison: the metric table (difference, interval, p,
 * won/lost/tied, and whether the interval excludes zero), the per-repository
 * headline figures, and the instances that flipped at file and function Acc@5.
 */
export function renderComparisonMarkdown(c: RunComparison): string {
  const level = Math.round(c.confidence * 100);
  const lines = [
    `## Paired bootstrap: ${c.label} vs ${c.baseline}`,
    '',
    `${countOf(c.paired, 'paired instance')}, ${c.resamples.toLocaleString('en-US')} resamples, seed ${c.seed}; B − A with a ${level}% percentile interval; ` +
      `"noise" marks an interval that includes zero; McNemar p is the exact test on per-instance hits (blank where scores are not 0/1).` +
      (c.onlyBaseline || c.onlyOther ? ` Left out: ${c.onlyBaseline} only in ${c.baseline}, ${c.onlyOther} only in ${c.label}.` : ''),
    '',
    `| level | metric | ${c.baseline} | ${c.label} | B − A | ${level}% interval | p | McNemar p | won | lost | tied | |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const m of c.measures) {
    const verdict = m.difference === 0 ? '' : isSignificant(m) ? (m.difference > 0 ? 'better' : 'worse') : 'noise';
    lines.push(
      `| ${m.level} | ${m.metric} | ${fixed(m.meanA)} | ${fixed(m.meanB)} | ${signed(m.difference)} | [${signed(m.low)}, ${signed(m.high)}] | ${pText(m.pValue)} | ${m.mcnemarP === null ? '' : pText(m.mcnemarP)} | ${m.won} | ${m.lost} | ${m.tied} | ${verdict} |`,
    );
  }
  lines.push('', '| repo | n | file Acc@5 A | file Acc@5 B | Δ | function Acc@5 A | function Acc@5 B | Δ |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of c.byRepo) {
    lines.push(
      `| ${r.repo} | ${r.n} | ${fixed(r.file[0])} | ${fixed(r.file[1])} | ${signed(r.file[1] - r.file[0])} | ${fixed(r.function[0])} | ${fixed(r.function[1])} | ${signed(r.function[1] - r.function[0])} |`,
    );
  }
  for (const m of c.measures.filter((x) => x.metric === 'Acc@5' && (x.level === 'file' || x.level === 'function'))) {
    lines.push('', `Flipped at ${m.level} Acc@5: won ${m.won}${list(m.wonInstances)}; lost ${m.lost}${list(m.lostInstances)}.`);
  }
  return `${lines.join('\n')}\n`;
}

function list(ids: string[]): string {
  return ids.length === 0 ? '' : ` (${ids.join(', ')})`;
}
