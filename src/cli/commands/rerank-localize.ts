/**
 * `reponav localize --rerank-model MODEL`: no agent; the retrieval's ranking,
 * then the model reranks its top functions (retrieve/rerank). Prints the
 * files and the reranked functions (text or `--json`); `--trace FILE` writes
 * every window's prompt answer, usage and what the reply got wrong. A model
 * failure is an error (exit 1) unless `--rerank-fallback` was given: then the
 * retrieval order is printed and the output says the rerank failed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { ReponavError } from '../../errors.js';
import { RepositoryIndex } from '../../index/index.js';
import { createChatModel, createReplayModel, UsageMeter, withRecording, withUsageMeter, type ChatModel, type ModelConfig } from '../../llm/index.js';
import type { Logger } from '../../logger.js';
import { searchRepository } from '../../retrieve/index.js';
import { createFunctionReranker, DEFAULT_RERANK_SETTINGS, rerankFunctions, resolveRerankSettings, summarizeRerank, type FunctionReranker, type RerankSettings, type RerankTrace } from '../../retrieve/rerank/index.js';
import { positiveInt, wholeNumber } from '../option-parsers.js';
import { countOf } from '../../plural.js';

/** The rerank flags as commander parses them. */
export interface RerankFlags {
  rerankModel?: string;
  rerankCandidates?: number;
  rerankWindow?: number;
  rerankStep?: number;
  rerankBodyTokens?: number;
  rerankFallback?: boolean;
}

/** Adds the `--rerank-*` flags (shared by `localize` and `mcp`). */
export function addRerankOptions(command: Command, what: string): Command {
  const d = DEFAULT_RERANK_SETTINGS;
  return command
    .option('--rerank-model <spec>', `${what}: a model reranks the retrieval's top functions listwise, e.g. openai:gpt-4.1 (base URL and key from REPONAV_LLM_BASE_URL / REPONAV_LLM_API_KEY, as for the agents)`)
    .option('--rerank-candidates <n>', `functions reranked (default ${d.candidates})`, positiveInt)
    .option('--rerank-window <n>', `candidates per model call (default ${d.window})`, wholeNumber(2))
    .option('--rerank-step <n>', `how far the window moves up between calls (default ${d.step})`, positiveInt)
    .option('--rerank-body-tokens <n>', `o200k tokens of each candidate's code in the prompt (default ${d.bodyTokens})`, positiveInt)
    .option('--rerank-fallback', 'when the rerank model fails, keep the retrieval order (and say so) instead of failing');
}

/** The reranker settings the flags set (the rest are defaults). */
export function rerankSettingsFromFlags(flags: RerankFlags, deadlineMs: number | undefined): Partial<RerankSettings> {
  return {
    ...(flags.rerankCandidates !== undefined ? { candidates: flags.rerankCandidates } : {}),
    ...(flags.rerankWindow !== undefined ? { window: flags.rerankWindow } : {}),
    ...(flags.rerankStep !== undefined ? { step: flags.rerankStep } : {}),
    ...(flags.rerankBodyTokens !== undefined ? { bodyTokens: flags.rerankBodyTokens } : {}),
    ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    onFailure: flags.rerankFallback ? 'retrieval-order' : 'error',
  };
}

/** How long one MCP search call may spend reranking: clients give up on a call near 60 s. */
export const MCP_RERANK_DEADLINE_MS = 45_000;

/**
 * The MCP server's reranker for `--rerank-model` (undefined without it):
 * the model from the flag, its base URL and key from the environment as for
 * the agents; each call reranks within {@link MCP_RERANK_DEADLINE_MS}.
 */
export function rerankerFromFlags(flags: RerankFlags, logger: Logger, env: Record<string, string | undefined> = process.env): FunctionReranker | undefined {
  if (flags.rerankModel === undefined) return undefined;
  const model = createChatModel({ model: flags.rerankModel }, { env, logger });
  return createFunctionReranker(model, rerankSettingsFromFlags(flags, MCP_RERANK_DEADLINE_MS));
}

/** What the rerank run needs from the localize command. */
export interface RerankLocalizeRun {
  repo: string;
  commit?: string;
  indexPath?: string;
  issue: string;
  flags: RerankFlags;
  modelLimits: Pick<ModelConfig, 'timeoutMs' | 'maxRetries'>;
  deadlineMs?: number;
  maxUsd?: number;
  record?: string;
  replay?: string;
  trace?: string;
  json?: boolean;
  quiet?: boolean;
  env?: Record<string, string | undefined>;
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  logger: Logger;
}

