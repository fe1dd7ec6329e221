import { describe, expect, it } from 'vitest';
import { ReponavError, isReponavError } from '../errors.js';
import {
  LlmTransportError,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  redactSecrets,
  resolveRetryPolicy,
  withRetry,
} from './retry.js';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
const ctx = { modelId: 'openai:m', baseUrl: 'http://127.0.0.1:1/v1' };

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '150', 'retry-after': '9' }))).toBe(150);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(0);
  });

  it('ignores missing and garbage values', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  it('doubles per retry with equal jitter and a cap', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 1)).toBe(400);
    expect(backoffDelay(10, policy, () => 1)).toBe(1000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });
});

describe('isRetryable', () => {
  it('retries 408/409/429/5xx, timeouts and connection errors only', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect(isRetryable(new LlmTransportError('http', '', { status }))).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) expect(isRetryable(new LlmTransportError('http', '', { status }))).toBe(false);
    expect(isRetryable(new LlmTransportError('timeout', ''))).toBe(true);
    expect(isRetryable(new LlmTransportError('connection', ''))).toBe(true);
    expect(isRetryable(new LlmTransportError('bad-response', ''))).toBe(false);
    expect(isRetryable(new LlmTransportError('http', '', { status: 500, shouldRetry: false }))).toBe(false);
    expect(isRetryable(new LlmTransportError('http', '', { status: 400, shouldRetry: true }))).toBe(true);
  });
});

describe('withRetry', () => {
  it('gives up at once when Retry-After exceeds the total wait budget', async () => {
    let calls = 0;
    // "At once": no retry announced (its log line comes before any wait), not a duration measured by the clock.
    const warned: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warned.push(m), error() {} };
    const error = await withRetry(
      async () => {
        calls++;
        throw new LlmTransportError('http', 'slow down', { status: 429, retryAfterMs: 30_000 });
      },
      resolveRetryPolicy({ maxTotalWaitMs: 1000 }),
      { ...ctx, logger },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(warned).toEqual([]);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/retry after 30\.0s, beyond the retry wait budget/);
  });

  it('counts attempts in words that hold for one attempt and for empty replies beyond the limit', async () => {
    const warnings: string[] = [];
    const logger = { debug: () => {}, info: () => {}, error: () => {}, warn: (m: string) => void warnings.push(m) };
    let calls = 0;
    const reply = await withRetry(
      async () => {
        calls++;
        if (calls === 1) throw new LlmTransportError('empty-reply', 'no content');
        return 'ok';
      },
      resolveRetryPolicy({ baseDelayMs: 0, maxAttempts: 1 }),
      { ...ctx, logger },
    );
    expect(reply).toBe('ok');
    expect(warnings.join('\n')).toMatch(/attempt 2\/2\)/);
    const once = await withRetry(
      async () => {
        throw new LlmTransportError('http', 'busy', { status: 503 });
      },
      resolveRetryPolicy({ baseDelayMs: 0, maxAttempts: 1 }),
      ctx,
    ).catch((e: unknown) => e);
    expect((once as Error).message).toMatch(/gave up after 1 attempt\b/);
    expect((once as Error).message).not.toMatch(/1 attempts/);
  });

  it('passes ReponavErrors through and wraps unknown errors as non-retryable', async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw new TypeError('boom');
      },
      resolveRetryPolicy({ baseDelayMs: 1 }),
      ctx,
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect((error as Error).message).toContain('unexpected client error: boom');

    const own = new ReponavError('BUDGET_EXCEEDED', 'stop');
    await expect(withRetry(async () => Promise.reject(own), resolveRetryPolicy(), ctx)).rejects.toBe(own);
  });

  it('aborts during backoff', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await withRetry(
      async () => {
        throw new LlmTransportError('http', 'busy', { status: 503 });
      },
      resolveRetryPolicy({ baseDelayMs: 10_000, maxDelayMs: 10_000 }),
      { ...ctx, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as { details?: unknown }).details).toMatchObject({ aborted: true, attempts: 1 });
  });

  it('validates policies', () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(resolveRetryPolicy({ maxAttempts: undefined }).maxAttempts).toBe(4);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence and ignores empty secrets', () => {
    expect(redactSecrets('a sk-123 b sk-123', ['sk-123', undefined, ''])).toBe('a [redacted] b [redacted]');
  });
});

describe('withRetry and timeouts', () => {
  it('gives up after maxTimeoutAttempts timed-out attempts (default 2), so a silent server cannot cost four timeouts', async () => {
    let attempts = 0;
    const fail = () => {
      attempts++;
      return Promise.reject(new LlmTransportError('timeout', 'request timed out'));
    };
    const error = await withRetry(fail, resolveRetryPolicy({ baseDelayMs: 0 }), ctx).catch((e: unknown) => e);
    expect(attempts).toBe(2);
    expect((error as Error).message).toMatch(/gave up after 2 timed-out attempts/);
    attempts = 0;
    await withRetry(fail, resolveRetryPolicy({ baseDelayMs: 0, maxTimeoutAttempts: 1 }), ctx).catch(() => undefined);
    expect(attempts).toBe(1);
    expect(() => resolveRetryPolicy({ maxTimeoutAttempts: 0 })).toThrow(/maxTimeoutAttempts/);
  });
});
