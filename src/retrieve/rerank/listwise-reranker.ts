/**
 * The listwise reranker: asks a chat model to order the retrieval's top
 * candidates, window by window from the bottom up (sliding-windows.ts), and
 * reads each reply robustly (rerank-reply.ts). The model's failures are the
 * caller's errors: a call that fails after the client's retries, a reply that
 * names no candidate twice, a deadline — never a quiet return of the
 * retrieval order, unless the caller asked for that (`onFailure:
 * 'retrieval-order'`), and then the trace says so (`fallback`).
 */
import { isReponavError, ReponavError } from '../../errors.js';
import { loadTokenCounter, type ChatMessage, type ChatModel, type ChatUsage } from '../../llm/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import { buildRerankMessages, cutReplyMessage, noRankingMessage, type RerankCandidate } from './rerank-prompt.js';
import { parseRanking, type RankingFormat } from './rerank-reply.js';
import { slidingWindows } from './sliding-windows.js';

/** What a rerank does when the model fails: fail (default), or keep the retrieval order and say so. */
export type RerankFailurePolicy = 'error' | 'retrieval-order';

/** The reranker's settings; every one has a default ({@link DEFAULT_RERANK_SETTINGS}). */
export interface RerankSettings {
  /** How many of the retrieval's top functions are reranked (the rest follow in retrieval order). */
  candidates: number;
  /** Candidates per model call. */
  window: number;
  /** How far the window moves up between calls. */
  step: number;
  /** o200k tokens of each candidate's body in the prompt. */
  bodyTokens: number;
  /** o200k tokens of the issue text in the prompt. */
  issueTokens: number;
  /** Output limit of one call (reasoning models spend it on their draft too). */
  maxOutputTokens: number;
  temperature: number;
  /** Wall-clock limit of the whole rerank, passed into every call as an abort signal; null: none. */
  deadlineMs: number | null;
  onFailure: RerankFailurePolicy;
}

/** The defaults: 20 candidates, windows of 10 moving by 5 (three calls), 300-token bodies. */
export const DEFAULT_RERANK_SETTINGS: Readonly<RerankSettings> = Object.freeze({
  candidates: 20,
  window: 10,
  step: 5,
  bodyTokens: 300,
  issueTokens: 2000,
  maxOutputTokens: 512,
  temperature: 0,
  deadlineMs: null,
  onFailure: 'error',
});

/** One model call of a window, as the trace keeps it. */
export interface RerankAttemptTrace {
  reply: string;
  /** The reasoning the endpoint sent before the reply (never read as a ranking). */
  reasoning?: string;
  cut: boolean;
  format: RankingFormat;
  ranked: number;
  unknown: string[];
  repeated: number;
  missing: number;
  usage: ChatUsage;
  latencyMs: number;
  notes?: string[];
}

/** One window of the rerank. */
export interface RerankWindowTrace {
  start: number;
  end: number;
  /** The window's candidates as sent ([1] first). */
  candidates: string[];
  /** The window's candidates as ranked. */
  order: string[];
  attempts: RerankAttemptTrace[];
}

/** Everything a rerank did: recorded in the run's trace. */
export interface RerankTrace {
  model: string;
  settings: RerankSettings;
  /** Candidate ids in retrieval order. */
  input: string[];
  /** Candidate ids as reranked (the retrieval order when `fallback` is set). */
  output: string[];
  windows: RerankWindowTrace[];
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when any call was unpriced. */
  costUsd: number | null;
  /** Totals over all calls: identifiers not in their window, repeats, candidates left out, cut replies, corrective re-asks. */
  unknownIds: number;
  repeatedIds: number;
  missingIds: number;
  cutReplies: number;
  reasks: number;
  wallMs: number;
  /** Set when the model failed and `onFailure: 'retrieval-order'` kept the retrieval order. */
  fallback?: { code: string; cause: string | null; message: string };
}

/** The result of {@link rerankCandidates}. */
export interface RerankOutcome {
  candidates: RerankCandidate[];
  trace: RerankTrace;
}

/** Per-call collaborators. */
export interface RerankCallOptions {
  signal?: AbortSignal;
  logger?: Logger;
}

/** Checks settings, naming the bad one; returns the effective settings. */
export function resolveRerankSettings(partial: Partial<RerankSettings> = {}): RerankSettings {
  const s: RerankSettings = { ...DEFAULT_RERANK_SETTINGS, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) };
  for (const key of ['candidates', 'window', 'step', 'bodyTokens', 'issueTokens', 'maxOutputTokens'] as const) {
    if (!Number.isInteger(s[key]) || s[key] < 1) throw new ReponavError('BAD_INPUT', `rerank ${key} must be a whole number of at least 1, got ${String(s[key])}.`);
  }
  if (s.window < 2) throw new ReponavError('BAD_INPUT', `rerank window must be at least 2 candidates, got ${s.window}.`);
  if (s.step > s.window) throw new ReponavError('BAD_INPUT', `rerank step (${s.step}) must not exceed the window (${s.window}): candidates between windows would never be compared.`);
  return s;
}

/**
 * Reranks `candidates` (retrieval order) for `issue` with `model`. Resolves
 * with the candidates in the model's order and the trace; rejects with the
 * model's `ReponavError` (`LLM_ERROR` with its `cause`, `BUDGET_EXCEEDED`)
 * unless `settings.onFailure` is `retrieval-order`, which resolves with the
 * input order and `trace.fallback` set.
 */
