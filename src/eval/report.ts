/**
 * The evaluation summary: one JSON document per run (metrics per level and k,
 * counts, skips with reasons, per-category and per-repo breakdowns, the
 * file-to-function gap, the config, the reponav revision, timings), its Markdown
 * rendering, and side-by-side comparison of several summaries.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ReponavError } from '../errors.js';
import { fileToFunctionGap, LEVEL_KS, LOC_LEVELS, sweRankMetrics, type LocbenchMetrics, type LocLevel, type SweRankMetrics } from './locbench-metrics.js';
import type { GroupScores, ScoredPredictions } from './score-predictions.js';
import { countOf } from '../plural.js';

const execFileAsync = promisify(execFile);

/** Why an instance (or an input line) was not localized. */
export type SkipReason = 'malformed-line' | 'unknown-repo' | 'unknown-commit' | 'localizer-error';

/** One skipped instance or input line. */
export interface SkipRecord {
  reason: SkipReason;
  /** Absent for a malformed line without a usable id. */
  instanceId?: string;
  repo?: string;
  /** 1-based line in the instances file (malformed lines). */
  lineNumber?: number;
  detail: string;
}

/** Count, mean and nearest-rank percentiles of durations in milliseconds. */
export interface TimingStats {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  total: number;
}

/** A breakdown row: one category or repository. */
export interface GroupSummary extends GroupScores {
  fileToFunctionGap: number | null;
}

/** The summary JSON (`summary.json`). `kind` and `version` identify the format. */
export interface LocbenchSummary {
  kind: 'reponav-locbench-summary';
  version: 1;
  createdAt: string;
  reponav: { revision: string | null; dirty: boolean | null };
  /** What was evaluated and how: passed through unchanged from the caller. */
  config: Record<string, unknown>;
  source: { instances: string; predictions: string };
  /** Whether the run stopped early (SIGINT/abort); metrics then cover attempted instances only. */
  interrupted: boolean;
  counts: ScoredPredictions['counts'] & {
    skipped: number;
    skippedByReason: Partial<Record<SkipReason, number>>;
    /** Selected instances not reached because the run was interrupted (not scored). */
    notAttempted: number;
  };
  /** LocAgent semantics: in-scope instances, skipped or missing ones scored as misses. */
  metrics: LocbenchMetrics;
  metricsPredictedOnly: LocbenchMetrics;
  /** file Acc@5 − function Acc@5. */
  fileToFunctionGap: number | null;
  /** SweRank's LocBench metrics (file Acc@5, module Acc@10, function Acc@10), the published systems' table. */
  sweRank: SweRankMetrics;
  byCategory: Record<string, GroupSummary>;
  byRepo: Record<string, GroupSummary>;
  skipped: SkipRecord[];
  malformedPredictionLines: ScoredPredictions['malformedPredictionLines'];
  timings: {
    /** Wall time of this invocation, ms (null when only scoring a file). */
    totalWallMs: number | null;
    /** Per-instance localize wall time (`meta.wall_ms`), including resumed instances. */
    perInstance: TimingStats | null;
    /** Per stage reported by the localizer (`meta.timings`). */
    stages: Record<string, TimingStats>;
  };
}

/** Input of {@link buildSummary}. */
export interface BuildSummaryInput {
  scored: ScoredPredictions;
  config: Record<string, unknown>;
  source: { instances: string; predictions: string };
  skipped?: readonly SkipRecord[];
  interrupted?: boolean;
  notAttempted?: number;
  totalWallMs?: number | null;
  reponav?: { revision: string | null; dirty: boolean | null };
  /** Default: now. */
  createdAt?: Date;
}

/** Mean and nearest-rank p50/p95 of `values`; null when empty. */
export function timingStats(values: readonly number[]): TimingStats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return { count: sorted.length, mean: total / sorted.length, p50: rank(0.5), p95: rank(0.95), total };
}

/** Revisions already read, by package folder. */
const revisions = new Map<string, Promise<{ revision: string | null; dirty: boolean | null }>>();

/**
 * The short git revision of the reponav package (`git rev-parse --short HEAD`
 * in the package directory) and whether tracked files differ from it. Nulls when
 * the package is not its own git checkout (e.g. installed from npm). Read once
 * per process: the code that runs is the code loaded at start, so a later edit
 * must not change the record, and each read starts three git processes.
 */
