/**
 * Runs a localizer over LocBench instances and writes a resumable output
 * directory:
 *
 * - `predictions.jsonl` — one LocAgent-shaped line per finished instance plus
 *   `meta` (repo, commit, wall time, stage timings), appended and fsynced per
 *   instance, so a crash or Ctrl-C leaves valid output; a re-run skips the
 *   instances already in it;
 * - `skipped.jsonl` — this invocation's skips with reasons (malformed input
 *   line, unknown repo, unknown commit, localizer error); rewritten each run, so
 *   skipped instances are retried on the next;
 * - `run.json` — the localizer config, the localizer's facts (model, provider,
 *   base URL host, effective defaults) and the reponav revision; resuming with
 *   any difference is refused, naming it (mixing configs in one predictions
 *   file would corrupt the numbers), unless `allowChangedSettings`, which is recorded;
 * - `summary.json` / `summary.md` — written at the end, also when interrupted.
 *
 * Order: instances are grouped by repository (first appearance in the file),
 * and within a repository sorted by committer date of `base_commit` (oldest
 * first, ties in file order) so consecutive indexes differ by small diffs; the
 * localizer re-uses the previous commit's index either way, `order: 'file'`
 * keeps file order within each group.
 *
 * Memory stays flat: predictions go straight to disk; the summary is computed
 * by streaming `predictions.jsonl` back.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { JsonlAppender, fileExists } from './jsonl.js';
import type { InstanceLocalizer, LocbenchLocalizerConfig, LocbenchMode } from './localizer.js';
import { readLocbenchInstances, skippedLinesNote, type LocbenchInstance } from './locbench-instances.js';
import { silentProgress, type ProgressReporter } from './progress-reporter.js';
import { dedupePrediction, readFinishedInstanceIds, type PredictionRecord } from './prediction-file.js';
import { buildSummary, getReponavRevision, renderSummaryMarkdown, type LocbenchSummary, type SkipRecord } from './report.js';
import { commitTimestamps, existingCommits, findRepoGitDir } from './repo-lookup.js';
import { checkResumeSettings, type AllowedChange } from './run-settings.js';
import { scorePredictions } from './score-predictions.js';
import { countOf } from '../plural.js';

/** Options of {@link runLocbench}. */
export interface LocbenchRunOptions {
  instancesPath: string;
  /** Folder holding the repositories (see findRepoGitDir for the layouts). */
  reposDir: string;
  /** Output folder; created if needed. Re-using it resumes. */
  outDir: string;
  /** Only the first N selected instances (file order, after `only`). */
  limit?: number;
  /** Only these instance ids. */
  only?: readonly string[];
  /** Default `retrieval`. Recorded in the config. */
  mode?: LocbenchMode;
  /** Localizer config (mode/interface/settings); recorded and checked on resume. */
  localizerConfig?: Omit<LocbenchLocalizerConfig, 'mode'>;
  /** Extra facts recorded in the summary's `config` (not checked on resume). */
  extraConfig?: Record<string, unknown>;
  /** `commit-date` (default) or `file`: order within a repository. */
  order?: 'commit-date' | 'file';
  /** Aborting stops the run after the current instance(s); the summary is still written. */
  signal?: AbortSignal;
  /** Instances localized at once (default 1); the localizer must be safe to call concurrently. */
  concurrency?: number;
  logger?: Logger;
  /** Resume even when the recorded settings differ (the differences are recorded in run.json). */
  allowChangedSettings?: boolean;
  /** The reponav revision to record; default: read from the package's git checkout. */
  reponavRevision?: string | null;
}

/** Observers of a run (all optional). */
export interface LocbenchRunHooks {
  progress?: ProgressReporter;
  onPrediction?(record: PredictionRecord): void;
  onSkip?(skip: SkipRecord): void;
}

/** What a run produced. */
export interface LocbenchRunResult {
  summary: LocbenchSummary;
  /** True when stopped by the signal before every selected instance was attempted. */
  interrupted: boolean;
  /** Instances localized in this invocation. */
  predictedThisRun: number;
  /** Instances found already done in `predictions.jsonl`. */
  resumed: number;
  paths: { predictions: string; skipped: string; summaryJson: string; summaryMarkdown: string; run: string };
  /** The summary rendered as Markdown (same text as `summary.md`). */
  markdown: string;
}

