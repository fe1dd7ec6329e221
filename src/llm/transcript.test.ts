import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { startFakeOpenAIServer, type FakeServer } from '../../test/helpers/fake-openai-server.js';
import type { ChatRequest } from './chat-model.js';
import { createAnthropicModel } from './anthropic-model.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import { createReplayModel, readTranscript, requestHash, withRecording } from './transcript.js';

let server: FakeServer;
let dir: string;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  dir = await mkdtemp(join(tmpdir(), 'reponav-transcript-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const ask = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ messages: [{ role: 'user', content }], ...extra });

describe('requestHash', () => {
  it('depends on messages, temperature and format with defaults applied, not on other fields', () => {
    const base = requestHash(ask('hi'));
    expect(requestHash(ask('hi', { temperature: 0, responseFormat: 'text' }))).toBe(base);
    expect(requestHash(ask('hi', { maxTokens: 9, stop: ['x'], signal: new AbortController().signal }))).toBe(base);
    expect(requestHash(ask('hi', { temperature: 0.5 }))).not.toBe(base);
    expect(requestHash(ask('hi', { responseFormat: 'json' }))).not.toBe(base);
    expect(requestHash(ask('hi!'))).not.toBe(base);
    expect(requestHash({ messages: [{ role: 'system', content: 'hi' }] })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('recording and replay', () => {
  it('replays recorded answers identically with the server closed', async () => {
    const file = join(dir, 'nested', 'run.jsonl');
    server.enqueue({ content: 'one', usage: { inputTokens: 100, outputTokens: 10 } }, { content: 'two' }, { content: 'one again' });
    const live = withRecording(
      createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: server.openaiBaseUrl, apiKey: 'k' }),
      file,
    );
    expect(live.id).toBe('openai:gpt-4o-mini');
    const recorded = [
      await live.complete(ask('first')),
      await live.complete(ask('second', { responseFormat: 'json', maxTokens: 5 })),
      await live.complete(ask('first')),
    ];
    await server.close();

    const replay = createReplayModel(file, { model: 'gpt-4o-mini' });
    expect(replay.id).toBe('replay:gpt-4o-mini');
    expect(await replay.complete(ask('first'))).toEqual(recorded[0]);
    expect(await replay.complete(ask('second', { responseFormat: 'json' }))).toEqual(recorded[1]);
    expect(await replay.complete(ask('first'))).toEqual(recorded[2]);
    // Exhausted: keeps answering with the last recording for that request.
    expect((await replay.complete(ask('first'))).text).toBe('one again');

    const entries = await readTranscript(file);
    expect(entries).toHaveLength(3);
    expect(entries[1]!.request).toEqual({ messages: [{ role: 'user', content: 'second' }], temperature: 0, responseFormat: 'json', maxTokens: 5 });
    expect(entries[0]!.modelId).toBe('openai:gpt-4o-mini');
    server = await startFakeOpenAIServer(); // for afterEach
  });

  it('names the request hash on a replay miss', async () => {
    const file = join(dir, 'run.jsonl');
    const live = withRecording(createAnthropicModel({ model: 'claude-haiku-4-5', apiKey: 'k', baseUrl: server.url }), file);
    await live.complete(ask('recorded'));
    const replay = createReplayModel(file);
    expect(replay.id).toBe('replay:run');
    const error = await replay.complete(ask('never recorded')).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    const hash = requestHash(ask('never recorded'));
    expect((error as Error).message).toContain(`request ${hash}`);
    expect((error as { details?: unknown }).details).toMatchObject({ hash, file });
    // Same prompt, different temperature: also a miss.
    await expect(replay.complete(ask('recorded', { temperature: 1 }))).rejects.toThrow(/Replay miss/);
  });

  it('records failed calls without replaying them', async () => {
    const file = join(dir, 'run.jsonl');
    server.enqueue({ status: 400 });
    const live = withRecording(
      createOpenAICompatibleModel({ model: 'm', baseUrl: server.openaiBaseUrl, apiKey: 'k' }),
      file,
    );
    await expect(live.complete(ask('bad'))).rejects.toMatchObject({ code: 'LLM_ERROR' });
    const [entry] = await readTranscript(file);
    expect(entry!.error).toMatchObject({ code: 'LLM_ERROR' });
    expect(entry!.response).toBeUndefined();
    await expect(createReplayModel(file).complete(ask('bad'))).rejects.toThrow(/Replay miss/);
  });

  it('keeps lines intact under concurrent calls', async () => {
    const file = join(dir, 'run.jsonl');
    const live = withRecording(createOpenAICompatibleModel({ model: 'm', baseUrl: server.openaiBaseUrl, apiKey: 'k' }), file);
    await Promise.all(Array.from({ length: 20 }, (_, i) => live.complete(ask(`q${i}`))));
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('reports a missing or malformed transcript clearly', async () => {
    await expect(createReplayModel(join(dir, 'none.jsonl')).complete(ask('x'))).rejects.toThrow(/file not found/);
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, '{"v":1,"hash":"a","response":{}}\nnot json\n');
    await expect(createReplayModel(bad).complete(ask('x'))).rejects.toThrow(/line 2 is not valid JSON/);
  });
});
