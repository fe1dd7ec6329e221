/**
 * Provider-neutral retry loop. Providers run their SDK/fetch with retries
 * disabled and translate each failure into an `LlmTransportError`; this module
 * alone decides whether to wait and try again, so every backend shares one
 * policy and one set of actionable error messages.
 *
 * Hand-written rather than p-retry/exponential-backoff: besides attempts and
 * jittered backoff it must honour `Retry-After` and `x-should-retry`, stop
 * when the total wait would pass a budget (not sleep through it), wake on an
 * abort mid-backoff, and word the final error with secrets redacted; the
 * libraries cover the first part only, so this module would stay anyway.
 */
import { ReponavError, isReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ReplyOutcome } from './reply-outcome.js';
import { countOf } from '../plural.js';

/**
 * How hard to retry. `maxAttempts` counts the first try (4 = 1 try + 3 retries).
 * `maxTotalWaitMs` caps the sum of all backoff sleeps; a wait that would exceed
 * it (e.g. a long `Retry-After`) ends the loop at once instead of sleeping.
 */
export interface RetryPolicy {
  maxAttempts: number;
  /**
   * Attempts at most when the failures are timeouts: a server that never
   * answers is not made more likely to answer by asking again, and each
   * timed-out attempt costs a whole timeout.
   */
  maxTimeoutAttempts: number;
  /**
   * Attempts at most when the replies are empty (no text, no reasoning, not
   * cut), independent of `maxAttempts`: an empty reply is asked for once more
   * even with retries off, and a model that keeps answering nothing is a
   * failed call, not an answer.
   */
  maxEmptyAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxTotalWaitMs: number;
}

/**
 * Defaults: 4 attempts (2 when they time out), 0.5 s doubling backoff capped
 * at 20 s, at most 60 s waiting in total.
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  maxTimeoutAttempts: 2,
  maxEmptyAttempts: 2,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxTotalWaitMs: 60_000,
});

/** Fill a partial policy from the defaults, rejecting nonsensical values early. */
export function resolveRetryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...dropUndefined(partial) };
  for (const key of ['maxAttempts', 'maxTimeoutAttempts', 'maxEmptyAttempts'] as const) {
    if (!Number.isInteger(policy[key]) || policy[key] < 1) {
      throw new ReponavError('BAD_INPUT', `Retry ${key} must be an integer >= 1, got ${policy[key]}`);
    }
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxTotalWaitMs'] as const) {
    if (!(policy[key] >= 0)) throw new ReponavError('BAD_INPUT', `Retry ${key} must be >= 0, got ${policy[key]}`);
  }
  return policy;
}

/** What went wrong with one attempt, in transport terms. */
export type TransportFailureKind = 'http' | 'timeout' | 'connection' | 'aborted' | 'bad-response' | 'empty-reply' | 'incomplete' | 'stream-only';

/**
 * Why a model call failed, in one word a caller can switch on (the
 * `cause` detail of every `LLM_ERROR` a provider throws): `rate-limited` (429),
 * `server-error` (5xx), `rejected` (another 4xx: the request was refused),
 * `auth` (401/403), `not-found` (404), `timeout`, `connection`,
 * `bad-response` (not a completion), `empty-reply` (only empty replies),
 * `rejected` also for an endpoint that requires streaming (transport kind `stream-only`),
 * `incomplete-reply` (the model did not finish: refused, filtered, paused or
 * an unknown stop; `details.outcome` says which), `aborted` (the caller's
 * signal, e.g. a deadline).
 */
export type LlmFailureCause =
  | 'rate-limited'
  | 'server-error'
  | 'rejected'
  | 'auth'
  | 'not-found'
  | 'timeout'
  | 'connection'
  | 'bad-response'
  | 'empty-reply'
  | 'incomplete-reply'
  | 'aborted';

/**
 * One failed attempt, as reported by a provider. `message` must already be
 * free of secrets (providers redact the API key before constructing it).
 * `shouldRetry` carries an explicit server hint (OpenAI's `x-should-retry`).
 */
export class LlmTransportError extends Error {
  readonly kind: TransportFailureKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly shouldRetry?: boolean;
  /** For `incomplete`: the reply's outcome (reply-outcome.ts). */
  readonly outcome?: ReplyOutcome;

  constructor(
    kind: TransportFailureKind,
    message: string,
    extra: { status?: number; retryAfterMs?: number; shouldRetry?: boolean; cause?: unknown; outcome?: ReplyOutcome } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'LlmTransportError';
    this.kind = kind;
    this.status = extra.status;
    this.retryAfterMs = extra.retryAfterMs;
    this.shouldRetry = extra.shouldRetry;
    if (extra.outcome !== undefined) this.outcome = extra.outcome;
  }
}