const rawHitsSchema = z.array(z.object({ path: z.string(), symbol: z.nullable(z.string()), score: z.number() }));

const localizerOutputSchema = z.object({
  found_files: z.array(z.string()),
  found_modules: z.array(z.string()),
  found_entities: z.array(z.string()),
  timings: z.optional(z.record(z.string(), z.number())),
  raw_hits: z.optional(rawHitsSchema),
  raw_hits_deep: z.optional(rawHitsSchema),
});

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Applies `only` then `limit` in file order. */
function selectInstances(all: readonly LocbenchInstance[], options: LocbenchRunOptions, logger: Logger): LocbenchInstance[] {
  let selected = [...all];
  if (options.only && options.only.length > 0) {
    const wanted = new Set(options.only);
    selected = selected.filter((instance) => wanted.has(instance.instance_id));
    const known = new Set(selected.map((instance) => instance.instance_id));
    const unknown = [...wanted].filter((id) => !known.has(id));
    if (unknown.length > 0) logger.warn(`--only: ${unknown.length} id(s) not in the instances file: ${unknown.join(', ')}`);
  }
  if (options.limit !== undefined) {
    if (!Number.isInteger(options.limit) || options.limit < 0) {
      throw new ReponavError('BAD_INPUT', `limit must be a non-negative integer, got ${options.limit}`);
    }
    selected = selected.slice(0, options.limit);
  }
  return selected;
}

/** Everything run.json records and a resume compares (besides `updatedAt` and `allowedChanges`). */
interface RecordedRun {
  localizerConfig: LocbenchLocalizerConfig;
  /** The localizer's own facts (model, provider, base URL host, effective defaults). */
  facts: Record<string, unknown>;
  /** The reponav revision (git short hash; null outside a checkout). */
  reponav: string | null;
}

/**
 * Refuses to resume into an output dir whose recorded run differs in any
 * setting (eval/run-settings.ts names each difference) unless `allow`; records ours.
 */
