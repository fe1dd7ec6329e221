import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError, type ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { startFakeOpenAIServer, type FakeServer } from '../../test/helpers/fake-openai-server.js';
import { createOpenAICompatibleModel, type OpenAICompatibleModelOptions } from './openai-compatible-model.js';

const KEY = 'sk-test-secret-key-123456';
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

function model(extra: Partial<OpenAICompatibleModelOptions> = {}) {
  return createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: server.openaiBaseUrl, apiKey: KEY, retry: FAST, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<ReponavError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isReponavError(error)) throw new Error(`expected a ReponavError, got ${String(error)}`);
  return error;
}

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, debug: push, info: push, warn: push, error: push };
}

describe('createOpenAICompatibleModel', () => {
  it('completes through the real openai client and reports usage, cost and finish reason', async () => {
    server.enqueue({ content: 'hello there', usage: { inputTokens: 1000, outputTokens: 2000 }, model: 'gpt-4o-mini-2024-07-18' });
    const m = model();
    const res = await m.complete({ messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });

    expect(m.id).toBe('openai:gpt-4o-mini');
    expect(res.text).toBe('hello there');
    expect(res.model).toBe('gpt-4o-mini-2024-07-18');
    expect(res.finishReason).toBe('stop');
    expect(res.usage.inputTokens).toBe(1000);
    expect(res.usage.outputTokens).toBe(2000);
    expect(res.usage.costUsd).toBeCloseTo((1000 * 0.15 + 2000 * 0.6) / 1e6, 12);
    expect(res.latencyMs).toBeGreaterThanOrEqual(0);

    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0,
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }],
    });
    expect(req!.body.response_format).toBeUndefined();
  });

  it('maps json format, max tokens, stop and temperature onto the wire', async () => {
    await model().complete({
      messages: [{ role: 'user', content: 'give json' }],
      responseFormat: 'json',
      maxTokens: 50,
      stop: ['END'],
      temperature: 0.7,
    });
    expect(server.requests[0]!.body).toMatchObject({
      response_format: { type: 'json_object' },
      max_tokens: 50,
      stop: ['END'],
      temperature: 0.7,
    });
  });

  it('retries a 429 after the Retry-After delay, then succeeds', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } }, { content: 'ok now' });
    const logger = capturingLogger();
    const res = await model({ logger }).complete({ messages: [{ role: 'user', content: 'x' }] });

    expect(res.text).toBe('ok now');
    expect(server.requests).toHaveLength(2);
    const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    // The server's 1 s beats our 5 ms base delay.
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(logger.lines.some((l) => l.includes('HTTP 429') && l.includes('attempt 2/4'))).toBe(true);
  });

  it('gives up after maxAttempts on persistent 500s with an actionable error', async () => {
    for (let i = 0; i < 5; i++) server.enqueue({ status: 500 });
    const error = await failure(model({ retry: { ...FAST, maxAttempts: 3 } }).complete({ messages: [{ role: 'user', content: 'x' }] }));

    expect(server.requests).toHaveLength(3);
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('openai:gpt-4o-mini');
    expect(error.message).toContain(server.openaiBaseUrl);
    expect(error.message).toContain('gave up after 3 attempts');
    expect(error.details).toMatchObject({ status: 500, attempts: 3 });
  });

  it('does not retry a 400 and never leaks the key', async () => {
    server.enqueue({
      status: 400,
      body: { error: { message: `Invalid parameter max_tokens (key ${KEY})`, type: 'invalid_request_error' } },
    });
    const error = await failure(model().complete({ messages: [{ role: 'user', content: 'x' }] }));

    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toContain('HTTP 400');
    expect(error.message).toContain('Invalid parameter max_tokens');
    expect(error.message).toContain('not retryable');
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.details)).not.toContain(KEY);
  });

  it('explains a 401 as an API key problem', async () => {
    server.enqueue({ status: 401 });
    const error = await failure(model().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(server.requests).toHaveLength(1);
    expect(error.message).toMatch(/HTTP 401.*check the API key/s);
  });

  it('retries a timed-out attempt', async () => {
    // The timed-out reply comes far after the timeout, and the timeout leaves a loaded machine ample time
    // for the next reply (100 ms was once too little for it in a full test run).
    server.enqueue({ delayMs: 3000, content: 'too late' }, { content: 'in time' });
    const res = await model({ timeoutMs: 1000 }).complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(res.text).toBe('in time');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a timeout after the last attempt', async () => {
    server.setHandler(() => ({ delayMs: 400 }));
    const error = await failure(
      model({ timeoutMs: 50, retry: { ...FAST, maxAttempts: 2 } }).complete({ messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.details).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(error.message).toContain('raise timeoutMs');
  });

  it('retries a reset connection', async () => {
    server.enqueue({ drop: true }, { content: 'recovered' });
    const res = await model().complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(res.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('fails with a connection hint when nothing listens', async () => {
    const url = server.openaiBaseUrl;
    await server.close();
    const error = await failure(
      createOpenAICompatibleModel({ model: 'm', baseUrl: url, apiKey: KEY, retry: { ...FAST, maxAttempts: 2 } }).complete({
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error.details).toMatchObject({ kind: 'connection', attempts: 2 });
    expect(error.message).toContain(`Could not reach ${url}`);
    server = await startFakeOpenAIServer(); // for afterEach
  });

  it('stops immediately when the caller aborts', async () => {
    server.setHandler(() => ({ delayMs: 2000 }));
    const controller = new AbortController();
    const pending = model().complete({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal });
    // Abort once the request has reached the server: a fixed 50 ms delay aborted before the request
    // was sent on a loaded machine (the client loads lazily), and then nothing was recorded.
    const abortOnRequest = setInterval(() => {
      if (server.requests.length > 0) {
        clearInterval(abortOnRequest);
        controller.abort();
      }
    }, 5);
    const error = await failure(pending);
    expect(error.details).toMatchObject({ aborted: true });
    expect(server.requests).toHaveLength(1);
  });

  it('returns null cost for an unpriced model and honours price overrides', async () => {
    server.enqueue({ content: 'a', usage: { inputTokens: 10, outputTokens: 10 } });
    const local = await model({ model: 'qwen2.5-coder:7b', providerLabel: 'ollama' }).complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(local.usage.costUsd).toBeNull();

    server.enqueue({ content: 'b', usage: { inputTokens: 1_000_000, outputTokens: 1_000_000 } });
    const priced = await model({ model: 'my-model', prices: { 'my-model': { inputPerMTok: 2, outputPerMTok: 3 } } }).complete({
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(priced.usage.costUsd).toBeCloseTo(5, 9);
  });

  it('treats a 200 without choices as a bad response, not a retry', async () => {
    server.enqueue({ body: { object: 'chat.completion', choices: [] } });
    const error = await failure(model().complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(server.requests).toHaveLength(1);
    expect(error.details).toMatchObject({ kind: 'bad-response' });
  });

  it('names the install command when the optional openai package is missing, and sends nothing', async () => {
    let imports = 0;
    const missing = async (specifier: string) => {
      imports++;
      throw Object.assign(new Error(`Cannot find package '${specifier}' imported from /somewhere/dist/llm/x.js`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    const m = model({ importModule: missing });
    const error = await failure(m.complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.code).toBe('LLM_ERROR');
    expect(error.message).toContain('npm install openai@6');
    expect(error.details).toMatchObject({ missingPackage: 'openai' });
    expect(server.requests).toHaveLength(0);
    // Not cached: a later call tries again (the user may install it meanwhile).
    await failure(m.complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(imports).toBe(2);
  });

  it('imports the openai package once, on the first request', async () => {
    let imports = 0;
    const counting = async (specifier: string) => {
      imports++;
      return import(specifier);
    };
    const m = model({ importModule: counting });
    expect(imports).toBe(0);
    server.enqueue({ content: 'one' });
    server.enqueue({ content: 'two' });
    expect((await m.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('one');
    expect((await m.complete({ messages: [{ role: 'user', content: 'y' }] })).text).toBe('two');
    expect(imports).toBe(1);
  });
});
