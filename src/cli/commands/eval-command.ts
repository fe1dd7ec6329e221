/**
 * `reponav eval …` commands:
 *
 *   eval locbench --instances FILE --repos DIR [--out DIR] [--format md|json]
 *                 [--limit N] [--only ID,…] [--mode retrieval|agent|rerank]
 *                 [--interface NAME] [--order commit-date|file] [--config-json JSON]
 *   eval score    --instances FILE --predictions FILE [--format md|json]
 *   eval compare  SUMMARY.json SUMMARY.json… [--labels a,b,…] [--format md|json]
 *                 [--resamples N] [--seed N] [--instances FILE]
 *   eval analyze  RUN… [--against RUN] [--out DIR] [--format md|json]
 *                 [--repos DIR] [--instances FILE] [--resamples N] [--seed N]
 *
 * `--out` defaults to `reponav-eval/locbench` (relative to the working
 * directory): deterministic, so re-running the same command resumes. Progress
 * and logs go to stderr; only the final table (or JSON) goes to stdout. On
 * Ctrl-C the run stops after the current instance, writes its summary and sets
 * exit code 130; a second Ctrl-C exits at once (output stays valid).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import {
  analyzeRuns,
  assertLocbenchSummary,
  buildSummary,
  compareRuns,
  compareSummaries,
  createLocbenchLocalizer,
  createProgressReporter,
  LOCBENCH_MODES,
  DEFAULT_BOOTSTRAP,
  loadRunScores,
  readLocbenchInstances,
  skippedLinesNote,
  renderAnalysisMarkdown,
  renderComparisonMarkdown,
  renderSummaryMarkdown,
  runLocbench,
  scorePredictions,
  summaryPathOf,
  type InstanceLocalizer,
  type LocalizerFactory,
  type LocbenchLocalizerConfig,
  type LocbenchMode,
  type LocbenchSummary,
  type ProgressStream,
  type RunComparison,
} from '../../eval/index.js';
import { countOf } from '../../plural.js';

/** What the eval commands need from the CLI. */
export interface EvalCommandDeps {
  /** Builds the retrieval localizer (mode `retrieval`). */
  createLocalizer(config: LocbenchLocalizerConfig): Promise<InstanceLocalizer>;
  /** Builds the agent localizer (mode `agent`); without it `--mode agent` is refused. */
  createAgentLocalizer?: LocalizerFactory;
  /** Builds the rerank localizer (mode `rerank`); without it `--mode rerank` is refused. */
  createRerankLocalizer?: LocalizerFactory;
  logger: Logger;
  /** Final output; default process.stdout. */
  stdout?: { write(chunk: string): unknown };
  /** Progress destination; default process.stderr. */
  stderr?: ProgressStream;
  /** When given, used instead of installing a SIGINT handler (tests, embedding). */
  signal?: AbortSignal;
}

/** The default output folder of `eval locbench` (stable so that re-running resumes). */
export const DEFAULT_LOCBENCH_OUT = 'reponav-eval/locbench';

/** The default output folder of `eval analyze`. */
export const DEFAULT_ANALYSIS_OUT = 'reponav-eval/analysis';

/** Commander argParser; a bad value is a usage error (exit 2), like every reponav option (see cli/option-parsers.ts). */
function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Expected a whole number, at least 0.');
  return Number(value);
}

