import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replies, startScriptedLlmServer, styles, type ScriptedLlmServer } from './scripted-llm-server.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer({ rejects: ['max_tokens', 'temperature'] });
});
afterEach(async () => {
  await server.close();
});

const chat = (body: unknown) =>
  fetch(`${server.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const messages = (body: unknown) =>
  fetch(`${server.anthropicBaseUrl}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const user = [{ role: 'user', content: 'hi' }];

describe('scripted LLM server', () => {
  it('refuses max_tokens and temperature like an o-series endpoint, in OpenAI error shape', async () => {
    const a = await chat({ model: 'o3', messages: user, max_tokens: 10 });
    expect(a.status).toBe(400);
    expect(((await a.json()) as any).error).toMatchObject({ param: 'max_tokens', code: 'unsupported_parameter' });
    const b = await chat({ model: 'o3', messages: user, max_completion_tokens: 10, temperature: 0 });
    expect(((await b.json()) as any).error).toMatchObject({ param: 'temperature', code: 'unsupported_value' });
    server.push(replies.reasoningOnly('the answer'));
    const c = await chat({ model: 'o3', messages: user, max_completion_tokens: 10 });
    const json = (await c.json()) as any;
    expect(json.choices[0].message).toMatchObject({ content: '', reasoning_content: 'the answer' });
    expect(server.refused).toHaveLength(2);
  });

  it('shapes tool calls, cut replies and missing usage for both routes', async () => {
    server.push(replies.toolCall('search', { query: 'x' }), { text: 'half', cut: true, noUsage: true });
    const a = (await (await chat({ messages: user })).json()) as any;
    expect(a.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: null, tool_calls: [{ function: { name: 'search', arguments: '{"query":"x"}' } }] } });
    const b = (await (await messages({ messages: user, max_tokens: 5 })).json()) as any;
    expect(b).toMatchObject({ stop_reason: 'max_tokens', content: [{ type: 'text', text: 'half' }] });
    expect(b.usage).toBeUndefined();
  });

  it('refuses an empty Anthropic turn, answers errors with Retry-After', async () => {
    const a = await messages({ max_tokens: 5, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '' }, { role: 'user', content: 'again' }] });
    expect(a.status).toBe(400);
    expect(((await a.json()) as any).error.message).toMatch(/non-empty content/);
    server.push(...replies.outage(1));
    const b = await messages({ max_tokens: 5, messages: user });
    expect(b.status).toBe(429);
    expect(b.headers.get('retry-after')).toBe('1');
    expect((await chat({ messages: user })).status).toBe(500);
  });

  it('writes the texts real models write', () => {
    expect(styles.think('draft', '{"a":1}')).toBe('<think>\ndraft\n</think>\n\n{"a":1}');
    expect(styles.actionLine('search', { q: 1 })).toBe('Thought: I should use search.\nAction: search\nAction Input: {"q":1}');
    expect(styles.fenced({ a: 1 })).toBe('```json\n{\n  "a": 1\n}\n```');
  });
});
