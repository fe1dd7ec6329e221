/**
 * The flags `ask` and `localize` share for what a run may cost and what its
 * tools retrieve with: a wall-clock deadline passed into every model call,
 * the per-call timeout and retry count of the model client, and the dense
 * embedder (`--embedder`, as for `index` and `search`) that the agents'
 * search tools fuse with BM25.
 */
import type { Command } from 'commander';
import type { Logger } from '../../logger.js';
import type { ModelConfig } from '../../llm/index.js';
import type { Embedder } from '../../retrieve/dense/index.js';
import { addEmbedderOptions, type EmbedderFlags } from '../embedder-options.js';
import { decimal, seconds, wholeNumber } from '../option-parsers.js';

/** Default wall-clock deadline of one `ask` or `localize` run, seconds. */
export const DEFAULT_DEADLINE_SECONDS = 600;

/** The parsed shared flags. */
export interface AgentRunFlags extends Pick<EmbedderFlags, 'embedder' | 'embedModel' | 'embedBaseUrl'> {
  /** Seconds; 0 means none. */
  deadline?: number;
  /** Seconds per model-call attempt. */
  llmTimeout?: number;
  /** Retries after the first attempt. */
  llmRetries?: number;
}

/**
 * Adds `--llm-timeout` and `--llm-retries`, worded the same for every command
 * that calls a model (`ask`, `localize`, `eval sweqa`, `eval locbench`);
 * `scope` says which calls they cover when there are several kinds.
 */
export function addModelCallOptions(command: Command, scope = ''): Command {
  const of = scope ? `, ${scope}` : '';
  return command
    .option('--llm-timeout <seconds>', `time limit of one model-call attempt${of} (default 60; a timed-out attempt is retried once, then the call fails)`, decimal(0, { exclusive: true, what: 'number of seconds' }))
    .option('--llm-retries <n>', `retries of a failed model call${of} (default 3; 0: none)`, wholeNumber(0, 20));
}

/** Adds `--deadline`, `--llm-timeout`, `--llm-retries` and the embedder flags. */
export function addAgentRunOptions(command: Command): Command {
  command.option('--deadline <seconds>', `wall-clock limit of the whole run, passed into every model call (0: none)`, seconds, DEFAULT_DEADLINE_SECONDS);
  addModelCallOptions(command);
  return addEmbedderOptions(command, { fusion: false, reembed: false });
}

/** The model-config fields the flags set (timeout, retries); empty when none were given. */
export function modelLimitsFromFlags(flags: AgentRunFlags): Pick<ModelConfig, 'timeoutMs' | 'maxRetries'> {
  return {
    ...(flags.llmTimeout ? { timeoutMs: Math.round(flags.llmTimeout * 1000) } : {}),
    ...(flags.llmRetries !== undefined ? { maxRetries: flags.llmRetries } : {}),
  };
}

/** The deadline in milliseconds, or undefined for none. */
export function deadlineMsFromFlags(flags: AgentRunFlags): number | undefined {
  return flags.deadline ? Math.round(flags.deadline * 1000) : undefined;
}

/**
 * The embedder `--embedder` asks for, or undefined (BM25 only). Throws
 * EMBEDDER_ERROR for unusable settings. The dense modules are imported only
 * when asked for, so a run without `--embedder` does not load them.
 */
export async function embedderFromFlags(flags: AgentRunFlags, logger: Logger): Promise<Embedder | undefined> {
  if (!flags.embedder) return undefined;
  const { createEmbedder } = await import('../../retrieve/dense/index.js');
  return createEmbedder({ kind: flags.embedder, model: flags.embedModel, baseUrl: flags.embedBaseUrl, logger });
}
