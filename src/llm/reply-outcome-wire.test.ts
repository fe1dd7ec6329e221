/**
 * Reply outcomes through the real clients (the `openai` SDK, the Anthropic
 * fetch client) against the scripted endpoint on 127.0.0.1: only a reply the
 * provider says finished normally is a response; every other outcome is an
 * `LLM_ERROR` naming it; nothing waits past the timeout.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedLlmServer, type ScriptedLlmServer, type StyledReply, type WireProvider } from '../../test/helpers/scripted-llm-server.js';
import type { ChatRequest } from './chat-model.js';
import { IMPLAUSIBLE_USAGE_NOTE } from './provider-reply.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  await server.close();
});

const ask: ChatRequest = { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Why?' }] };

describe.each<WireProvider>(['openai', 'anthropic'])('%s client: reply outcomes', (provider) => {
  it.each<[string, StyledReply, string]>([
    ['a missing finish reason', { text: 'The answer ends because each step', noFinishReason: true }, 'unknown'],
    ['an unknown finish reason', { text: 'The answer.', finishReason: 'eos_token' }, 'unknown'],
    ['content_filter', { text: 'The answer.', finishReason: 'content_filter' }, 'filtered'],
    ['a refusal stop', { text: "I'm sorry, but I can't help with that request.", finishReason: 'refusal' }, 'refused'],
  ])('%s is an error naming the outcome and the raw value, never a response', async (_, reply, outcome) => {
    server.push(reply);
    const error = await server.model(provider).complete(ask).then(() => null, (e: unknown) => e as { message: string; details: Record<string, unknown> });
    expect(error?.details).toMatchObject({ cause: 'incomplete-reply', outcome });
    expect(error?.message).toContain(reply.noFinishReason ? 'no finish reason' : reply.finishReason!);
  });

  it('reads stop reasons case-insensitively', async () => {
    server.push({ text: 'cut here', finishReason: provider === 'openai' ? 'LENGTH' : 'MAX_TOKENS' }, { text: 'whole.', finishReason: provider === 'openai' ? 'Stop' : 'END_TURN' });
    const model = server.model(provider);
    expect((await model.complete(ask)).outcome).toBe('cut');
    expect((await model.complete(ask)).outcome).toBe('complete');
  });

  it('counts usage locally when the endpoint reports 0 output tokens for a non-empty reply, and says so', async () => {
    server.push({ text: 'A real answer with words in it.', usage: { inputTokens: 0, outputTokens: 0 } });
    const r = await server.model(provider).complete(ask);
    expect(r.usage.counted).toBe('local');
    expect(r.usage.outputTokens).toBeGreaterThan(0);
    expect(r.notes).toContain(IMPLAUSIBLE_USAGE_NOTE);
  });

  it('keeps the text and the native tool calls of a text-plus-tool reply', async () => {
    server.push({ text: 'I will search first.', toolCalls: [{ name: 'search', args: { query: 'tax' } }, { name: 'open', args: { path: 'a.py' } }] });
    const r = await server.model(provider).complete(ask);
    expect(r.text).toBe('I will search first.\n{"name":"search","arguments":{"query":"tax"}}\n{"name":"open","arguments":{"path":"a.py"}}');
  });

  it('a body that stalls after the headers times out instead of waiting forever', async () => {
    server.push({ text: 'never finished', transport: 'stall' });
    const error = await server.model(provider, { timeoutMs: 200 }).complete(ask).then(() => null, (e: unknown) => e as { details: Record<string, unknown> });
    expect(error?.details).toMatchObject({ cause: 'timeout' });
  });

  it('a connection reset mid-body is retried', async () => {
    server.push({ text: 'lost', transport: 'reset' }, { text: 'The answer.' });
    const r = await server.model(provider, { maxRetries: 1, retryBaseDelayMs: 1 }).complete(ask);
    expect(r.text).toBe('The answer.');
  });

  /** The one failure a stream-only endpoint gets: it requires streaming, reponav reads whole replies; no advice about parameters or the base URL. */
  async function expectStreamOnly(): Promise<void> {
    const error = await server.model(provider, { maxRetries: 2, retryBaseDelayMs: 1 }).complete(ask).then(() => null, (e: unknown) => e as { message: string; details: Record<string, unknown> });
    expect(error?.message).toMatch(/the endpoint requires streaming \(stream=true\) and does not serve whole replies.*reponav reads whole replies \(stream=false\); use an endpoint or proxy that serves non-streaming completions\.$/);
    expect(error?.message).not.toMatch(/base URL points|parameters used|answered with an event stream/);
    expect(error?.details).toMatchObject({ kind: 'stream-only', cause: 'rejected' });
    expect(server.fake.requests).toHaveLength(1);
  }

  it('an event stream on a 200 says the endpoint requires streaming', async () => {
    server.push({ text: 'streamed', transport: 'sse' });
    await expectStreamOnly();
  });

  it('an event stream on a 200 under a JSON content type says the endpoint requires streaming', async () => {
    const events = provider === 'openai' ? 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n' : 'event: message_start\ndata: {"type":"message_start"}\n\n';
    server.fake.enqueue({ rawBody: events, headers: { 'content-type': 'application/json' } });
    await expectStreamOnly();
  });

  it('a 400 saying only stream=true is supported says the endpoint requires streaming, and is not retried', async () => {
    const message = 'This model only supports stream=true.';
    server.fake.enqueue({ status: 400, body: provider === 'openai' ? { error: { message, type: 'invalid_request_error' } } : { type: 'error', error: { type: 'invalid_request_error', message } } });
    await expectStreamOnly();
  });

  it('an HTML page on a 200 is a bad response', async () => {
    server.push({ text: 'x', transport: 'html' });
    await expect(server.model(provider).complete(ask)).rejects.toMatchObject({ details: { cause: 'bad-response' } });
  });
});

