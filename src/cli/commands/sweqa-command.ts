/**
 * `reponav eval sweqa`: run the SWE-QA benchmark with one answering method
 * and LLM judges, resumably, and print the summary (Markdown or JSON).
 *
 *   eval sweqa --questions FILE --repos DIR --model M --judges J1[,J2,J3]
 *              [--method mcts|react|rag|direct] [--out DIR] [--limit N]
 *              [--concurrency N] [--max-usd X] [--commits FILE] [--index-dir DIR]
 *              [--transcript-dir DIR] [--deadline S] [--llm-timeout S] [--llm-retries N]
 *              [--allow-changed-settings] [search and budget flags as for `ask`]
 *
 * Progress goes to stderr, the summary to stdout. Ctrl-C stops after the
 * questions in flight, writes the summary and exits 130.
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { askQuestion, resolveAskSettings } from '../../agents/ask/index.js';
import type { AskSettingsInput } from '../../agents/ask/index.js';
import { writeAskTrace } from '../../agents/ask/index.js';
import type { AskMethod } from '../../agents/ask/index.js';
import { createChatModel, resolveModelConfig, type ModelConfig } from '../../llm/index.js';
import type { Logger } from '../../logger.js';
import type { SweqaAnswerer } from '../../eval/sweqa/index.js';
import { runSweqa } from '../../eval/sweqa/index.js';
import { cliLogger } from '../cli-context.js';
import { commaList, decimal, positiveInt, seconds } from '../option-parsers.js';
import { addModelCallOptions, DEFAULT_DEADLINE_SECONDS, deadlineMsFromFlags, modelLimitsFromFlags } from './agent-options.js';
import { addSearchOptions, settingsFromFlags } from './ask-command.js';

/** Why the model's answer could not be used, by the stop reason of a fallback written for that reason. */
const UNUSABLE_ANSWER: Record<string, string> = {
  'answer-truncated': 'its reply was cut at the token limit twice',
  'answer-empty': 'its reply was empty twice',
  'answer-tool-call': 'it called tools instead of writing the answer twice',
};

/** The default output folder (stable, so re-running the same command resumes). */
export const DEFAULT_SWEQA_OUT = 'reponav-eval/sweqa';

