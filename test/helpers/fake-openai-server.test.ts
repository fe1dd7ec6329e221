import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbedding, start, startFakeOpenAIServer, type FakeServer } from './fake-openai-server.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer({ embeddingDimension: 8 });
});
afterEach(async () => {
  await server.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('fake server embeddings', () => {
  it('returns deterministic unit vectors (float JSON) of the configured dimension', async () => {
    const res = await post('/v1/embeddings', { model: 'e', input: ['alpha', 'beta', 'alpha'], encoding_format: 'float' });
    const json = (await res.json()) as { data: Array<{ index: number; embedding: number[] }>; usage: { prompt_tokens: number } };
    expect(json.data.map((d) => d.index)).toEqual([0, 1, 2]);
    const [a, b, a2] = json.data.map((d) => d.embedding);
    expect(a).toHaveLength(8);
    expect(a).toEqual(a2);
    expect(a).not.toEqual(b);
    expect(a).toEqual(fakeEmbedding('alpha', 8));
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(json.usage.prompt_tokens).toBeGreaterThan(0);

    const again = await startFakeOpenAIServer({ embeddingDimension: 8 });
    const res2 = await fetch(`${again.url}/v1/embeddings`, { method: 'POST', body: JSON.stringify({ input: 'alpha' }) });
    expect(((await res2.json()) as { data: Array<{ embedding: number[] }> }).data[0]!.embedding).toEqual(a);
    await again.close();
  });

  it('works through the openai client (base64 encoding) and honours `dimensions`', async () => {
    const client = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: 'k', maxRetries: 0 });
    const res = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['find the parser', 'x'], dimensions: 12 });
    expect(server.requests[0]!.body.encoding_format).toBe('base64');
    expect(res.data[0]!.embedding).toHaveLength(12);
    expect(res.data[0]!.embedding).toEqual(fakeEmbedding('find the parser', 12));
  });

  it('offers a bag-of-words mode where shared words mean similar vectors', async () => {
    const bow = (t: string) => fakeEmbedding(t, 64, 'bag-of-words');
    expect(cosine(bow('parse config file'), bow('parseConfig loader'))).toBeGreaterThan(cosine(bow('parse config file'), bow('render button color')));
    expect(bow('Parse CONFIG')).toEqual(bow('parse config'));
  });
});

describe('fake server scripting', () => {
  it('serves route-reserved replies in order and records requests', async () => {
    server.enqueue({ route: 'messages', content: 'for anthropic' }, { content: 'for anyone' });
    const chat = (await (await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'q' }] })).json()) as {
      choices: Array<{ message: { content: string } }>;
      usage: { total_tokens: number };
    };
    expect(chat.choices[0]!.message.content).toBe('for anyone');
    expect(chat.usage.total_tokens).toBeGreaterThan(0);
    const msg = (await (await post('/v1/messages', { model: 'c', messages: [{ role: 'user', content: 'q' }] })).json()) as {
      content: Array<{ text: string }>;
      usage: { input_tokens: number };
    };
    expect(msg.content[0]!.text).toBe('for anthropic');
    expect(server.requests.map((r) => r.route)).toEqual(['chat', 'messages']);
    expect(server.requests[0]!.body.model).toBe('m');
  });

  it('uses the handler after the queue and defaults to an echo', async () => {
    const fresh = await start();
    const echo = (await (await fetch(`${fresh.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'ping' }] }) })).json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    expect(echo.choices[0]!.message.content).toBe('fake reply to: ping');
    await fresh.close();

    server.setHandler((body) => ({ content: `model was ${body.model}` }));
    const res = (await (await post('/v1/chat/completions', { model: 'zz', messages: [] })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(res.choices[0]!.message.content).toBe('model was zz');
  });

  it('returns error statuses with headers, delays, and 404 for unknown paths', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3' } }, { status: 500, delayMs: 100 });
    const limited = await post('/v1/chat/completions', {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toContain('429');
    const t0 = Date.now();
    expect((await post('/v1/chat/completions', {})).status).toBe(500);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
    expect((await post('/v1/nope', {})).status).toBe(404);
  });

  it('drops the connection on request', async () => {
    server.enqueue({ drop: true });
    await expect(post('/v1/chat/completions', {})).rejects.toThrow();
  });
});