export function getReponavRevision(
  packageDir: string = fileURLToPath(new URL('../../', import.meta.url)),
): Promise<{ revision: string | null; dirty: boolean | null }> {
  let revision = revisions.get(packageDir);
  if (!revision) revisions.set(packageDir, (revision = readRevision(packageDir)));
  return revision;
}

async function readRevision(packageDir: string): Promise<{ revision: string | null; dirty: boolean | null }> {
  try {
    const run = async (args: string[]) => (await execFileAsync('git', args, { cwd: packageDir, encoding: 'utf8' })).stdout.trim();
    // Inside another project's checkout (node_modules) the enclosing repo is not ours.
    if (realpathSync(await run(['rev-parse', '--show-toplevel'])) !== realpathSync(packageDir)) {
      return { revision: null, dirty: null };
    }
    const revision = await run(['rev-parse', '--short', 'HEAD']);
    const status = await run(['status', '--porcelain', '--untracked-files=no']);
    return { revision, dirty: status !== '' };
  } catch {
    return { revision: null, dirty: null };
  }
}

function countReasons(skipped: readonly SkipRecord[]): Partial<Record<SkipReason, number>> {
  const out: Partial<Record<SkipReason, number>> = {};
  for (const skip of skipped) out[skip.reason] = (out[skip.reason] ?? 0) + 1;
  return out;
}

function withGap(groups: Record<string, GroupScores>): Record<string, GroupSummary> {
  const out: Record<string, GroupSummary> = {};
  for (const [key, group] of Object.entries(groups)) out[key] = { ...group, fileToFunctionGap: fileToFunctionGap(group.metrics) };
  return out;
}

/** Assembles the summary document from scored predictions and run facts. Pure. */
export function buildSummary(input: BuildSummaryInput): LocbenchSummary {
  const skipped = [...(input.skipped ?? [])];
  const stages: Record<string, TimingStats> = {};
  for (const [stage, values] of Object.entries(input.scored.timingSamples.stages)) {
    const stats = timingStats(values);
    if (stats) stages[stage] = stats;
  }
  return {
    kind: 'reponav-locbench-summary',
    version: 1,
    createdAt: (input.createdAt ?? new Date()).toISOString(),
    reponav: input.reponav ?? { revision: null, dirty: null },
    config: input.config,
    source: input.source,
    interrupted: input.interrupted ?? false,
    counts: {
      ...input.scored.counts,
      skipped: skipped.length,
      skippedByReason: countReasons(skipped),
      notAttempted: input.notAttempted ?? 0,
    },
    metrics: input.scored.metrics,
    metricsPredictedOnly: input.scored.metricsPredictedOnly,
    fileToFunctionGap: fileToFunctionGap(input.scored.metrics),
    sweRank: sweRankMetrics(input.scored.metrics),
    byCategory: withGap(input.scored.byCategory),
    byRepo: withGap(input.scored.byRepo),
    skipped,
    malformedPredictionLines: input.scored.malformedPredictionLines,
    timings: {
      totalWallMs: input.totalWallMs ?? null,
      perInstance: timingStats(input.scored.timingSamples.wallMs),
      stages,
    },
  };
}

/** Formats a metric value with three decimals, or `–` when absent. */
export function formatMetric(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(3);
}

/** The Acc/Recall columns of the main table: every k reported at any level, ascending. */
const TABLE_KS = [...new Set(LOC_LEVELS.flatMap((level) => [...LEVEL_KS[level]]))].sort((a, b) => a - b);

/**
 * The main table: one row per level, Acc@k then Recall@k columns (blank where
 * a level does not report that k), and the number of instances scored.
 */
