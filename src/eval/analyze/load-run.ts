/**
 * Reads one recorded LocBench run for `eval analyze`: its summary, every
 * prediction line with its `meta` (raw chunk hits when recorded), the gold of
 * the instances it selected (`--only` / `--limit` as recorded in its config), per-instance scores exactly as `eval score` computes them,
 * and, for agent runs, the trajectories written to the run's `traceDir`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import { loadRunScores, type RunScores } from '../compare-runs.js';
import { readLocbenchInstances, type LocbenchInstance } from '../locbench-instances.js';
import { runScope } from '../run-scope.js';
import { readPredictionLines, type PredictionRecord } from '../prediction-file.js';
import { assertLocbenchSummary, type LocbenchSummary } from '../report.js';
import { traceSchema, type RecordedTrace } from './trace-record.js';

/** One run, loaded. */
export interface LoadedRun {
  label: string;
  /** The run's folder. */
  dir: string;
  summary: LocbenchSummary;
  mode: 'retrieval' | 'agent';
  /** The instances in the run's scope (the instances file the summary records). */
  instances: LocbenchInstance[];
  /** Prediction per instance id (the last line wins, as scoring does). */
  predictions: Map<string, PredictionRecord>;
  scores: RunScores;
  /** Agent runs: the trajectory per instance id, when its trace folder exists. */
  traces: Map<string, RecordedTrace>;
}

/** The summary file of a RUN argument: a run folder or its summary.json. */
export function summaryPathOf(run: string): string {
  const path = resolve(run);
  if (existsSync(path) && statSync(path).isDirectory()) return join(path, 'summary.json');
  return path;
}

/** The label of a RUN argument: the run folder's name. */
export function runLabel(run: string): string {
  return basename(dirname(summaryPathOf(run)));
}

/**
 * Loads a run. `instancesPath` overrides the instances file the summary
 * records. Throws ReponavError FILE_NOT_FOUND / BAD_INPUT naming the file.
 */
export async function loadRun(run: string, options: { label?: string; instancesPath?: string } = {}): Promise<LoadedRun> {
  const summaryPath = summaryPathOf(run);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(summaryPath, 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'BAD_INPUT';
    throw new ReponavError(code, `cannot read the run summary ${summaryPath}: ${(error as Error).message}`, { path: summaryPath });
  }
  const summary = assertLocbenchSummary(parsed, summaryPath);
  const label = options.label ?? runLabel(run);
  const scores = await loadRunScores(label, summaryPath, summary, options.instancesPath);
  const instances = runScope((await readLocbenchInstances(options.instancesPath ?? summary.source.instances)).instances, summary.config);
  const beside = join(dirname(summaryPath), 'predictions.jsonl');
  const predictions = new Map<string, PredictionRecord>();
  for await (const line of readPredictionLines(existsSync(beside) ? beside : summary.source.predictions)) {
    if (line.ok) predictions.set(line.prediction.instance_id, line.prediction);
  }
  const mode = summary.config.mode === 'agent' ? 'agent' : 'retrieval';
  const settings = (summary.config.settings ?? {}) as { traceDir?: unknown };
  const traceDir = typeof settings.traceDir === 'string' ? resolve(dirname(summaryPath), settings.traceDir) : join(dirname(summaryPath), 'traces');
  return { label, dir: dirname(summaryPath), summary, mode, instances, predictions, scores, traces: readTraces(traceDir) };
}


/** Every `<instance>.json` trajectory in `dir` that parses; unreadable ones are left out (the funnel counts them as missing). */
function readTraces(dir: string): Map<string, RecordedTrace> {
  const traces = new Map<string, RecordedTrace>();
  if (!existsSync(dir)) return traces;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    const trace = traceSchema.safeParse(value);
    if (trace.success) traces.set(trace.data.instanceId ?? name.replace(/\.json$/, ''), trace.data);
  }
  return traces;
}

/** One raw chunk hit as recorded in a prediction's meta. */
export type RecordedHit = { path: string; symbol: string | null; score: number };

/** Raw hits recorded in a prediction's meta (see the retrieval setting `recordHits`), or null. */
export function recordedHits(prediction: PredictionRecord | undefined, key: 'raw_hits' | 'raw_hits_deep' = 'raw_hits'): RecordedHit[] | null {
  const parsed = rawHitsSchema.safeParse(prediction?.meta?.[key]);
  return parsed.success ? parsed.data : null;
}

const rawHitsSchema = z.array(z.object({ path: z.string(), symbol: z.nullable(z.string()), score: z.number() }));