export async function rerankCandidates(
  model: ChatModel,
  issue: string,
  candidates: readonly RerankCandidate[],
  settings: Partial<RerankSettings> = {},
  options: RerankCallOptions = {},
): Promise<RerankOutcome> {
  const s = resolveRerankSettings(settings);
  const logger = options.logger ?? silentLogger;
  const started = performance.now();
  const deadline = s.deadlineMs !== null ? AbortSignal.timeout(s.deadlineMs) : undefined;
  const signal = deadline && options.signal ? AbortSignal.any([options.signal, deadline]) : (deadline ?? options.signal);
  const trace: RerankTrace = {
    model: model.id,
    settings: s,
    input: candidates.map((c) => c.id),
    output: [],
    windows: [],
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    unknownIds: 0,
    repeatedIds: 0,
    missingIds: 0,
    cutReplies: 0,
    reasks: 0,
    wallMs: 0,
  };
  const order = [...candidates];
  try {
    const count = await loadTokenCounter();
    for (const span of slidingWindows(order.length, s.window, s.step)) {
      if (signal?.aborted) throw abortError(deadline, s);
      const window = order.slice(span.start, span.end);
      const windowTrace: RerankWindowTrace = { ...span, candidates: window.map((c) => c.id), order: [], attempts: [] };
      trace.windows.push(windowTrace);
      const ranked = await rankWindow(model, issue, window, s, count, signal, windowTrace, trace).catch((error: unknown) => {
        throw deadline?.aborted ? abortError(deadline, s) : error;
      });
      order.splice(span.start, window.length, ...ranked);
      windowTrace.order = ranked.map((c) => c.id);
    }
  } catch (error) {
    trace.wallMs = Math.round(performance.now() - started);
    const failure = isReponavError(error, 'LLM_ERROR') || isReponavError(error, 'BUDGET_EXCEEDED') ? error : null;
    if (failure && s.onFailure === 'retrieval-order') {
      const cause = typeof failure.details?.cause === 'string' ? failure.details.cause : null;
      trace.fallback = { code: failure.code, cause, message: failure.message };
      trace.output = trace.input;
      logger.warn(`rerank: the model failed (${failure.message}); keeping the retrieval order, as asked (onFailure: retrieval-order)`);
      return { candidates: [...candidates], trace };
    }
    if (failure) throw new ReponavError(failure.code, `Reranking with ${model.id} failed: ${failure.message}`, { ...failure.details, rerank: trace });
    throw error;
  }
  trace.output = order.map((c) => c.id);
  trace.wallMs = Math.round(performance.now() - started);
  return { candidates: order, trace };
}

/** One window's ranking: asked once, again after a cut or rankless reply; a second rankless reply is an error. */
async function rankWindow(
  model: ChatModel,
  issue: string,
  window: readonly RerankCandidate[],
  s: RerankSettings,
  count: (text: string) => number,
  signal: AbortSignal | undefined,
  windowTrace: RerankWindowTrace,
  trace: RerankTrace,
): Promise<RerankCandidate[]> {
  const n = window.length;
  const names = window.map((c) => c.id);
  let messages: ChatMessage[] = buildRerankMessages(issue, window, s, count);
  for (let attempt = 1; ; attempt++) {
    const response = await model.complete({ messages, maxTokens: s.maxOutputTokens, temperature: s.temperature, ...(signal ? { signal } : {}) });
    const parsed = parseRanking(response.text, n, names);
    trace.calls += 1;
    trace.inputTokens += response.usage.inputTokens;
    trace.outputTokens += response.usage.outputTokens;
    trace.costUsd = trace.costUsd === null || response.usage.costUsd === null ? null : trace.costUsd + response.usage.costUsd;
    trace.unknownIds += parsed.unknown.length;
    trace.repeatedIds += parsed.repeated;
    if ((response.outcome === 'cut')) trace.cutReplies += 1;
    windowTrace.attempts.push({
      reply: response.text,
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      cut: (response.outcome === 'cut'),
      format: parsed.format,
      ranked: parsed.ranked,
      unknown: parsed.unknown,
      repeated: parsed.repeated,
      missing: parsed.missing,
      usage: response.usage,
      latencyMs: Math.round(response.latencyMs),
      ...(response.notes?.length ? { notes: response.notes } : {}),
    });
    const incomplete = (response.outcome === 'cut') && parsed.ranked < n;
    if (attempt === 1 && (incomplete || parsed.ranked === 0)) {
      // Asked once more, with the reason: a cut list is probably cut mid-identifier, a rankless reply is off-format.
      trace.reasks += 1;
      messages = [...messages, { role: 'assistant', content: response.text }, { role: 'user', content: (response.outcome === 'cut') ? cutReplyMessage(n) : noRankingMessage(n) }];
      continue;
    }
    if (parsed.ranked === 0) {
      throw new ReponavError('LLM_ERROR', `the model's reply named none of the ${n === 1 ? 'one candidate' : `${n} candidates`} twice (${(response.outcome === 'cut') ? 'cut at the length limit' : `reply: ${JSON.stringify(response.text.slice(0, 120))}`}).`, {
        cause: 'bad-response',
      });
    }
    trace.missingIds += parsed.missing;
    return parsed.order.map((i) => window[i]!);
  }
}

function abortError(deadline: AbortSignal | undefined, s: RerankSettings): ReponavError {
  if (deadline?.aborted) {
    return new ReponavError('LLM_ERROR', `the rerank's deadline of ${(s.deadlineMs! / 1000).toFixed(1)} s passed.`, { cause: 'timeout', deadline: true });
  }
  return new ReponavError('LLM_ERROR', 'the rerank was aborted.', { cause: 'aborted', aborted: true });
}