export function renderMetricsTable(metrics: LocbenchMetrics): string {
  const header = ['level', ...TABLE_KS.map((k) => `Acc@${k}`), ...TABLE_KS.map((k) => `Recall@${k}`), 'n'];
  const rows = LOC_LEVELS.map((level) => {
    const cell = (name: string, k: number) => (LEVEL_KS[level].includes(k) ? formatMetric(metrics[level].scores[`${name}@${k}`]) : '');
    return [level, ...TABLE_KS.map((k) => cell('Acc', k)), ...TABLE_KS.map((k) => cell('Recall', k)), String(metrics[level].evaluated)];
  });
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

/** Headline columns of the breakdown tables. */
const BREAKDOWN: ReadonlyArray<[LocLevel, string]> = [
  ['file', 'Acc@1'],
  ['file', 'Acc@5'],
  ['module', 'Acc@5'],
  ['module', 'Acc@10'],
  ['function', 'Acc@5'],
  ['function', 'Acc@10'],
];

function renderBreakdown(title: string, groups: Record<string, GroupSummary>): string {
  const header = [title, 'n', 'predicted', ...BREAKDOWN.map(([level, key]) => `${level} ${key}`), 'gap'];
  const rows = Object.entries(groups).map(([name, group]) => [
    name,
    String(group.instances),
    String(group.withPrediction),
    ...BREAKDOWN.map(([level, key]) => formatMetric(group.metrics[level].scores[key])),
    formatMetric(group.fileToFunctionGap),
  ]);
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** Renders a summary as Markdown: the main table, the gap, counts, breakdowns, skips and timings. */
export function renderSummaryMarkdown(summary: LocbenchSummary): string {
  const c = summary.counts;
  const out: string[] = [];
  out.push(`## LocBench localization${summary.interrupted ? ' (interrupted — partial)' : ''}`, '');
  out.push(renderMetricsTable(summary.metrics), '');
  out.push(`File-to-function gap (file Acc@5 − function Acc@5): ${formatMetric(summary.fileToFunctionGap)}`, '');
  // From the metrics rather than the sweRank field: a summary written before the field existed renders the same.
  const swe = sweRankMetrics(summary.metrics);
  out.push(
    `SweRank's LocBench metrics (file Acc@5 / module Acc@10 / function Acc@10): ${formatMetric(swe.fileAcc5)} / ${formatMetric(swe.moduleAcc10)} / ${formatMetric(swe.functionAcc10)}`,
    '',
  );
  const skipReasons = Object.entries(c.skippedByReason).map(([reason, n]) => `${reason} ${n}`).join(', ');
  out.push(
    `Instances: ${c.instances} scored, ${c.withPrediction} with predictions, ${c.missingPrediction} without (scored as misses, as LocAgent does)` +
      (c.skipped > 0 ? `; skipped ${c.skipped} (${skipReasons})` : '') +
      (c.notAttempted > 0 ? `; ${c.notAttempted} not attempted` : '') +
      (c.duplicatesRemoved > 0 ? `; ${countOf(c.duplicatesRemoved, 'duplicate prediction')} removed in ${countOf(c.predictionsWithDuplicates, 'line')}` : '') +
      (c.malformedPredictionLines > 0 ? `; ${c.malformedPredictionLines} malformed prediction lines` : '') +
      '.',
  );
  const emptyGold = LOC_LEVELS.filter((level) => summary.metrics[level].skippedEmptyGold > 0);
  if (emptyGold.length > 0) {
    const parts = emptyGold.map((level) => `${level} ${summary.metrics[level].skippedEmptyGold}`);
    out.push('', `Left out for empty gold: ${parts.join(', ')}.`);
  }
  if (c.missingPrediction > 0 && c.withPrediction > 0) {
    out.push('', 'Over predicted instances only:', '', renderMetricsTable(summary.metricsPredictedOnly));
  }
  if (Object.keys(summary.byCategory).length > 0) out.push('', renderBreakdown('category', summary.byCategory));
  if (Object.keys(summary.byRepo).length > 0) out.push('', renderBreakdown('repo', summary.byRepo));
  if (summary.skipped.length > 0) {
    out.push('', 'Skipped:', '');
    for (const skip of summary.skipped.slice(0, 50)) {
      const where = skip.instanceId ?? (skip.lineNumber !== undefined ? `line ${skip.lineNumber}` : '?');
      out.push(`- ${where}: ${skip.reason} — ${skip.detail.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
    if (summary.skipped.length > 50) out.push(`- … ${summary.skipped.length - 50} more in summary.json`);
  }
  const t = summary.timings;
  const timingParts: string[] = [];
  if (t.totalWallMs !== null) timingParts.push(`total wall ${formatMs(t.totalWallMs)}`);
  if (t.perInstance) {
    timingParts.push(`per instance mean ${formatMs(t.perInstance.mean)}, p50 ${formatMs(t.perInstance.p50)}, p95 ${formatMs(t.perInstance.p95)}`);
  }
  // Keys ending in Ms are durations; others (steps, tokens, listSymbolsUsed…) are plain numbers.
  for (const [stage, stats] of Object.entries(t.stages)) {
    timingParts.push(`${stage} mean ${/Ms$/.test(stage) ? formatMs(stats.mean) : formatNumber(stats.mean)}`);
  }
  if (timingParts.length > 0) out.push('', `Timings: ${timingParts.join('; ')}.`);
  const rev = summary.reponav.revision ? `${summary.reponav.revision}${summary.reponav.dirty ? '-dirty' : ''}` : 'unknown';
  out.push('', `reponav ${rev} · ${summary.createdAt}`);
  return `${out.join('\n')}\n`;
}

/**
 * Validates a parsed `summary.json`. Throws ReponavError BAD_INPUT naming
 * `origin` when it is not a reponav LocBench summary of a known version.
 */
export function assertLocbenchSummary(value: unknown, origin: string): LocbenchSummary {
  const v = value as Partial<LocbenchSummary> | null;
  if (!v || typeof v !== 'object' || v.kind !== 'reponav-locbench-summary' || v.version !== 1 || !v.metrics) {
    throw new ReponavError('BAD_INPUT', `${origin} is not a reponav LocBench summary (summary.json, version 1)`, { origin });
  }
  for (const level of LOC_LEVELS) {
    if (!v.metrics[level] || typeof v.metrics[level].scores !== 'object') {
      throw new ReponavError('BAD_INPUT', `${origin}: metrics.${level} is missing`, { origin });
    }
  }
  return v as LocbenchSummary;
}

function signed(delta: number): string {
  const text = delta.toFixed(3);
  return delta > 0 ? `+${text}` : delta === 0 ? '±0.000' : text;
}

/**
 * Markdown comparing summaries side by side: one row per level × metric (Acc and
 * Recall at each reported k), plus the gap and instance counts; every column
 * after the first shows `value (delta vs first)`. Needs at least one summary.
 */
export function compareSummaries(summaries: ReadonlyArray<{ label: string; summary: LocbenchSummary }>): string {
  if (summaries.length === 0) throw new ReponavError('BAD_INPUT', 'compareSummaries needs at least one summary');
  const base = summaries[0]!.summary;
  const cell = (value: number | null | undefined, baseValue: number | null | undefined, isBase: boolean): string => {
    if (isBase || value === null || value === undefined || baseValue === null || baseValue === undefined) return formatMetric(value);
    return `${formatMetric(value)} (${signed(value - baseValue)})`;
  };
  const header = ['level', 'metric', ...summaries.map((s) => s.label)];
  const rows: string[][] = [];
  for (const level of LOC_LEVELS) {
    for (const name of ['Acc', 'Recall']) {
      for (const k of LEVEL_KS[level]) {
        const key = `${name}@${k}`;
        const baseValue = base.metrics[level].scores[key];
        rows.push([level, key, ...summaries.map((s, i) => cell(s.summary.metrics[level].scores[key], baseValue, i === 0))]);
      }
    }
  }
  rows.push(['file→function', 'gap@5', ...summaries.map((s, i) => cell(s.summary.fileToFunctionGap, base.fileToFunctionGap, i === 0))]);
  rows.push(['instances', 'n', ...summaries.map((s) => String(s.summary.counts.instances))]);
  // Behaviour figures (agent runs: steps, tokens, listSymbolsUsed, filesInspected, …; retrieval runs: stage times), as means.
  const stages = [...new Set(summaries.flatMap((s) => Object.keys(s.summary.timings.stages)))].sort();
  for (const stage of stages) {
    const mean = (s: LocbenchSummary) => s.timings.stages[stage]?.mean;
    const show = (value: number | undefined) =>
      value === undefined ? '' : /Ms$/.test(stage) ? formatMs(value) : formatNumber(value);
    rows.push(['behaviour (mean)', stage, ...summaries.map((s) => show(mean(s.summary)))]);
  }
  const lines = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);
  const counts = new Set(summaries.map((s) => s.summary.counts.instances));
  if (counts.size > 1) lines.push('', 'Note: the summaries cover different numbers of instances; deltas are not like-for-like.');
  const interrupted = summaries.filter((s) => s.summary.interrupted).map((s) => s.label);
  if (interrupted.length > 0) lines.push('', `Note: interrupted (partial) runs: ${interrupted.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