/** Runs retrieval then the rerank, and prints the answer. Throws ReponavError as the module comment says. */
export async function runRerankLocalize(run: RerankLocalizeRun): Promise<void> {
  // Bad settings (a step wider than the window) are refused before anything is indexed.
  const settings = resolveRerankSettings(rerankSettingsFromFlags(run.flags, run.deadlineMs));
  const meter = new UsageMeter({ maxCostUsd: run.maxUsd }, { logger: run.logger });
  const model = withUsageMeter(rerankModelOf(run), meter);
  const index = await RepositoryIndex.open(run.repo, { commit: run.commit, indexPath: run.indexPath, logger: run.logger });
  let files: string[];
  let modules: string[];
  let functions: string[];
  let trace: RerankTrace;
  try {
    await index.refresh();
    const result = await searchRepository(index.store, run.issue, {});
    files = [...new Set([...result.files.map((f) => f.path), ...(result.docs ?? []).map((d) => d.path)])];
    modules = result.modules.map((m) => `${m.path}:${m.qualifiedName}`);
    const reranked = await rerankFunctions(index.store, model, run.issue, result.functions, settings, { logger: run.logger });
    functions = reranked.functions.map((f) => `${f.path}:${f.qualifiedName}`);
    trace = reranked.trace;
  } finally {
    await index.close();
  }
  if (run.trace) {
    await mkdir(dirname(run.trace), { recursive: true });
    await writeFile(run.trace, `${JSON.stringify({ repo: run.repo, commit: run.commit ?? null, issue: run.issue, ...trace }, null, 2)}\n`);
  }
  const order = trace.fallback ? 'retrieval-order' : 'reranked';
  if (run.json) {
    run.stdout.write(`${JSON.stringify({ mode: 'rerank', model: trace.model, order, found_files: files, found_modules: modules, found_entities: functions, rerank: { ...summarizeRerank(trace), wallMs: trace.wallMs, settings: trace.settings } }, null, 2)}\n`);
  } else {
    const lines = ['Files:', ...numbered(files.slice(0, 20)), trace.fallback ? 'Functions (retrieval order: the rerank failed):' : `Functions (reranked by ${trace.model}):`, ...numbered(functions.slice(0, 20))];
    run.stdout.write(`${lines.join('\n')}\n`);
  }
  // -q hides the summary line, never a fallback: a retrieval order must not pass for a rerank.
  if (!run.quiet || trace.fallback) run.stderr.write(`${summaryLine(trace)}\n`);
}

function rerankModelOf(run: RerankLocalizeRun): ChatModel {
  if (run.record && run.replay) throw new ReponavError('BAD_INPUT', 'Use either --record or --replay, not both.');
  if (run.replay) return createReplayModel(run.replay, { model: run.flags.rerankModel });
  const model = createChatModel({ model: run.flags.rerankModel, ...run.modelLimits }, { env: run.env, logger: run.logger });
  return run.record ? withRecording(model, run.record, { logger: run.logger }) : model;
}

function numbered(items: readonly string[]): string[] {
  return items.length > 0 ? items.map((item, i) => `  ${i + 1}. ${item}`) : ['  (none)'];
}

function summaryLine(trace: RerankTrace): string {
  const tokens = countOf(trace.inputTokens + trace.outputTokens, 'token');
  const cost = trace.costUsd !== null && trace.calls > 0 ? ` · $${trace.costUsd.toFixed(4)}` : '';
  if (trace.fallback) return `rerank failed, retrieval order kept (--rerank-fallback): ${trace.fallback.message} · ${countOf(trace.calls, 'call')} · ${tokens}${cost}`;
  const wrong = trace.unknownIds + trace.repeatedIds + trace.missingIds;
  const notes = wrong > 0 ? ` · replies named ${trace.unknownIds} unknown, ${trace.repeatedIds} repeated and left out ${countOf(trace.missingIds, 'candidate')}` : '';
  return `reranked ${countOf(trace.input.length, 'candidate')} in ${countOf(trace.calls, 'call')} · ${tokens}${cost} · ${(trace.wallMs / 1000).toFixed(1)} s${notes}`;
}
