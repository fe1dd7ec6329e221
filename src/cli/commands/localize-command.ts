/**
 * `reponav localize`: run the localization agent on one issue and print its
 * ranked answer (files, then functions); with `--rerank-model`, retrieval and
 * a model reranker instead of the agent (rerank-localize.ts). Progress goes to stderr; only the
 * answer (text or `--json`) goes to stdout; `--trace FILE` writes the whole
 * trajectory (steps, tool calls, outputs, tokens, times) as JSON.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Option, type Command } from 'commander';
import {
  AGENT_INTERFACES,
  openAgentWorkspace,
  resolveAgentInterface,
  runLocalizationAgent,
  type Trajectory,
  type TrajectoryStep,
} from '../../agents/localize/index.js';
import { ReponavError } from '../../errors.js';
import { createChatModel, createReplayModel, UsageMeter, withRecording, withUsageMeter, type ChatModel } from '../../llm/index.js';
import type { Logger } from '../../logger.js';
import { cliLogger } from '../cli-context.js';
import { decimal, positiveInt } from '../option-parsers.js';
import { addAgentRunOptions, deadlineMsFromFlags, embedderFromFlags, modelLimitsFromFlags, type AgentRunFlags } from './agent-options.js';
import { addRerankOptions, runRerankLocalize, type RerankFlags } from './rerank-localize.js';
import { countOf } from '../../plural.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

/** What the command needs from its surroundings (tests inject these; the CLI uses the defaults). */
export interface LocalizeCommandDeps {
  /** Environment for model defaults; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Answer output; default the run's stdout. */
  stdout?: { write(chunk: string): unknown };
  /** Progress output; default the run's stderr. */
  stderr?: { write(chunk: string): unknown };
  /** Default: the CLI's stderr logger (per --quiet/--verbose). */
  logger?: Logger;
}

