/**
 * `reponav ask "QUESTION"`: answer a question about a repository with the
 * MCTS search (or a baseline), print the answer with its checked citations
 * and its cost, and optionally save the whole search tree as JSON.
 *
 * The model comes from `--model SPEC` (e.g. `openai:gpt-4o-mini`,
 * `ollama:qwen2.5-coder`, `replay:NAME` with `--transcript FILE`) or the
 * REPONAV_LLM_* environment (see src/llm/model-config.ts).
 */
import { basename, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { askQuestion, type AskResult } from '../../agents/ask/index.js';
import type { AskSettingsInput } from '../../agents/ask/index.js';
import { writeAskTrace } from '../../agents/ask/index.js';
import type { AskMethod } from '../../agents/ask/index.js';
import { ReponavError } from '../../errors.js';
import type { RepositoryIndex } from '../../index/index.js';
import { createChatModel } from '../../llm/index.js';
import { RepositorySet } from '../../tools/index.js';
import { cliLogger, openFreshRepository, printJson } from '../cli-context.js';
import { decimal, nonNegativeInt, positiveInt, seconds, tokenBudget } from '../option-parsers.js';
import { addAgentRunOptions, deadlineMsFromFlags, embedderFromFlags, modelLimitsFromFlags, type AgentRunFlags } from './agent-options.js';
import { countOf } from '../../plural.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface AskCommandOptions extends AgentRunFlags {
  repo: string;
  maxUsd?: number;
  commit?: string;
  indexPath?: string;
  model?: string;
  transcript?: string;
  method: AskMethod;
  iterations?: number;
  maxChildren?: number;
  uctC?: number;
  budgetTokens?: number;
  budgetSeconds?: number;
  plateauWindow?: number;
  plateauEpsilon?: number;
  rubric?: 'deeprepoqa' | 'reponav';
  trace?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** The search settings the CLI flags set (undefined flags keep the defaults). */
export function settingsFromFlags(o: Pick<AskCommandOptions, 'iterations' | 'maxChildren' | 'uctC' | 'budgetTokens' | 'budgetSeconds' | 'plateauWindow' | 'plateauEpsilon' | 'rubric'>): AskSettingsInput {
  return {
    iterations: o.iterations,
    maxChildren: o.maxChildren,
    uctC: o.uctC,
    budgetTokens: o.budgetTokens,
    budgetSeconds: o.budgetSeconds,
    plateau: { window: o.plateauWindow, epsilon: o.plateauEpsilon },
    rubric: o.rubric,
  };
}

/** Adds the search/budget flags shared by `ask` and `eval sweqa`. */
export function addSearchOptions(command: Command): Command {
  return command
    .option('--iterations <n>', 'MCTS iterations at most (default 15)', positiveInt)
    .option('--max-children <n>', 'children per expansion at most (default 3)', positiveInt)
    .option('--uct-c <c>', 'UCT exploration constant (default 1.41)', decimal(0))
    .option('--budget-tokens <n>', 'hard ceiling on tokens per answer (search + answer)', tokenBudget())
    .option('--budget-seconds <n>', 'hard ceiling on seconds per answer', seconds)
    .option('--plateau-window <n>', 'our addition, not in the paper: stop when the best score has not risen for N iterations (default 0: never)', nonNegativeInt)
    .option('--plateau-epsilon <x>', 'rise (score points) that counts as progress (default 1)', decimal(0))
    .addOption(
      new Option('--rubric <name>', "Evaluation rubric: deeprepoqa (the paper's, default) or reponav (ours: steps that find nothing score low)").choices(['deeprepoqa', 'reponav']),
    );
}

/** One line about how the answer was made: method, stop reason, calls, tokens, cost, time. */
export function costLine(result: AskResult): string {
  const c = result.cost;
  const usd = c.costUsd === null ? 'cost unknown (unpriced model)' : `$${c.costUsd.toFixed(4)}${c.unpricedCalls > 0 ? ` + ${c.unpricedCalls} unpriced calls` : ''}`;
  const run = result.method === 'mcts' || result.method === 'react' ? result.trace.iterationsRun : 0;
  const unit = result.method === 'mcts' ? 'iteration' : 'step';
  const iterations = result.method === 'mcts' || result.method === 'react' ? ` after ${run} ${unit}${run === 1 ? '' : 's'}` : '';
  return `— ${result.method}, stopped: ${result.stopReason}${iterations}; ${countOf(c.calls, 'call')}, ${countOf(c.totalTokens, 'token')} (${c.inputTokens} in, ${c.outputTokens} out), ${usd}; ${(result.elapsedMs / 1000).toFixed(1)} s`;
}

/** Registers `reponav ask "QUESTION" [options]`. */
export function registerAskCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('ask')
    .description('answer a question about a repository (Monte-Carlo tree search over the code tools, or a baseline), with checked file:line citations')
    .argument('<question>', 'the question, e.g. "How does the cart apply discounts?"')
    .option('--repo <path>', 'repository folder', '.')
    .option('--commit <rev>', 'answer about this commit instead of the working tree')
    .option('--index-path <file>', 'SQLite index location (default: the user cache)')
    .option('--model <spec>', 'model, e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, ollama:qwen2.5-coder (default: $REPONAV_LLM_MODEL)')
    .option('--transcript <file>', 'record every model call to this JSONL (or, with --model replay:NAME, answer from it offline)')
    .addOption(new Option('--method <method>', 'mcts (the search), react, rag (function-chunk retrieval) or direct (no repository)').choices(['mcts', 'react', 'rag', 'direct']).default('mcts'))
    .option('--max-usd <x>', 'stop when this much has been spent (priced models only)', decimal(0, { exclusive: true }));
  addAgentRunOptions(command);
  addSearchOptions(command)
    .option('--trace <file>', 'save the whole search (tree, evidence, values, visits, token counts) as JSON')
    .option('--json', 'print the answer, citations and cost as JSON')
    .option('-q, --quiet', 'only print errors on stderr (no progress)')
    .option('--verbose', 'debug logging on stderr')
    .action(async (question: string, options: AskCommandOptions) => {
      await runAsk(question, options, io);
    });
  return command;
}