describe('openai client: reply outcomes', () => {
  it("OpenAI's refusal field is a refused reply", async () => {
    server.push({ refusal: "I'm sorry, but I can't help with that request." });
    await expect(server.model('openai').complete(ask)).rejects.toMatchObject({ details: { cause: 'incomplete-reply', outcome: 'refused' } });
  });


  it("learns once that the endpoint takes system instructions in the 'developer' role", async () => {
    server.setDefault((request) => ({ text: `roles: ${(request.body.messages as Array<{ role: string }>).map((m) => m.role).join(',')}` }));
    server.fake.enqueue({ status: 400, body: { error: { message: "Unsupported value: 'messages[0].role' does not support 'system' with this model. Use 'developer' instead.", type: 'invalid_request_error' } } });
    const model = server.model('openai');
    const first = await model.complete(ask);
    const second = await model.complete(ask);
    expect(first.text).toBe('roles: developer,user');
    expect(first.notes?.join(' ')).toMatch(/developer/);
    expect(second.text).toBe('roles: developer,user');
    expect(server.fake.requests).toHaveLength(3);
  });
});

describe('anthropic client: reply outcomes', () => {
  it('continues a pause_turn reply and joins the parts', async () => {
    server.push({ text: 'The first half,', finishReason: 'pause_turn' }, { text: 'and the second half.' });
    const r = await server.model('anthropic').complete(ask);
    expect(r.text).toBe('The first half,\nand the second half.');
    expect(r.outcome).toBe('complete');
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'The first half,' });
  });

  it('a turn still paused after the continuations is an error', async () => {
    server.setDefault({ text: 'still going', finishReason: 'pause_turn' });
    await expect(server.model('anthropic').complete(ask)).rejects.toMatchObject({ details: { cause: 'incomplete-reply', outcome: 'paused' } });
  });

  it('a thinking block holding a draft is never the reply, and a redacted_thinking block is not text', async () => {
    server.push({ text: '', reasoning: '```answer\n["a.py:f"]\n```' }, { text: 'The answer.', redactedThinking: true });
    const r = await server.model('anthropic', { maxRetries: 0 }).complete(ask);
    expect(r.text).toBe('The answer.');
    expect(server.requests).toHaveLength(2);
  });

  it('parses a tool input sent as a JSON string', async () => {
    server.push({ toolCalls: [{ name: 'search', args: {} }], rawToolArgs: '{"query": "tax"}' });
    const r = await server.model('anthropic').complete(ask);
    expect(r.text).toBe('{"name":"search","arguments":{"query":"tax"}}');
  });
});