function parsePositiveInt(value: string): number {
  const n = parseNonNegativeInt(value);
  if (n === 0) throw new InvalidArgumentError('Expected a whole number, at least 1.');
  return n;
}

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseConfigJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ReponavError('BAD_INPUT', `--config-json is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ReponavError('BAD_INPUT', '--config-json must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Runs `body` with an AbortSignal tied to SIGINT (first: abort, second: exit 130). */
async function withSigint<T>(deps: EvalCommandDeps, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (deps.signal) return body(deps.signal);
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    deps.logger.warn('interrupt: finishing the current instance, then writing the summary (Ctrl-C again to quit now)');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await body(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function printSummary(deps: EvalCommandDeps, summary: LocbenchSummary, format: string, markdown?: string): void {
  const stdout = deps.stdout ?? process.stdout;
  stdout.write(format === 'json' ? `${JSON.stringify(summary, null, 2)}\n` : (markdown ?? renderSummaryMarkdown(summary)));
}

interface LocbenchCliOptions {
  instances: string;
  repos: string;
  out: string;
  format: 'md' | 'json';
  limit?: number;
  only?: string[];
  mode: LocbenchMode;
  interface?: string;
  order: 'commit-date' | 'file';
  configJson?: string;
  concurrency?: number;
  allowChangedSettings?: boolean;
}

/** Label for a summary file: its folder name for `…/summary.json`, else the file name without extension. */
function defaultLabel(path: string): string {
  const name = basename(path);
  return name === 'summary.json' ? basename(dirname(resolve(path))) : name.replace(/\.json$/i, '');
}

/**
 * Adds the `eval` command group (`locbench`, `score`, `compare`) to `program`.
 * Actions throw ReponavError (BAD_INPUT, FILE_NOT_FOUND) for unusable input and
 * leave exit handling to the program; an interrupted `locbench` run sets
 * `process.exitCode = 130` after printing its partial summary.
 */
export function registerEvalCommands(program: Command, deps: EvalCommandDeps): Command {
  const evalCommand = program.command('eval').description('run the benchmarks (LocBench localization, SWE-QA question answering), then score, compare and analyze runs');

  evalCommand
    .command('locbench')
    .description('localize every LocBench instance and score it (resumable; re-run the same command to continue)')
    .requiredOption('--instances <file>', 'LocBench JSONL (instance_id, repo, base_commit, problem_statement, edit_functions)')
    .requiredOption('--repos <dir>', 'folder of git dirs: owner+name, owner+name/repo, owner__name or name')
    .option('--out <dir>', 'output folder (predictions.jsonl, skipped.jsonl, summary.json, summary.md)', DEFAULT_LOCBENCH_OUT)
    .addOption(new Option('--format <format>', 'stdout format').choices(['md', 'json']).default('md'))
    .option('--limit <n>', 'only the first N instances (file order)', parseNonNegativeInt)
    .option('--only <ids>', 'comma-separated instance ids', parseList)
    .addOption(new Option('--mode <mode>', 'localizer: retrieval only, an LLM agent, or retrieval then a model reranker').choices([...LOCBENCH_MODES]).default('retrieval'))
    .option('--interface <name>', 'agent mode: tool interface given to the agent (passed to the agent localizer)')
    .addOption(new Option('--order <order>', 'order within a repository').choices(['commit-date', 'file']).default('commit-date'))
    .option('--config-json <json>', 'localizer settings as a JSON object (recorded in the summary)')
    .option('--concurrency <n>', 'instances localized at once (useful in agent mode; retrieval runs one at a time)', parseNonNegativeInt, 1)
    .option('--allow-changed-settings', 'resume an output folder whose recorded settings differ (the differences are recorded in run.json)')
    .action(async (opts: LocbenchCliOptions) => {
      const config: LocbenchLocalizerConfig = {
        mode: opts.mode,
        ...(opts.interface !== undefined ? { interface: opts.interface } : {}),
        settings: parseConfigJson(opts.configJson),
      };
      const localizer = await createLocbenchLocalizer(config, {
        retrieval: deps.createLocalizer,
        ...(deps.createAgentLocalizer ? { agent: deps.createAgentLocalizer } : {}),
        ...(deps.createRerankLocalizer ? { rerank: deps.createRerankLocalizer } : {}),
      });
      try {
        let runSignal: AbortSignal | undefined;
        const result = await withSigint(deps, (signal) =>
          runLocbench(
            {
              instancesPath: opts.instances,
              reposDir: opts.repos,
              outDir: opts.out,
              ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
              ...(opts.only ? { only: opts.only } : {}),
              mode: config.mode,
              localizerConfig: config,
              order: opts.order,
              concurrency: Math.max(1, opts.concurrency ?? 1),
              ...(opts.allowChangedSettings ? { allowChangedSettings: true } : {}),
              signal: (runSignal = signal),
              logger: deps.logger,
            },
            localizer,
            { progress: createProgressReporter({ stream: deps.stderr ?? process.stderr }) },
          ),
        );
        deps.logger.info(`wrote ${result.paths.summaryJson} (${result.predictedThisRun} localized now, ${result.resumed} resumed)`);
        printSummary(deps, result.summary, opts.format, result.markdown);
        // Ctrl-C during the last instance still ends the process as interrupted.
        if (result.interrupted || runSignal?.aborted) process.exitCode = 130;
      } finally {
        await localizer.close?.();
      }
    });

  evalCommand
    .command('score')
    .description("score a predictions JSONL (LocAgent shape: found_files/found_modules/found_entities), ours or another tool's")
    .requiredOption('--instances <file>', 'LocBench JSONL with the gold edit_functions')
    .requiredOption('--predictions <file>', 'predictions JSONL')
    .addOption(new Option('--format <format>', 'stdout format').choices(['md', 'json']).default('md'))
    .action(async (opts: { instances: string; predictions: string; format: string }) => {
      const file = await readLocbenchInstances(opts.instances);
      const { instances, malformed } = file;
      const note = skippedLinesNote(opts.instances, file);
      if (note) deps.logger.warn(note);
      const scored = await scorePredictions({ instances, predictionsPath: opts.predictions });
      if (scored.counts.duplicatesRemoved > 0) {
        deps.logger.info(`removed ${countOf(scored.counts.duplicatesRemoved, 'duplicate prediction')} in ${countOf(scored.counts.predictionsWithDuplicates, 'line')} before scoring`);
      }
      const summary = buildSummary({
        scored,
        config: { command: 'score' },
        source: { instances: resolve(opts.instances), predictions: resolve(opts.predictions) },
        skipped: malformed.map((line) => ({
          reason: 'malformed-line' as const,
          lineNumber: line.lineNumber,
          ...(line.instanceId ? { instanceId: line.instanceId } : {}),
          detail: line.reason,
        })),
      });
      printSummary(deps, summary, opts.format);
    });

  evalCommand
    .command('compare')
    .description('compare summary.json files side by side (deltas vs the first); with two or more, each against the first by a paired bootstrap over instances')
    .argument('<summaries...>', 'summary.json files or the run folders holding them; the first is the baseline')
    .option('--labels <labels>', 'comma-separated column labels (default: folder names)', parseList)
    .addOption(new Option('--format <format>', 'stdout format').choices(['md', 'json']).default('md'))
    .option('--resamples <n>', 'bootstrap resamples', parsePositiveInt, DEFAULT_BOOTSTRAP.resamples)
    .option('--seed <n>', 'bootstrap seed', parseNonNegativeInt, DEFAULT_BOOTSTRAP.seed)
    .option('--instances <file>', 'LocBench JSONL with the gold (default: the one each summary records)')
    .action(async (given: string[], opts: { labels?: string[]; format: string; resamples: number; seed: number; instances?: string }) => {
      // A run's folder (what `eval locbench --out` names) stands for the summary.json inside it, as in `eval analyze`.
      const files = given.map(summaryPathOf);
      if (opts.labels && opts.labels.length !== files.length) {
        throw new ReponavError('BAD_INPUT', `--labels has ${countOf(opts.labels.length, 'label')} for ${countOf(files.length, 'summary', 'summaries')}`);
      }
      const summaries = files.map((file, i) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(readFileSync(file, 'utf8'));
        } catch (error) {
          const code = (error as { code?: string }).code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'BAD_INPUT';
          throw new ReponavError(code, `cannot read summary ${file}: ${(error as Error).message}`, { path: file });
        }
        return { label: opts.labels?.[i] ?? defaultLabel(file), summary: assertLocbenchSummary(parsed, file) };
      });
      const comparisons: RunComparison[] = [];
      if (summaries.length >= 2) {
        const runs = await Promise.all(summaries.map((s, i) => loadRunScores(s.label, files[i]!, s.summary, opts.instances)));
        for (const run of runs.slice(1)) comparisons.push(compareRuns(runs[0]!, run, { resamples: opts.resamples, seed: opts.seed }));
      }
      const stdout = deps.stdout ?? process.stdout;
      if (opts.format === 'json') {
        const document = {
          kind: 'reponav-locbench-comparison',
          version: 1,
          summaries: summaries.map((s) => ({ label: s.label, instances: s.summary.counts.instances, metrics: s.summary.metrics })),
          comparisons,
        };
        stdout.write(`${JSON.stringify(document, null, 2)}\n`);
        return;
      }
      stdout.write(compareSummaries(summaries));
      for (const comparison of comparisons) stdout.write(`\n${renderComparisonMarkdown(comparison)}`);
    });

  evalCommand
    .command('analyze')
    .description('the papers\' analyses over recorded runs: paired comparison, failure taxonomy, parameter sweeps, complexity strata, evidence funnel, SWE-QA budget curve')
    .argument('<runs...>', 'run folders (or their summary.json): LocBench runs, retrieval or agent, and eval sweqa runs')
    .option('--against <run>', 'baseline LocBench run: paired comparison and stratum gains of each run against it')
    .option('--out <dir>', 'writes analysis.md and analysis.json there', DEFAULT_ANALYSIS_OUT)
    .addOption(new Option('--format <format>', 'stdout format').choices(['md', 'json']).default('md'))
    .option('--repos <dir>', 'folder of git dirs (as eval locbench): enables the complexity strata')
    .option('--index-dir <dir>', 'folder of the commit indexes for the strata (default: the user cache)')
    .option('--instances <file>', 'LocBench JSONL with the gold (default: the one each summary records)')
    .option('--resamples <n>', 'bootstrap resamples', parsePositiveInt, DEFAULT_BOOTSTRAP.resamples)
    .option('--seed <n>', 'bootstrap seed', parseNonNegativeInt, DEFAULT_BOOTSTRAP.seed)
    .action(async (runs: string[], opts: { against?: string; out: string; format: string; repos?: string; indexDir?: string; instances?: string; resamples: number; seed: number }) => {
      const out = resolve(opts.out);
      mkdirSync(out, { recursive: true });
      const document = await analyzeRuns({
        runs,
        ...(opts.against !== undefined ? { against: opts.against } : {}),
        ...(opts.instances !== undefined ? { instancesPath: opts.instances } : {}),
        ...(opts.repos !== undefined ? { reposDir: opts.repos, factsCachePath: join(out, 'gold-file-facts.json') } : {}),
        ...(opts.indexDir !== undefined ? { indexDir: opts.indexDir } : {}),
        resamples: opts.resamples,
        seed: opts.seed,
        logger: deps.logger,
      });
      const json = `${JSON.stringify(document, null, 2)}\n`;
      const markdown = renderAnalysisMarkdown(document);
      writeFileSync(join(out, 'analysis.json'), json);
      writeFileSync(join(out, 'analysis.md'), markdown);
      deps.logger.info(`wrote ${join(out, 'analysis.md')} and analysis.json`);
      (deps.stdout ?? process.stdout).write(opts.format === 'json' ? json : markdown);
    });

  return evalCommand;
}