interface LocalizeOptions extends AgentRunFlags, RerankFlags {
  repo: string;
  issue?: string;
  issueFile?: string;
  commit?: string;
  interface: string;
  model?: string;
  maxSteps?: number;
  maxTokens?: number;
  maxUsd?: number;
  trace?: string;
  record?: string;
  replay?: string;
  json?: boolean;
  indexPath?: string;
  shellTimeout?: number;
  maxOutputChars?: number;
  allowAnyCommand?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * Adds `reponav localize` to `program`. The action throws ReponavError for
 * unusable input (BAD_INPUT, FILE_NOT_FOUND), for an unreachable model
 * (LLM_ERROR) and when `--max-usd` stops the run before its first answer
 * (BUDGET_EXCEEDED); after printing, it throws LLM_ERROR when the run ended
 * without a valid answer from the model (so the exit code is non-zero even
 * when a salvaged list was printed); exit handling is the program's.
 */
export function registerLocalizeCommand(program: Command, deps: LocalizeCommandDeps = {}, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('localize')
    .description('run the localization agent on an issue: it explores the repository through tools and answers with ranked files and functions')
    .requiredOption('--repo <path>', 'repository (a working tree; with --commit any git dir)')
    .option('--issue <text>', 'the issue text')
    .option('--issue-file <file>', 'read the issue from a file ("-" for stdin)')
    .option('--commit <rev>', 'localize at this commit (read-only materialised view) instead of the working tree')
    .addOption(new Option('--interface <name>', 'tools given to the agent').choices([...AGENT_INTERFACES]).default('reponav'))
    .option('--model <spec>', 'model, e.g. openai:gpt-4o-mini, ollama:qwen2.5-coder, anthropic:claude-sonnet-4-5 (default: REPONAV_LLM_MODEL)')
    .option('--max-steps <n>', 'step budget (model calls)', positiveInt, 30)
    .option('--max-tokens <n>', 'token budget of the run (input + output over all calls)', positiveInt, 500_000)
    .option('--max-usd <x>', 'stop when this much has been spent (priced models only)', decimal(0, { exclusive: true }))
    .option('--trace <file>', 'write the full trajectory as JSON')
    .option('--record <file>', 'record every model call to a JSONL transcript')
    .option('--replay <file>', 'answer model calls from a recorded transcript (offline)')
    .option('--json', 'print the answer and run statistics as JSON')
    .option('--index-path <file>', 'where the SQLite index lives')
    .option('--shell-timeout <ms>', 'time limit per shell command', positiveInt, 10_000)
    .option('--max-output-chars <n>', 'shell output shown per command', positiveInt, 10_000)
    .option('--allow-any-command', 'let the agent run any bash command in a scratch copy (not sandboxed)')
    .option('-q, --quiet', 'no progress lines (an abnormal stop is still reported)')
    .option('--verbose', 'debug logging');
  return addRerankOptions(addAgentRunOptions(command), 'instead of the agent')
    .action(async (options: LocalizeOptions, cmd: Command) => {
      const stdout = deps.stdout ?? io.stdout;
      const stderr = deps.stderr ?? io.stderr;
      const logger = deps.logger ?? cliLogger(options, { stdout, stderr });
      const issue = await readIssue(options);
      if (options.rerankModel !== undefined) {
        const agentOnly = ['model', 'interface', 'maxSteps', 'maxTokens', 'shellTimeout', 'maxOutputChars', 'allowAnyCommand', 'embedder'].filter((key) => cmd.getOptionValueSource(key) === 'cli');
        if (agentOnly.length > 0) {
          throw new ReponavError('BAD_INPUT', `--rerank-model runs no agent, so ${agentOnly.map(flagName).join(', ')} would be ignored; drop ${agentOnly.length === 1 ? 'it' : 'them'} or --rerank-model.`);
        }
        await runRerankLocalize({
          repo: options.repo,
          commit: options.commit,
          indexPath: options.indexPath,
          issue,
          flags: options,
          modelLimits: modelLimitsFromFlags(options),
          deadlineMs: deadlineMsFromFlags(options),
          maxUsd: options.maxUsd,
          record: options.record,
          replay: options.replay,
          trace: options.trace,
          json: options.json,
          quiet: options.quiet,
          env: deps.env,
          stdout,
          stderr,
          logger,
        });
        return;
      }
      const iface = resolveAgentInterface(options.interface);
      const meter = new UsageMeter({ maxCostUsd: options.maxUsd }, { logger });
      const model = withUsageMeter(buildModel(options, deps, logger), meter);
      const embedder = await embedderFromFlags(options, logger);
      const workspace = await openAgentWorkspace({
        repoPath: options.repo,
        commit: options.commit,
        iface,
        indexPath: options.indexPath,
        shell: { timeoutMs: options.shellTimeout, maxOutputChars: options.maxOutputChars, allowAnyCommand: options.allowAnyCommand },
        ...(embedder ? { embedder } : {}),
        logger,
      });
      let trajectory: Trajectory;
      try {
        trajectory = await runLocalizationAgent({
          model,
          issue,
          iface,
          shell: workspace.shell,
          tools: workspace.tools,
          maxSteps: options.maxSteps,
          maxTokens: options.maxTokens,
          deadlineMs: deadlineMsFromFlags(options),
          repoRoot: workspace.view.root,
          logger,
          onStep: options.quiet ? undefined : (step) => stderr.write(`${progressLine(step, options.maxSteps ?? 30)}\n`),
        });
      } finally {
        await workspace.close();
      }
      if (options.trace) {
        await mkdir(dirname(options.trace), { recursive: true });
        await writeFile(options.trace, `${JSON.stringify({ repo: options.repo, commit: workspace.view.commit, ...trajectory }, null, 2)}\n`);
      }
      if ((trajectory.stopReason === 'llm-error' || trajectory.stopReason === 'spend-budget') && trajectory.steps.length === 0) {
        throw new ReponavError(trajectory.stopReason === 'llm-error' ? 'LLM_ERROR' : 'BUDGET_EXCEEDED', trajectory.error ?? trajectory.stopReason);
      }
      stdout.write(options.json ? `${JSON.stringify(jsonResult(trajectory), null, 2)}\n` : renderAnswer(trajectory));
      const answered = trajectory.answerSource === 'answer' || trajectory.answerSource === 'corrected';
      // -q hides progress, never an abnormal stop: a budget or deadline stop must not pass for an answer.
      if (!options.quiet || trajectory.stopReason !== 'answered') stderr.write(`${summaryLine(trajectory)}\n`);
      if (!answered) {
        throw new ReponavError('LLM_ERROR', `The agent gave no valid answer (stopped: ${trajectory.stopReason}${trajectory.answerSource !== 'none' ? `; the list printed was ${trajectory.answerSource}` : ''}).`, {
          stopReason: trajectory.stopReason,
          answerSource: trajectory.answerSource,
        });
      }
    });
}

/** `maxSteps` → `--max-steps`. */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

async function readIssue(options: LocalizeOptions): Promise<string> {
  if ((options.issue === undefined) === (options.issueFile === undefined)) {
    throw new ReponavError('BAD_INPUT', 'Give the issue with exactly one of --issue TEXT or --issue-file FILE.');
  }
  let text = options.issue;
  if (options.issueFile === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  } else if (options.issueFile !== undefined) {
    try {
      text = readFileSync(options.issueFile, 'utf8');
    } catch (error) {
      throw new ReponavError('FILE_NOT_FOUND', `Cannot read --issue-file ${options.issueFile}: ${(error as Error).message}`);
    }
  }
  if (!text || text.trim() === '') throw new ReponavError('BAD_INPUT', 'The issue text is empty.');
  return text;
}

function buildModel(options: LocalizeOptions, deps: LocalizeCommandDeps, logger: Logger): ChatModel {
  if (options.record && options.replay) throw new ReponavError('BAD_INPUT', 'Use either --record or --replay, not both.');
  if (options.replay) return createReplayModel(options.replay, { model: options.model });
  const model = createChatModel({ ...(options.model ? { model: options.model } : {}), ...modelLimitsFromFlags(options) }, { env: deps.env, logger });
  return options.record ? withRecording(model, options.record, { logger }) : model;
}

function progressLine(step: TrajectoryStep, maxSteps: number): string {
  const what =
    step.action === 'bash'
      ? `bash: ${String((step.args as { command?: string }).command ?? '').replace(/\s+/g, ' ').slice(0, 100)}`
      : step.action === 'tool'
        ? `${step.tool} ${JSON.stringify(step.args ?? {}).slice(0, 100)}`
        : step.action;
  const tokens = step.usage.inputTokens + step.usage.outputTokens;
  return `[step ${step.step}/${maxSteps}] ${what}${step.isError ? ' (error)' : ''} · ${countOf(tokens, 'token')}`;
}

function jsonResult(t: Trajectory) {
  return {
    interface: t.interface,
    model: t.model,
    stopReason: t.stopReason,
    ...(t.error ? { error: t.error } : {}),
    answerSource: t.answerSource,
    dropped: t.dropped ?? { count: 0, names: [] },
    found_files: t.answer.files,
    found_modules: t.answer.modules,
    found_entities: t.answer.functions,
    stats: t.stats,
  };
}

/** The ranked answer as text: numbered files, then numbered functions. */
function renderAnswer(t: Trajectory): string {
  const lines = ['Files:'];
  lines.push(...(t.answer.files.length ? t.answer.files.map((f, i) => `  ${i + 1}. ${f}`) : ['  (none)']));
  lines.push('Functions:');
  lines.push(...(t.answer.functions.length ? t.answer.functions.map((f, i) => `  ${i + 1}. ${f}`) : ['  (none)']));
  return `${lines.join('\n')}\n`;
}

function summaryLine(t: Trajectory): string {
  const s = t.stats;
  const cost = s.costUsd !== null ? ` · $${s.costUsd.toFixed(4)}` : '';
  const source = t.answerSource === 'answer' || t.answerSource === 'corrected' ? '' : ` (answer ${t.answerSource})`;
  const error = t.error ? ` — ${t.error}` : '';
  const dropped = t.dropped?.count ? ` · ${countOf(t.dropped.count, 'name')} dropped (not found or not defined where named)` : '';
  return `${t.stopReason}${source} after ${countOf(s.steps, 'step')} · ${s.totalTokens} tokens${cost} · ${countOf(s.filesInspected, 'file')} inspected · ${(s.wallMs / 1000).toFixed(1)} s${dropped}${error}`;
}