interface SweqaCliOptions {
  questions: string;
  repos: string;
  model?: string;
  judges: string[];
  method: AskMethod;
  out: string;
  limit?: number;
  concurrency: number;
  maxUsd?: number;
  commits?: string;
  indexDir?: string;
  transcriptDir?: string;
  format: 'md' | 'json';
  iterations?: number;
  maxChildren?: number;
  uctC?: number;
  budgetTokens?: number;
  budgetSeconds?: number;
  plateauWindow?: number;
  rubric?: 'deeprepoqa' | 'reponav';
  plateauEpsilon?: number;
  deadline?: number;
  llmTimeout?: number;
  llmRetries?: number;
  allowChangedSettings?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * Adds `sweqa` under the existing `eval` command group (pass the Command that
 * `registerEvalCommands` returns). Options: see the module comment.
 */
export function registerSweqaCommand(
  evalCommand: Command,
  deps: { logger?: Logger; stdout?: { write(chunk: string): unknown }; stderr?: { write(chunk: string): unknown }; signal?: AbortSignal } = {},
): Command {
  const command = evalCommand
    .command('sweqa')
    .description('answer SWE-QA questions with a method and score them with LLM judges (resumable; re-run the same command to continue)')
    .requiredOption('--questions <file>', 'question JSONL (id, repo, commit_short, qtype_first_word, question, answer)')
    .requiredOption('--repos <dir>', 'folder of git dirs: owner+name, owner+name/repo, owner__name or name')
    .option('--model <spec>', 'answering model (default: $REPONAV_LLM_MODEL)')
    .requiredOption('--judges <specs>', 'comma-separated judge model specs; scores are averaged over them', commaList('judge model spec'))
    .addOption(new Option('--method <method>', 'answering method').choices(['mcts', 'react', 'rag', 'direct']).default('mcts'))
    .option('--out <dir>', 'output folder (run.json, answers.jsonl, traces/, summary.json, summary.md)', DEFAULT_SWEQA_OUT)
    .option('--limit <n>', 'only the first N questions (file order)', positiveInt)
    .option('--concurrency <n>', 'questions answered at once', positiveInt, 1)
    .option('--max-usd <x>', 'spend cap of this invocation over answering and judging (priced models only)', decimal(0))
    .option('--commits <file>', 'repository commit list (default: sweqa-repo-commits.txt beside the questions)')
    .option('--index-dir <dir>', 'folder for the per-repository commit indexes (default: the user cache)')
    .option('--transcript-dir <dir>', 'record model calls to DIR/answer.jsonl and DIR/judge-N.jsonl (with replay: specs, answer from them offline)')
    .addOption(new Option('--format <format>', 'stdout format').choices(['md', 'json']).default('md'));
  addSearchOptions(command)
    .option('--deadline <seconds>', `wall-clock limit of each answer, passed into every model call; an answer past it is an error, answered again on resume (0: none)`, seconds, DEFAULT_DEADLINE_SECONDS);
  addModelCallOptions(command, 'answering and judging')
    .option('--allow-changed-settings', 'resume a run folder whose recorded settings differ (the differences are recorded in run.json)')
    .option('-q, --quiet', 'no progress on stderr')
    .option('--verbose', 'debug logging on stderr')
    .action(async (opts: SweqaCliOptions) => {
      const stdout = deps.stdout ?? process.stdout;
      const stderr = deps.stderr ?? process.stderr;
      const logger = deps.logger ?? cliLogger(opts, { stdout, stderr });
      const transcript = (name: string) => (opts.transcriptDir ? { transcriptPath: join(opts.transcriptDir, `${name}.jsonl`) } : {});
      const limits = modelLimitsFromFlags(opts);
      const answerConfig: ModelConfig = { ...(opts.model ? { model: opts.model } : {}), ...transcript('answer'), ...limits };
      const judgeConfigs: ModelConfig[] = opts.judges.map((spec, i) => ({ model: spec, ...transcript(`judge-${i + 1}`), ...limits }));
      const model = createChatModel(answerConfig, { logger });
      // Judges read REPONAV_JUDGE_*, never REPONAV_LLM_*: a local answering model must not redirect hosted judges.
      const judges = judgeConfigs.map((config) => createChatModel(config, { logger, role: 'judge' }));
      const controller = new AbortController();
      const signal = deps.signal ?? controller.signal;
      const onSigint = (): void => {
        if (controller.signal.aborted) process.exit(130);
        logger.warn('interrupt: finishing the questions in flight, then writing the summary (Ctrl-C again to quit now)');
        controller.abort();
      };
      if (!deps.signal) process.on('SIGINT', onSigint);
      try {
        const result = await runSweqa({
          questionsPath: opts.questions,
          reposDir: opts.repos,
          ...(opts.commits ? { commitsPath: opts.commits } : {}),
          outDir: opts.out,
          answerer: askAnswerer(opts.method, settingsFromFlags(opts), deadlineMsFromFlags(opts)),
          model,
          judges,
          models: { answer: modelFacts(answerConfig), judges: judgeConfigs.map(modelFacts) },
          ...(opts.allowChangedSettings ? { allowChangedSettings: true } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          concurrency: opts.concurrency,
          ...(opts.maxUsd !== undefined ? { maxUsd: opts.maxUsd } : {}),
          ...(opts.indexDir ? { indexDir: opts.indexDir } : {}),
          logger,
          signal,
          onProgress: opts.quiet
            ? undefined
            : (done, total, r) =>
                stderr.write(
                  `[sweqa] ${done}/${total} ${r.id} ${r.status}${r.total !== null ? ` total ${r.total}` : ''}${r.cost ? ` (${r.cost.totalTokens} tokens)` : ''}${r.reason ? `: ${r.reason}` : ''}\n`,
                ),
        });
        logger.info(`wrote ${result.paths.summaryJson} (${result.answeredThisRun} answered now, ${result.resumed} resumed)`);
        stdout.write(opts.format === 'json' ? `${JSON.stringify(result.summary, null, 2)}\n` : result.markdown);
        if (result.interrupted) process.exitCode = 130;
      } finally {
        if (!deps.signal) process.off('SIGINT', onSigint);
      }
    });
  return command;
}

/**
 * What run.json records about a model beyond its id: the provider and the
 * host of its base URL (a resume against another server is refused). Never the key.
 */
export function modelFacts(config: ModelConfig): { provider: string; baseUrlHost: string | null } {
  const resolved = resolveModelConfig(config);
  let host: string | null = null;
  try {
    host = resolved.provider === 'replay' ? null : new URL(resolved.baseUrl).host;
  } catch {
    host = null;
  }
  return { provider: resolved.provider, baseUrlHost: host };
}

/**
 * The question-answering agent (agents/ask) as the SWE-QA harness's answering
 * method: the composition that keeps eval free of agent imports.
 */
export function askAnswerer(method: AskMethod, settings: AskSettingsInput = {}, deadlineMs?: number): SweqaAnswerer {
  return {
    method,
    // Resolved, so the run records (and a resume checks) every setting, defaults included.
    settings: { ...resolveAskSettings(settings), deadlineSeconds: deadlineMs === undefined ? null : deadlineMs / 1000 },
    readsRepository: method !== 'direct',
    async answer(input) {
      const deadline = deadlineMs !== undefined ? AbortSignal.timeout(deadlineMs) : undefined;
      const signal = deadline && input.signal ? AbortSignal.any([input.signal, deadline]) : (deadline ?? input.signal);
      const result = await askQuestion({
        question: input.question,
        method,
        model: input.model,
        ...(input.repository ? { repositories: input.repository.set, commit: input.repository.commit } : {}),
        repositoryLabel: input.repositoryLabel,
        settings,
        logger: input.logger,
        signal,
      });
      // The per-answer deadline is a failure of this answer (a hung model), not the run's interruption.
      const pastDeadline = result.stopReason === 'aborted' && deadline?.aborted === true && !input.signal?.aborted;
      // A fallback written because the model's answer was unusable (cut, empty or a tool call every time) is no answer either:
      // judging it would score the fallback text as if the method had answered.
      const unusableAnswer = result.trace.answer.fallback && result.stopReason.startsWith('answer-')
        ? `the model's answer could not be used (${UNUSABLE_ANSWER[result.stopReason] ?? 'its reply was not an answer'})`
        : null;
      const modelFailure =
        result.stopReason === 'llm-error' ? (result.trace.llmError ?? 'the model failed') : pastDeadline ? `the deadline of ${deadlineMs! / 1000} s passed` : unusableAnswer;
      return {
        answer: result.answer,
        citations: result.citations.length,
        droppedCitations: result.trace.answer.dropped.length,
        stopReason: result.stopReason,
        cost: result.cost,
        interrupted: result.stopReason === 'aborted' && !pastDeadline,
        modelFailure,
        spendCapFallback: result.stopReason === 'budget-cost' && Boolean(result.trace.answer.fallback),
        writeTrace: (file) => writeAskTrace(file, result.trace),
      };
    },
  };
}