async function runAsk(question: string, options: AskCommandOptions, io: CliIo): Promise<void> {
  const logger = cliLogger(options, io);
  const model = createChatModel(
    { ...(options.model ? { model: options.model } : {}), ...(options.transcript ? { transcriptPath: options.transcript } : {}), ...modelLimitsFromFlags(options) },
    { logger },
  );
  const embedder = await embedderFromFlags(options, logger);
  const deadlineMs = deadlineMsFromFlags(options);
  let repository: RepositoryIndex | null = null;
  let repositories: RepositorySet | undefined;
  if (options.method !== 'direct') {
    ({ repository } = await openFreshRepository({ repo: options.repo, commit: options.commit, indexPath: options.indexPath, quiet: options.quiet, json: options.json, verbose: options.verbose }, io));
    repositories = RepositorySet.of([repository]);
  }
  const progress = !options.quiet && !options.json;
  try {
    const result = await askQuestion({
      question,
      method: options.method,
      model,
      repositories,
      commit: options.commit ?? null,
      // Direct prompting names the repository only when one was given (the default '.' says nothing).
      ...(repository
        ? { repositoryLabel: basename(repository.root.replace(/[\\/]+(\.git|repo)$/, '')) }
        : options.repo !== '.'
          ? { repositoryLabel: basename(resolve(options.repo)) }
          : {}),
      // --max-usd caps the whole run (search + answer) in the run's own meter, checked before each call.
      settings: { ...settingsFromFlags(options), ...(options.maxUsd !== undefined ? { budgetUsd: options.maxUsd } : {}) },
      // The deadline is an abort signal the run budget hands to every model call, so a call that never answers ends the run.
      ...(deadlineMs !== undefined ? { signal: AbortSignal.timeout(deadlineMs) } : {}),
      ...(embedder ? { embedder } : {}),
      logger,
      onProgress: progress
        ? (p) => io.stderr.write(`[ask] iteration ${p.iteration}: ${countOf(p.nodes, 'node')}, best score ${p.bestScore ?? '-'}, ${countOf(p.tokens, 'token')}\n`)
        : undefined,
    });
    if (options.trace) await writeAskTrace(options.trace, result.trace);
    // An outage is an error, never an answer: one sentence on stderr, exit code 1 (LLM_ERROR), nothing on stdout.
    if (result.stopReason === 'llm-error') {
      const trace = options.trace ? ` The trace is in ${resolve(options.trace)}.` : '';
      throw new ReponavError('LLM_ERROR', `No answer (stopped: llm-error): ${result.trace.llmError ?? 'the model failed'}.${trace}`, { stopReason: 'llm-error' });
    }
    if (options.json) {
      printJson(io, {
        answer: result.answer,
        citations: result.citations,
        dropped: result.trace.answer.dropped,
        method: result.method,
        stopReason: result.stopReason,
        // Why the search ended when the stop reason is about the answer (e.g. answer-truncated after finish).
        ...(result.trace.searchStopReason ? { searchStopReason: result.trace.searchStopReason } : {}),
        // True when the answer is the marked fallback (the model's answer could not be had or used), not a model answer.
        fallback: result.trace.answer.fallback,
        cost: result.cost,
        elapsedMs: result.elapsedMs,
        ...(options.trace ? { trace: resolve(options.trace) } : {}),
      });
    } else {
      const lines = [result.answer, ''];
      if (result.citations.length > 0) lines.push(`Checked citations: ${result.citations.map((c) => c.text).join(', ')}`);
      if (result.trace.answer.dropped.length > 0) lines.push(`Dropped citations: ${result.trace.answer.dropped.map((c) => `${c.text} (${c.reason})`).join('; ')}`);
      lines.push(costLine(result));
      if (options.trace) lines.push(`Trace: ${resolve(options.trace)}`);
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    // No answer is a non-zero exit, as in `localize`: a fallback (deadline, budget, unusable reply) was printed, not an answer.
    if (result.trace.answer.fallback) {
      const code = result.stopReason === 'budget-cost' || result.stopReason === 'budget-tokens' ? 'BUDGET_EXCEEDED' : 'LLM_ERROR';
      throw new ReponavError(code, `No answer (stopped: ${result.stopReason}): what was printed is a fallback, not the model's answer.`, { stopReason: result.stopReason, fallback: true });
    }
  } finally {
    await repositories?.close();
  }
}
