import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { startFakeOpenAIServer, type FakeServer } from '../../test/helpers/fake-openai-server.js';
import { ANTHROPIC_API_VERSION, createAnthropicModel, type AnthropicModelOptions } from './anthropic-model.js';

const KEY = 'sk-ant-test-secret-000';
let server: FakeServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

function model(extra: Partial<AnthropicModelOptions> = {}) {
  return createAnthropicModel({
    model: 'claude-sonnet-4-5',
    apiKey: KEY,
    baseUrl: server.url,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...extra,
  });
}

describe('createAnthropicModel', () => {
  it('posts a Messages API request and reports text, usage and cost', async () => {
    server.enqueue({ content: 'bonjour', usage: { inputTokens: 1_000_000, outputTokens: 100_000 }, finishReason: 'end_turn' });
    const m = model();
    const res = await m.complete({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'first' },
        { role: 'user', content: 'second' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'third' },
      ],
      stop: ['STOP'],
      maxTokens: 256,
    });

    expect(m.id).toBe('anthropic:claude-sonnet-4-5');
    expect(res.text).toBe('bonjour');
    expect(res.finishReason).toBe('end_turn');
    expect(res.model).toBe('claude-sonnet-4-5');
    expect(res.usage).toEqual({ inputTokens: 1_000_000, outputTokens: 100_000, costUsd: 3 + 1.5 });

    const [req] = server.requests;
    expect(req!.path).toBe('/v1/messages');
    expect(req!.headers['x-api-key']).toBe(KEY);
    expect(req!.headers['anthropic-version']).toBe(ANTHROPIC_API_VERSION);
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      temperature: 0,
      system: 'You are terse.',
      stop_sequences: ['STOP'],
      messages: [
        { role: 'user', content: 'first\n\nsecond' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'third' },
      ],
    });
  });

  it('joins multiple text blocks, counts cache tokens as input, and asks for JSON via the system prompt', async () => {
    server.enqueue({
      body: {
        type: 'message',
        model: 'claude-sonnet-4-5-20250929',
        content: [
          { type: 'text', text: '{"a":' },
          { type: 'text', text: '1}' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 0 },
      },
    });
    const res = await model({ defaultMaxTokens: 1000 }).complete({ messages: [{ role: 'user', content: 'json please' }], responseFormat: 'json' });
    expect(res.text).toBe('{"a":1}');
    expect(res.model).toBe('claude-sonnet-4-5-20250929');
    expect(res.usage.inputTokens).toBe(100);
    expect(server.requests[0]!.body.max_tokens).toBe(1000);
    expect(server.requests[0]!.body.system).toMatch(/single JSON object/);
  });

  it('retries 529 overloaded and 429 with retry-after, then succeeds', async () => {
    server.enqueue({ status: 529 }, { status: 429, headers: { 'retry-after': '0.2' } }, { content: 'finally' });
    const res = await model().complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(res.text).toBe('finally');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.receivedAt - server.requests[1]!.receivedAt).toBeGreaterThanOrEqual(180);
  });

  it('fails a 401 at once with the server message, model and base URL but not the key', async () => {
    server.enqueue({ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } } });
    const error = await model()
      .complete({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    const message = (error as Error).message;
    expect(server.requests).toHaveLength(1);
    expect(message).toContain('HTTP 401');
    expect(message).toContain('authentication_error: invalid x-api-key');
    expect(message).toContain('anthropic:claude-sonnet-4-5');
    expect(message).toContain(server.url);
    expect(message).not.toContain(KEY);
  });

  it('retries a timed-out attempt and a dropped connection', async () => {
    // The timeout leaves a loaded machine ample time for the last reply (100 ms once failed a full test run).
    server.enqueue({ delayMs: 3000 }, { drop: true }, { content: 'ok' });
    const res = await model({ timeoutMs: 1000 }).complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(res.text).toBe('ok');
    expect(server.requests).toHaveLength(3);
  });

  it('rejects a non-JSON success body without retrying', async () => {
    server.enqueue({ rawBody: '<html>proxy error</html>' });
    const error = await model()
      .complete({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toContain('not JSON');
    expect(server.requests).toHaveLength(1);
  });
});
