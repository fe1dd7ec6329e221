/**
 * The client against the reply shapes of real endpoints, both providers,
 * through the real client code (the `openai` SDK, the Anthropic fetch
 * client) and the scripted endpoint of test/helpers/scripted-llm-server.ts.
 */
import { REASONING_AS_ANSWER_NOTE } from './provider-reply.js';
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { replies, startScriptedLlmServer, styles, type ScriptedLlmServer, type WireProvider } from '../../test/helpers/scripted-llm-server.js';
import type { ChatRequest } from './chat-model.js';
import { createChatModel } from './model-config.js';
import { llmFailureCause } from './retry.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  await server.close();
});

const ask: ChatRequest = { messages: [{ role: 'system', content: 'Reply in JSON.' }, { role: 'user', content: 'Where is tax added?' }], maxTokens: 200 };

async function failure(promise: Promise<unknown>): Promise<{ cause: string | null; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    return { cause: llmFailureCause(error), message: (error as Error).message };
  }
  throw new Error('expected the call to fail');
}

describe.each<WireProvider>(['openai', 'anthropic'])('%s client: reply styles', (provider) => {
  it('reads an OpenAI-compatible reasoning field as the answer only for a complete reply with empty content, and says so; an Anthropic thinking block never', async () => {
    server.push(replies.reasoningOnly('{"score": 70}'), replies.reasoningOnly('{"score": 70}'));
    if (provider === 'openai') {
      const r = await server.model(provider).complete(ask);
      expect(r.text).toBe('{"score": 70}');
      expect(r.reasoning).toBe('{"score": 70}');
      expect(r.outcome).toBe('complete');
      expect(r.notes).toContain(REASONING_AS_ANSWER_NOTE);
    } else {
      // Only a thinking block, twice: an empty reply asked once more, then a failed call; the draft is never the answer.
      await expect(server.model(provider).complete(ask)).rejects.toMatchObject({ details: { cause: 'empty-reply' } });
    }
  });

  it('never reads the reasoning field of a reply that did not finish normally', async () => {
    server.push({ text: '', reasoning: '{"score": 70}', finishReason: 'content_filter' });
    await expect(server.model(provider).complete(ask)).rejects.toMatchObject({ details: { cause: 'incomplete-reply', outcome: 'filtered' } });
  });

  it('keeps a separate reasoning field beside a non-empty content out of the text', async () => {
    server.push({ text: '{"score": 70}', reasoning: 'The function adds tax, so 70.' });
    const r = await server.model(provider).complete(ask);
    expect(r.text).toBe('{"score": 70}');
    expect(r.reasoning).toBe('The function adds tax, so 70.');
  });

  it.each([
    ['think', styles.think('{"score": 10}', '{"score": 70}')],
    ['thinking', styles.think('{"actions": []}', '{"score": 70}', 'thinking')],
    ['reasoning', styles.think('draft', '{"score": 70}', 'reasoning')],
    ['opened by the template', styles.openedByTemplate('{"score": 10}', '{"score": 70}')],
  ])('strips an inline reasoning block (%s) from the text every parser sees', async (_, text) => {
    server.push(replies.text(text));
    const r = await server.model(provider).complete(ask);
    expect(r.text).toBe('{"score": 70}');
    expect(r.reasoning).toMatch(/score|actions|draft/);
  });

  it('marks a reply cut at the length limit as cut, whatever the provider calls it', async () => {
    server.push(replies.cut('{"score": 7'), replies.text('{"score": 70}'));
    const model = server.model(provider);
    const cut = await model.complete(ask);
    expect(cut).toMatchObject({ cut: true, finishReason: provider === 'openai' ? 'length' : 'max_tokens', text: '{"score": 7' });
    expect(await model.complete(ask)).toMatchObject({ cut: false, finishReason: provider === 'openai' ? 'stop' : 'end_turn' });
  });

  it('an unclosed leading reasoning block cut at the limit is an empty cut reply, not an answer', async () => {
    server.push({ text: '<think>\nThe answer is probably {"score": 10}', cut: true });
    const r = await server.model(provider).complete(ask);
    expect(r).toMatchObject({ text: '', cut: true });
    expect(r.reasoning).toContain('{"score": 10}');
  });

  it('renders a native tool call as a name/arguments JSON line', async () => {
    server.push(replies.toolCall('search', { query: 'tax' }));
    const r = await server.model(provider).complete(ask);
    expect(JSON.parse(r.text)).toEqual({ name: 'search', arguments: { query: 'tax' } });
    expect(r.cut).toBe(false);
  });

  it('never sends an empty turn', async () => {
    server.push(replies.text('ok'));
    const r = await server.model(provider).complete({
      messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '' }, { role: 'user', content: 'Your reply was empty.' }],
    });
    expect(r.text).toBe('ok');
    expect(server.refused).toHaveLength(0);
    const sent = server.requests[0]!.body.messages as Array<{ content: string }>;
    expect(sent.every((m) => m.content.trim() !== '')).toBe(true);
  });

  it('asks again after one empty reply; only empty replies are a failed call with cause empty-reply', async () => {
    server.push(replies.empty(), replies.text('ok'));
    expect((await server.model(provider).complete(ask)).text).toBe('ok');
    server.setDefault(replies.empty());
    const f = await failure(server.model(provider).complete(ask));
    expect(f.cause).toBe('empty-reply');
    expect(f.message).toMatch(/2 empty replies in a row/);
  });

  it('a 429 with Retry-After then 500s is a failed call naming the cause', async () => {
    server.push(...replies.outage(3));
    const started = Date.now();
    const f = await failure(server.model(provider, { maxRetries: 3, retryBaseDelayMs: 1 }).complete(ask));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // Retry-After: 1 was honoured
    expect(f.cause).toBe('server-error');
    expect(f.message).toMatch(/HTTP 500; gave up after 4 attempts/);
    expect(server.requests).toHaveLength(4);
  });

  it('a hang past the timeout is a failed call with cause timeout', async () => {
    server.push(replies.hang(3_000));
    const f = await failure(server.model(provider, { timeoutMs: 150 }).complete(ask));
    expect(f.cause).toBe('timeout');
  });

  it('counts tokens locally (o200k_base) when the reply has no usage, and says so', async () => {
    server.push(replies.noUsage('The tax is added in with_tax.'));
    const r = await server.model(provider).complete(ask);
    expect(r.usage.counted).toBe('local');
    expect(r.usage.outputTokens).toBe(8);
    expect(r.usage.inputTokens).toBeGreaterThan(8);
    expect(r.notes?.join(' ')).toMatch(/counted locally \(o200k_base\)/);
  });

  it('leaves no abort listener behind on the caller signal', async () => {
    const controller = new AbortController();
    const model = server.model(provider);
    for (let i = 0; i < 12; i++) await model.complete({ ...ask, signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('request profile', () => {
  it('learns from an o-series 400 once: max_completion_tokens, no temperature; notes it; remembers it', async () => {
    await server.close();
    server = await startScriptedLlmServer({ rejects: ['max_tokens', 'temperature'] });
    const model = server.model('openai');
    const first = await model.complete({ ...ask, temperature: 0 });
    expect(first.text).toBe('ok');
    expect(first.notes).toEqual([
      'the endpoint refused the request (HTTP 400); sending max_completion_tokens instead of max_tokens from now on',
      'the endpoint refused the request (HTTP 400); omitting temperature from now on',
    ]);
    expect(server.requests).toHaveLength(3);
    const second = await model.complete({ ...ask, temperature: 0 });
    expect(second.notes).toBeUndefined();
    expect(server.requests).toHaveLength(4);
    const body = server.requests[3]!.body;
    expect(body.max_completion_tokens).toBe(200);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('starts OpenAI reasoning families (o3, gpt-5) with that profile, and follows the configuration', async () => {
    await server.model('openai', { model: 'o3-mini' }).complete(ask);
    expect(server.requests[0]!.body).toMatchObject({ max_completion_tokens: 200 });
    expect(server.requests[0]!.body).not.toHaveProperty('temperature');
    const configured = createChatModel(
      { model: 'openai-compatible:local', baseUrl: server.openaiBaseUrl, apiKey: 'k', maxTokensField: 'max_completion_tokens' },
      { env: { REPONAV_LLM_SEND_TEMPERATURE: 'false' } },
    );
    await configured.complete(ask);
    expect(server.requests[1]!.body).toMatchObject({ max_completion_tokens: 200 });
    expect(server.requests[1]!.body).not.toHaveProperty('temperature');
  });

  it('learns that an Anthropic endpoint refuses temperature', async () => {
    await server.close();
    server = await startScriptedLlmServer({ rejects: ['temperature'] });
    const r = await server.model('anthropic').complete(ask);
    expect(r.notes).toEqual(['the endpoint refused the request (HTTP 400); omitting temperature from now on']);
    expect(server.requests[1]!.body).not.toHaveProperty('temperature');
  });

  it('a 400 it cannot learn from is a failed call with cause rejected', async () => {
    server.push({ status: 400 });
    const f = await failure(server.model('openai').complete(ask));
    expect(f.cause).toBe('rejected');
    expect(server.requests).toHaveLength(1);
  });
});