function checkRunConfig(path: string, run: RecordedRun, hasPredictions: boolean, allow: boolean): void {
  let allowedChanges: AllowedChange[] = [];
  if (hasPredictions && fileExists(path)) {
    let previous: Record<string, unknown> | undefined;
    try {
      previous = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch {
      previous = undefined;
    }
    if (previous !== undefined) {
      allowedChanges = checkResumeSettings({ folder: dirname(path), previous, current: { ...run }, ignore: ['updatedAt'], allow });
    }
  }
  const recorded = { ...run, ...(allowedChanges.length > 0 ? { allowedChanges } : {}), updatedAt: new Date().toISOString() };
  writeFileSync(path, `${JSON.stringify(recorded, null, 2)}\n`);
}

interface PlannedInstance {
  instance: LocbenchInstance;
  gitDir: string;
}

/** Groups by repo, resolves git dirs and commits, orders; unresolvable instances become skips. */
async function planRun(
  todo: readonly LocbenchInstance[],
  options: LocbenchRunOptions,
  skip: (record: SkipRecord) => void,
): Promise<PlannedInstance[]> {
  const byRepo = new Map<string, LocbenchInstance[]>();
  for (const instance of todo) {
    const group = byRepo.get(instance.repo);
    if (group) group.push(instance);
    else byRepo.set(instance.repo, [instance]);
  }
  const plan: PlannedInstance[] = [];
  for (const [repo, instances] of byRepo) {
    const lookup = findRepoGitDir(options.reposDir, repo);
    if (!lookup.ok) {
      for (const instance of instances) skip({ reason: 'unknown-repo', instanceId: instance.instance_id, repo, detail: lookup.reason });
      continue;
    }
    let present: Set<string>;
    try {
      present = await existingCommits(lookup.gitDir, instances.map((i) => i.base_commit));
    } catch (error) {
      for (const instance of instances) {
        skip({ reason: 'unknown-repo', instanceId: instance.instance_id, repo, detail: `git failed in ${lookup.gitDir}: ${errorMessage(error)}` });
      }
      continue;
    }
    const usable: LocbenchInstance[] = [];
    for (const instance of instances) {
      if (present.has(instance.base_commit)) usable.push(instance);
      else skip({ reason: 'unknown-commit', instanceId: instance.instance_id, repo, detail: `commit ${instance.base_commit} not found in ${lookup.gitDir}` });
    }
    if ((options.order ?? 'commit-date') === 'commit-date' && usable.length > 1) {
      const stamps = await commitTimestamps(lookup.gitDir, usable.map((i) => i.base_commit)).catch(() => new Map<string, number>());
      const position = new Map(usable.map((instance, index) => [instance, index]));
      usable.sort((a, b) => {
        const delta = (stamps.get(a.base_commit) ?? Infinity) - (stamps.get(b.base_commit) ?? Infinity);
        return delta !== 0 && Number.isFinite(delta) ? delta : position.get(a)! - position.get(b)!;
      });
    }
    for (const instance of usable) plan.push({ instance, gitDir: lookup.gitDir });
  }
  return plan;
}

/**
 * Localizes every selected, not yet finished instance with `localizer` (one at a
 * time; the caller owns the localizer and closes it), then scores the whole
 * predictions file and writes the summary. Skips are reported, never fatal;
 * only unusable inputs (missing instances file, bad limit, config mismatch on
 * resume) throw ReponavError. When `options.signal` aborts, the current instance
 * finishes, the summary covers what was attempted, and `interrupted` is true.
 */
export async function runLocbench(
  options: LocbenchRunOptions,
  localizer: InstanceLocalizer,
  hooks: LocbenchRunHooks = {},
): Promise<LocbenchRunResult> {
  const startedAt = Date.now();
  const logger = options.logger ?? silentLogger;
  const progress = hooks.progress ?? silentProgress;
  const outDir = resolve(options.outDir);
  mkdirSync(outDir, { recursive: true });
  const paths = {
    predictions: join(outDir, 'predictions.jsonl'),
    skipped: join(outDir, 'skipped.jsonl'),
    summaryJson: join(outDir, 'summary.json'),
    summaryMarkdown: join(outDir, 'summary.md'),
    run: join(outDir, 'run.json'),
  };
  const localizerConfig: LocbenchLocalizerConfig = {
    mode: options.mode ?? 'retrieval',
    ...(options.localizerConfig?.interface !== undefined ? { interface: options.localizerConfig.interface } : {}),
    settings: options.localizerConfig?.settings ?? {},
  };

  const instanceFile = await readLocbenchInstances(options.instancesPath);
  const { instances, malformed } = instanceFile;
  const skippedNote = skippedLinesNote(options.instancesPath, instanceFile);
  if (skippedNote) logger.warn(skippedNote);
  const selected = selectInstances(instances, options, logger);
  const finished = await readFinishedInstanceIds(paths.predictions);
  const reponav = options.reponavRevision !== undefined ? { revision: options.reponavRevision, dirty: null } : await getReponavRevision();
  checkRunConfig(paths.run, { localizerConfig, facts: localizer.runFacts ?? {}, reponav: reponav.revision }, finished.size > 0, options.allowChangedSettings ?? false);

  const skipped: SkipRecord[] = [];
  const skipLog = JsonlAppender.open(paths.skipped, { truncate: true });
  const predictions = JsonlAppender.open(paths.predictions);
  if (predictions.repairedBytes > 0) logger.warn(`predictions.jsonl ended in a torn line (${countOf(predictions.repairedBytes, 'byte')}); removed it`);
  const skip = (record: SkipRecord): void => {
    skipped.push(record);
    skipLog.append(record);
    logger.warn(`skip ${record.instanceId ?? `line ${record.lineNumber}`}: ${record.reason} — ${record.detail}`);
    hooks.onSkip?.(record);
  };

  let predictedThisRun = 0;
  let notAttempted = 0;
  let interrupted = false;
  try {
    for (const line of malformed) {
      skip({ reason: 'malformed-line', lineNumber: line.lineNumber, ...(line.instanceId ? { instanceId: line.instanceId } : {}), detail: line.reason });
    }
    const todo = selected.filter((instance) => !finished.has(instance.instance_id));
    const resumed = selected.length - todo.length;
    if (resumed > 0) logger.info(`resuming: ${resumed} of ${countOf(selected.length, 'instance')} already in ${paths.predictions}`);

    const planSkipsBefore = skipped.length;
    const plan = await planRun(todo, options, skip);
    const state = { done: skipped.length - planSkipsBefore, total: todo.length, skipped: skipped.length - planSkipsBefore };
    progress.update(state);

    // Instances run `concurrency` at a time (agent runs wait on the model, not
    // the CPU); predictions are appended as each finishes, so resume works in any order.
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    let next = 0;
    const runOne = async ({ instance, gitDir }: (typeof plan)[number]) => {
      progress.update({ ...state, current: instance.instance_id });
      const t0 = performance.now();
      try {
        const raw = await localizer.localize({
          instanceId: instance.instance_id,
          repo: instance.repo,
          gitDir,
          commit: instance.base_commit,
          query: instance.problem_statement,
        });
        const wallMs = performance.now() - t0;
        const parsed = localizerOutputSchema.safeParse(raw);
        if (!parsed.success) throw new Error(`invalid localizer output: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
        const { prediction, duplicatesRemoved } = dedupePrediction({ instance_id: instance.instance_id, ...parsed.data });
        const record: PredictionRecord = {
          ...prediction,
          meta: {
            repo: instance.repo,
            base_commit: instance.base_commit,
            wall_ms: Math.round(wallMs * 10) / 10,
            ...(parsed.data.timings ? { timings: parsed.data.timings } : {}),
            ...(parsed.data.raw_hits ? { raw_hits: parsed.data.raw_hits } : {}),
            ...(parsed.data.raw_hits_deep ? { raw_hits_deep: parsed.data.raw_hits_deep } : {}),
            duplicates_removed: duplicatesRemoved,
            finished_at: new Date().toISOString(),
          },
        };
        predictions.append(record);
        predictedThisRun += 1;
        hooks.onPrediction?.(record);
      } catch (error) {
        skip({ reason: 'localizer-error', instanceId: instance.instance_id, repo: instance.repo, detail: errorMessage(error) });
        state.skipped += 1;
      }
      state.done += 1;
      progress.update(state);
    };
    const lane = async () => {
      while (next < plan.length) {
        if (options.signal?.aborted) {
          if (!interrupted) {
            interrupted = true;
            notAttempted = plan.length - next;
            logger.warn(`interrupted: stopping with ${countOf(notAttempted, 'instance')} not attempted`);
          }
          return;
        }
        await runOne(plan[next++]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, plan.length)) }, lane));
    progress.finish(state);

    // Scope: everything selected except what an interruption left unattempted.
    const unattempted = new Set(interrupted ? plan.slice(plan.length - notAttempted).map((p) => p.instance.instance_id) : []);
    const scope = selected.filter((instance) => !unattempted.has(instance.instance_id));
    predictions.close();
    const scored = await scorePredictions({ instances: scope, predictionsPath: paths.predictions });
    const summary = buildSummary({
      scored,
      config: {
        ...localizerConfig,
        order: options.order ?? 'commit-date',
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(options.only && options.only.length > 0 ? { only: [...options.only] } : {}),
        reposDir: resolve(options.reposDir),
        ...(localizer.runFacts ? { facts: localizer.runFacts } : {}),
        ...options.extraConfig,
      },
      source: { instances: resolve(options.instancesPath), predictions: paths.predictions },
      skipped,
      interrupted,
      notAttempted,
      totalWallMs: Date.now() - startedAt,
      reponav,
    });
    const markdown = renderSummaryMarkdown(summary);
    writeFileSync(paths.summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(paths.summaryMarkdown, markdown);
    return { summary, interrupted, predictedThisRun, resumed, paths, markdown };
  } finally {
    predictions.close();
    skipLog.close();
  }
}
