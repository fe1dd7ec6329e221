import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { startFakeOpenAIServer, type FakeServer } from '../../test/helpers/fake-openai-server.js';
import { createChatModel, parseModelSpec, resolveModelConfig } from './model-config.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

function thrown(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

describe('parseModelSpec', () => {
  it('splits known provider prefixes only', () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({ alias: 'openai', name: 'gpt-4o-mini' });
    expect(parseModelSpec('ollama:qwen2.5-coder:7b')).toEqual({ alias: 'ollama', name: 'qwen2.5-coder:7b' });
    expect(parseModelSpec('qwen2.5-coder:7b')).toEqual({ name: 'qwen2.5-coder:7b' });
    expect(parseModelSpec('Anthropic:claude-sonnet-4-5')).toEqual({ alias: 'anthropic', name: 'claude-sonnet-4-5' });
  });
});

describe('resolveModelConfig', () => {
  it('defaults openai models from OPENAI_* and REPONAV_LLM_* env', () => {
    const r = resolveModelConfig({}, { REPONAV_LLM_MODEL: 'openai:gpt-4o-mini', OPENAI_API_KEY: 'sk-o' });
    expect(r).toMatchObject({ provider: 'openai-compatible', label: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-o', apiKeySource: 'env:OPENAI_API_KEY' });

    const custom = resolveModelConfig(
      { model: 'my-model' },
      { OPENAI_BASE_URL: 'https://llm.example.com/v1', OPENAI_API_KEY: 'sk-o', REPONAV_LLM_API_KEY: 'sk-r' },
    );
    expect(custom).toMatchObject({ label: 'openai-compatible', baseUrl: 'https://llm.example.com/v1', apiKey: 'sk-r' });

    const overridden = resolveModelConfig(
      { model: 'm', baseUrl: 'https://cfg.example.com/v1', apiKey: 'sk-c' },
      { REPONAV_LLM_BASE_URL: 'https://env.example.com/v1' },
    );
    expect(overridden).toMatchObject({ baseUrl: 'https://cfg.example.com/v1', apiKey: 'sk-c', apiKeySource: 'config' });
  });

  it('gives judges their own base URL and key: REPONAV_LLM_* redirects the answering model only', () => {
    const env = { REPONAV_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', REPONAV_LLM_API_KEY: 'local', OPENAI_API_KEY: 'sk-hosted', REPONAV_LLM_MODEL: 'qwen' };
    expect(resolveModelConfig({}, env)).toMatchObject({ baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'local', model: 'qwen' });
    const judge = resolveModelConfig({ model: 'openai:gpt-4o' }, env, 'judge');
    expect(judge).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-hosted', apiKeySource: 'env:OPENAI_API_KEY' });
    const local = resolveModelConfig({ model: 'openai-compatible:j' }, { ...env, REPONAV_JUDGE_BASE_URL: 'http://127.0.0.1:9000/v1', REPONAV_JUDGE_API_KEY: 'jk' }, 'judge');
    expect(local).toMatchObject({ baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'jk', apiKeySource: 'env:REPONAV_JUDGE_API_KEY' });
    expect(thrown(() => resolveModelConfig({}, env, 'judge')).message).toMatch(/No judge model configured/);
  });

  it('says where each command takes a model when none is configured: ask and localize have no --config-json', () => {
    const message = thrown(() => resolveModelConfig({}, {})).message;
    expect(message).toMatch(/--model for ask, localize and sweqa/);
    expect(message).not.toMatch(/Pass --model \(or "model" in --config-json\)/);
    expect(message).toMatch(/"model" in --config-json for eval/);
    expect(message).toMatch(/REPONAV_LLM_MODEL/);
    expect(thrown(() => resolveModelConfig({}, {}, 'judge')).message).toMatch(/^No judge model configured: name one with --judges/);
  });

  it('maps ollama: to the local OpenAI-compatible endpoint with no key and without the OpenAI key', () => {
    const r = resolveModelConfig({ model: 'ollama:qwen2.5-coder' }, { OPENAI_API_KEY: 'sk-openai' });
    expect(r).toMatchObject({ provider: 'openai-compatible', label: 'ollama', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:11434/v1', apiKeySource: 'none' });
    expect(r.apiKey).not.toBe('sk-openai');
  });

  it('defaults anthropic from ANTHROPIC_* env', () => {
    const r = resolveModelConfig({ model: 'anthropic:claude-sonnet-4-5' }, { ANTHROPIC_API_KEY: 'sk-ant', ANTHROPIC_BASE_URL: 'https://proxy.example.com' });
    expect(r).toMatchObject({ provider: 'anthropic', label: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://proxy.example.com', apiKey: 'sk-ant' });
  });

  it('reads the key from apiKeyEnv and maps maxRetries to attempts', () => {
    const r = resolveModelConfig({ model: 'openrouter:qwen/qwen-2.5-coder-32b-instruct', apiKeyEnv: 'MY_KEY', maxRetries: 1, retryBaseDelayMs: 10 }, { MY_KEY: 'sk-m' });
    expect(r).toMatchObject({ label: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-m', apiKeySource: 'env:MY_KEY' });
    expect(r.retry).toMatchObject({ maxAttempts: 2, baseDelayMs: 10 });
  });

  it('fails clearly on a missing key for a remote provider', () => {
    const e1 = thrown(() => resolveModelConfig({ model: 'openai:gpt-4o' }, {}));
    expect(e1.code).toBe('LLM_ERROR');
    expect(e1.message).toMatch(/No API key for openai:gpt-4o at https:\/\/api\.openai\.com\/v1\. Set REPONAV_LLM_API_KEY or OPENAI_API_KEY/);
    const e2 = thrown(() => resolveModelConfig({ model: 'anthropic:claude-sonnet-4-5' }, {}));
    expect(e2.message).toContain('ANTHROPIC_API_KEY');
    const e3 = thrown(() => resolveModelConfig({ model: 'm', apiKeyEnv: 'UNSET_VAR' }, {}));
    expect(e3.message).toContain('UNSET_VAR');
  });

  it('fails clearly on a missing model, bad shape or conflicting provider', () => {
    expect(thrown(() => resolveModelConfig({}, {})).message).toContain('REPONAV_LLM_MODEL');
    const bad = thrown(() => resolveModelConfig({ model: 'm', timeoutMs: -1, extra: 1 } as never, {}));
    expect(bad.code).toBe('BAD_INPUT');
    expect(bad.message).toMatch(/timeoutMs/);
    expect(thrown(() => resolveModelConfig({ provider: 'anthropic', model: 'openai:gpt-4o' }, {})).message).toMatch(/implies provider/);
    expect(thrown(() => resolveModelConfig({ provider: 'replay' }, {})).message).toContain('transcriptPath');
  });
});

describe('createChatModel', () => {
  it('builds a working OpenAI-compatible model from env alone', async () => {
    const model = createChatModel({}, { env: { REPONAV_LLM_MODEL: 'local-coder', REPONAV_LLM_BASE_URL: server.openaiBaseUrl } });
    expect(model.id).toBe('openai-compatible:local-coder');
    server.enqueue({ content: 'from env' });
    expect((await model.complete(ask)).text).toBe('from env');
    expect(server.requests[0]!.body.model).toBe('local-coder');
  });

  it('builds an anthropic model that sends the configured key', async () => {
    const model = createChatModel({ model: 'anthropic:claude-haiku-4-5', baseUrl: server.url }, { env: { ANTHROPIC_API_KEY: 'sk-ant-env' } });
    expect(model.id).toBe('anthropic:claude-haiku-4-5');
    await model.complete(ask);
    expect(server.requests[0]!.headers['x-api-key']).toBe('sk-ant-env');
  });

  it('retries per config and records then replays via transcriptPath', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reponav-config-'));
    try {
      const file = join(dir, 't.jsonl');
      server.enqueue({ status: 503 }, { content: 'recorded answer' });
      const live = createChatModel({ model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseUrl, apiKey: 'k', maxRetries: 1, retryBaseDelayMs: 1, transcriptPath: file }, { env: {} });
      const answer = await live.complete(ask);
      expect(server.requests).toHaveLength(2);
      const replay = createChatModel({ provider: 'replay', transcriptPath: file, model: 'gpt-4o-mini' }, { env: {} });
      expect(replay.id).toBe('replay:gpt-4o-mini');
      expect(await replay.complete(ask)).toEqual(answer);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('surfaces a 404 with the model and base URL', async () => {
    server.enqueue({ status: 404, body: { error: { message: 'model "nope" not found' } } });
    const model = createChatModel({ model: 'nope', baseUrl: server.openaiBaseUrl }, { env: {} });
    const error = await model.complete(ask).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/openai-compatible:nope at http:\/\/127\.0\.0\.1:\d+\/v1 failed \(HTTP 404/);
    expect((error as Error).message).toContain('model "nope" not found');
  });
});