/**
 * True for failures worth another attempt: 408, 409 (lock contention), 429,
 * any 5xx (incl. Anthropic's 529 "overloaded"), timeouts and connection errors.
 * A server's explicit `shouldRetry` hint wins over the status rule.
 */
export function isRetryable(error: LlmTransportError): boolean {
  if (error.kind === 'aborted' || error.kind === 'bad-response' || error.kind === 'incomplete' || error.kind === 'stream-only') return false;
  if (error.kind === 'empty-reply') return true;
  if (error.shouldRetry !== undefined) return error.shouldRetry;
  if (error.kind === 'timeout' || error.kind === 'connection') return true;
  const status = error.status ?? 0;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Minimal header access so both `Headers` and plain records work. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms` (OpenAI),
 * `Retry-After` in seconds, or `Retry-After` as an HTTP date. Undefined when
 * absent or unparseable; never negative.
 */
export function parseRetryAfter(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with "equal jitter" for retry number `retry` (1-based):
 * half the capped exponential delay is fixed, half random, so concurrent
 * clients spread out without ever retrying immediately.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Who we were talking to, for log lines and error messages (never the key). */
export interface RetryContext {
  modelId: string;
  baseUrl: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Injectable for deterministic jitter; defaults to Math.random. */
  random?: () => number;
  /** What the retry log line names (default `LLM <modelId>`). */
  label?: string;
  /** Builds the final error of a failed call (default: `LLM_ERROR` naming status, model and base URL). */
  failure?: (error: LlmTransportError, attempts: number, why: string) => ReponavError;
  /** Builds the error of a call the caller aborted (default: `LLM_ERROR` "aborted by caller"). */
  aborted?: (attempts: number) => ReponavError;
}


/**
 * Run `attempt` until it succeeds, a non-retryable failure occurs, attempts run
 * out, or the next wait would exceed the total-wait budget. Rejects with a
 * `ReponavError('LLM_ERROR')` naming status, model and base URL. A
 * `ReponavError` thrown by `attempt` is passed through untouched.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  ctx: RetryContext,
): Promise<T> {
  const logger = ctx.logger ?? silentLogger;
  const fail = ctx.failure ?? ((error: LlmTransportError, attempts: number, why: string) => toLlmError(error, ctx, attempts, why));
  const aborted = ctx.aborted ?? ((attempts: number) => abortedError(ctx, attempts));
  let waited = 0;
  let timeouts = 0;
  let empties = 0;
  for (let n = 1; ; n++) {
    if (ctx.signal?.aborted) throw aborted(n - 1);
    try {
      return await attempt(n);
    } catch (raw) {
      if (isReponavError(raw)) throw raw;
      const error = raw instanceof LlmTransportError ? raw : unexpected(raw);
      if (error.kind === 'aborted' || ctx.signal?.aborted) throw aborted(n);
      if (!isRetryable(error)) throw fail(error, n, 'not retryable');
      if (error.kind === 'empty-reply') {
        if (++empties >= policy.maxEmptyAttempts) throw fail(error, n, `${countOf(empties, 'empty reply', 'empty replies')} in a row`);
      } else if (n - empties >= policy.maxAttempts) throw fail(error, n, `gave up after ${countOf(n, 'attempt')}`);
      if (error.kind === 'timeout' && ++timeouts >= Math.min(policy.maxTimeoutAttempts, policy.maxAttempts)) {
        throw fail(error, n, `gave up after ${countOf(timeouts, 'timed-out attempt')}`);
      }
      // An empty reply is the model's, not the server's load: ask again at once.
      const delay = error.kind === 'empty-reply' ? 0 : Math.max(error.retryAfterMs ?? 0, backoffDelay(n, policy, ctx.random));
      if (waited + delay > policy.maxTotalWaitMs) {
        const why = error.retryAfterMs !== undefined && error.retryAfterMs >= delay
          ? `server asked to retry after ${formatMs(error.retryAfterMs)}, beyond the retry wait budget of ${formatMs(policy.maxTotalWaitMs)}`
          : `retry wait budget of ${formatMs(policy.maxTotalWaitMs)} exhausted after ${countOf(n, 'attempt')}`;
        throw fail(error, n, why);
      }
      logger.warn(
        `${ctx.label ?? `LLM ${ctx.modelId}`} at ${ctx.baseUrl}: ${describe(error)}; retrying in ${formatMs(delay)} (attempt ${n + 1}/${policy.maxAttempts + empties})`,
      );
      // An abort during backoff surfaces exactly like an abort mid-request.
      if (!(await sleep(delay, ctx.signal))) throw aborted(n);
      waited += delay;
    }
  }
}

/** Resolve after `ms`; resolve `false` early when `signal` fires. */
function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function unexpected(error: unknown): LlmTransportError {
  const message = error instanceof Error ? error.message : String(error);
  return new LlmTransportError('bad-response', `unexpected client error: ${message}`, { cause: error });
}

function abortedError(ctx: RetryContext, attempts: number): ReponavError {
  return new ReponavError('LLM_ERROR', `LLM request to ${ctx.modelId} at ${ctx.baseUrl} aborted by caller`, {
    aborted: true,
    cause: 'aborted',
    model: ctx.modelId,
    baseUrl: ctx.baseUrl,
    attempts,
  });
}

function describe(error: LlmTransportError): string {
  if (error.kind === 'http') return `HTTP ${error.status}: ${error.message}`;
  return `${error.kind}: ${error.message}`;
}

/** What the user should do next, keyed on the failure. */
function hint(error: LlmTransportError, ctx: RetryContext): string {
  if (error.kind === 'timeout') {
    return `The request timed out${ctx.timeoutMs ? ` after ${formatMs(ctx.timeoutMs)}` : ''}; raise timeoutMs or use a faster model.`;
  }
  if (error.kind === 'connection') return `Could not reach ${ctx.baseUrl}; check the base URL and that the server is running.`;
  if (error.kind === 'bad-response') return 'The server answered with something that is not a valid completion; check that the base URL points at the right API.';
  if (error.kind === 'incomplete') return 'Only a reply the model finished is used; try again, or use another model.';
  if (error.kind === 'stream-only') return 'reponav reads whole replies (stream=false); use an endpoint or proxy that serves non-streaming completions.';
  if (error.kind === 'empty-reply') return 'The model answered with nothing; check the model name, its context length and that the server returns the reply in content (or reasoning_content).';
  switch (error.status) {
    case 400: return 'The server rejected the request; check that the model supports the parameters used (max tokens, JSON mode, stop sequences).';
    case 401: return 'Authentication failed; check the API key (apiKey / apiKeyEnv in the model config, or the provider key environment variable).';
    case 403: return 'The API key is not allowed to use this model or endpoint.';
    case 404: return 'Model or endpoint not found; check the model name and the base URL (OpenAI-compatible servers usually end in /v1).';
    case 413: return 'The request is too large for the server; send less context.';
    case 429: return 'Rate limited; lower concurrency, wait, or raise the retry limits.';
    default: return error.status !== undefined && error.status >= 500
      ? 'The server kept failing; try again later or use another model/endpoint.'
      : 'Check the model configuration.';
  }
}

/**
 * Build the final, user-facing error for a failed call. Details carry
 * `status`, `kind`, `model`, `baseUrl` and `attempts` for programmatic use.
 */
export function toLlmError(error: LlmTransportError, ctx: RetryContext, attempts: number, why: string): ReponavError {
  const status = error.status !== undefined ? `HTTP ${error.status}` : error.kind === 'incomplete' ? `${error.outcome ?? 'unknown'} reply` : error.kind;
  const message =
    `LLM call to ${ctx.modelId} at ${ctx.baseUrl} failed (${status}; ${why}): ${truncate(error.message, 300)}. ` +
    hint(error, ctx);
  return new ReponavError('LLM_ERROR', message, {
    cause: failureCause(error),
    status: error.status,
    kind: error.kind,
    ...(error.outcome !== undefined ? { outcome: error.outcome } : {}),
    model: ctx.modelId,
    baseUrl: ctx.baseUrl,
    attempts,
  });
}

/** The {@link LlmFailureCause} of a final transport failure. */
export function failureCause(error: LlmTransportError): LlmFailureCause {
  switch (error.kind) {
    case 'timeout':
    case 'connection':
    case 'bad-response':
    case 'empty-reply':
    case 'aborted':
      return error.kind;
    case 'incomplete':
      return 'incomplete-reply';
    case 'stream-only':
      return 'rejected';
    case 'http': {
      const status = error.status ?? 0;
      if (status === 429) return 'rate-limited';
      if (status === 401 || status === 403) return 'auth';
      if (status === 404) return 'not-found';
      return status >= 500 ? 'server-error' : 'rejected';
    }
  }
}

/**
 * The cause of a failed model call, or null when `error` is not one (a
 * budget stop, a bug). Callers use it to tell an outage from an answer:
 * any non-null value means the model produced nothing usable.
 */
export function llmFailureCause(error: unknown): LlmFailureCause | null {
  if (!isReponavError(error, 'LLM_ERROR')) return null;
  if (error.details?.aborted === true) return 'aborted';
  const cause = error.details?.cause;
  return typeof cause === 'string' ? (cause as LlmFailureCause) : 'bad-response';
}

/** Replace every occurrence of each secret with a marker (no-op for empty secrets). */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms)}ms`;
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
