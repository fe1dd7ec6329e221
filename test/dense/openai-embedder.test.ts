import { afterEach, describe, expect, it } from 'vitest';
import { isReponavError, ReponavError } from '../../src/errors.js';
import { OpenAIEmbedder, resolveOpenAIEmbedderConfig } from '../../src/retrieve/dense/openai-embedder.js';
import { fakeEmbedding, startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';

const fastRetry = { baseDelayMs: 1, maxDelayMs: 5, maxTotalWaitMs: 1000 };
let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startFakeOpenAIServer>[0] = {}) {
  server = await startFakeOpenAIServer(options);
  return server;
}

async function rejection(promise: Promise<unknown>): Promise<ReponavError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isReponavError(error)) throw new Error(`expected a ReponavError, got ${String(error)}`);
  return error;
}

describe('OpenAIEmbedder', () => {
  it('returns the server vectors in input order and learns the dimension', async () => {
    const s = await start({ embeddingDimension: 12 });
    const embedder = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'fake-embed', env: {} });
    expect(embedder.id).toBe('openai-compatible:fake-embed');
    expect(embedder.dimension).toBeNull();
    const vectors = await embedder.embed(['alpha', 'beta']);
    expect(vectors.map((v) => [...v])).toEqual([fakeEmbedding('alpha', 12), fakeEmbedding('beta', 12)]);
    expect(embedder.dimension).toBe(12);
    expect(s.requests[0]!.path).toBe('/v1/embeddings');
    expect(s.requests[0]!.body).toMatchObject({ model: 'fake-embed', input: ['alpha', 'beta'], encoding_format: 'float' });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('splits input into batches of batchSize (default 64)', async () => {
    const s = await start();
    const texts = Array.from({ length: 150 }, (_, i) => `text ${i}`);
    const vectors = await new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', env: {} }).embed(texts);
    expect(vectors).toHaveLength(150);
    expect(s.requests.map((r) => r.body.input.length)).toEqual([64, 64, 22]);
    expect([...vectors[149]!]).toEqual(fakeEmbedding('text 149', 16));

    const small = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', batchSize: 4, env: {} });
    s.requests.length = 0;
    await small.embed(texts.slice(0, 10));
    expect(s.requests.map((r) => r.body.input.length)).toEqual([4, 4, 2]);
  });

  it('retries a 429 (honouring retry-after-ms) and then succeeds', async () => {
    const s = await start();
    s.enqueue({ status: 429, headers: { 'retry-after-ms': '20' } });
    const embedder = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', retry: fastRetry, env: {} });
    const vectors = await embedder.embed(['x']);
    expect([...vectors[0]!]).toEqual(fakeEmbedding('x', 16));
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.receivedAt - s.requests[0]!.receivedAt).toBeGreaterThanOrEqual(15);
  });

  it('gives up on persistent 5xx with EMBEDDER_ERROR naming status, model and base URL but never the key', async () => {
    const s = await start({ handler: () => ({ status: 503 }) });
    const key = 'sk-secret-embed-key-123';
    const embedder = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', apiKey: key, retry: { ...fastRetry, maxAttempts: 3 }, env: {} });
    const error = await rejection(embedder.embed(['x']));
    expect(error.code).toBe('EMBEDDER_ERROR');
    expect(error.message).toContain('HTTP 503');
    expect(error.message).toContain(s.openaiBaseUrl);
    expect(error.message).toContain('gave up after 3 attempts');
    expect(error.details).toMatchObject({ status: 503, attempts: 3, model: 'm' });
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(key);
    expect(s.requests).toHaveLength(3);
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
  });

  it('does not retry a 401 and says which key to check; a server echoing the key is redacted', async () => {
    const key = 'sk-echoed-key-456';
    const s = await start({ handler: () => ({ status: 401, body: { error: { message: `bad key ${key}` } } }) });
    const error = await rejection(new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', apiKey: key, retry: fastRetry, env: {} }).embed(['x']));
    expect(s.requests).toHaveLength(1);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('REPONAV_EMBED_API_KEY');
    expect(error.message).not.toContain(key);
  });

  it('reports an unreachable server as a connection error with the base URL', async () => {
    const s = await start();
    const url = s.openaiBaseUrl;
    await s.close();
    server = undefined;
    const error = await rejection(new OpenAIEmbedder({ baseUrl: url, model: 'm', retry: { ...fastRetry, maxAttempts: 2 }, env: {} }).embed(['x']));
    expect(error.code).toBe('EMBEDDER_ERROR');
    expect(error.message).toContain(`at ${url} failed (connection`);
    expect(error.message).toContain('Could not reach');
  });

  it('rejects answers that are not embeddings of the inputs', async () => {
    const s = await start();
    s.enqueue({ body: { data: [{ index: 0, embedding: [1, 2] }] } });
    const short = await rejection(new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', env: {} }).embed(['a', 'b']));
    expect(short.message).toMatch(/1 embedding for 2 inputs/);
    s.enqueue({ rawBody: '<html>proxy</html>' });
    const html = await rejection(new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', env: {} }).embed(['a']));
    expect(html.message).toContain('not an OpenAI-compatible embeddings response');
  });

  it('accepts base64 float32 embeddings and orders by index', async () => {
    const s = await start();
    const b64 = (v: number[]) => Buffer.from(new Float32Array(v).buffer).toString('base64');
    s.enqueue({ body: { data: [{ index: 1, embedding: b64([0, 1]) }, { index: 0, embedding: b64([1, 0]) }] } });
    const vectors = await new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', env: {} }).embed(['a', 'b']);
    expect(vectors.map((v) => [...v])).toEqual([[1, 0], [0, 1]]);
  });

  it('truncates each text to maxInputChars and replaces empty texts', async () => {
    const s = await start();
    await new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', maxInputChars: 5, env: {} }).embed(['abcdefgh', '', 'xy']);
    expect(s.requests[0]!.body.input).toEqual(['abcde', ' ', 'xy']);
  });

  it('sends `dimensions` when configured and knows the dimension up front', async () => {
    const s = await start();
    const embedder = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', dimensions: 8, env: {} });
    expect(embedder.dimension).toBe(8);
    const [v] = await embedder.embed(['a']);
    expect(v!.length).toBe(8);
    expect(s.requests[0]!.body.dimensions).toBe(8);
  });

  it('stops when the caller aborts during backoff', async () => {
    const s = await start({ handler: () => ({ status: 500 }) });
    const controller = new AbortController();
    const embedder = new OpenAIEmbedder({ baseUrl: s.openaiBaseUrl, model: 'm', retry: { baseDelayMs: 5000, maxDelayMs: 5000 }, env: {} });
    const pending = rejection(embedder.embed(['x'], controller.signal));
    // Abort once the request has reached the server: a fixed 50 ms delay aborted before the request
    // was sent on a loaded machine (the client loads lazily), and then nothing was recorded.
    const abortOnRequest = setInterval(() => {
      if (s.requests.length > 0) {
        clearInterval(abortOnRequest);
        controller.abort();
      }
    }, 5);
    const error = await pending;
    expect(error.details).toMatchObject({ aborted: true });
    expect(s.requests).toHaveLength(1);
  });
});

describe('resolveOpenAIEmbedderConfig', () => {
  it('reads REPONAV_EMBED_* and defaults to OpenAI with text-embedding-3-small', () => {
    const fromEnv = resolveOpenAIEmbedderConfig({
      env: { REPONAV_EMBED_BASE_URL: 'http://127.0.0.1:11434/v1/', REPONAV_EMBED_MODEL: 'nomic-embed-text', REPONAV_EMBED_API_KEY: 'k1' },
    });
    expect(fromEnv).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKey: 'k1', batchSize: 64, maxInputChars: 8000 });
    const openai = resolveOpenAIEmbedderConfig({ env: { OPENAI_API_KEY: 'sk-o' } });
    expect(openai).toMatchObject({ baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-small', apiKey: 'sk-o' });
  });

  it('uses OPENAI_API_KEY only for api.openai.com', () => {
    const local = resolveOpenAIEmbedderConfig({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'm', env: { OPENAI_API_KEY: 'sk-o' } });
    expect(local.apiKey).toBeUndefined();
  });

  it('explains missing model, missing key and malformed URLs', () => {
    expect(() => resolveOpenAIEmbedderConfig({ baseUrl: 'http://127.0.0.1:11434/v1', env: {} })).toThrow(/--embed-model or set REPONAV_EMBED_MODEL/);
    expect(() => resolveOpenAIEmbedderConfig({ env: {} })).toThrow(/REPONAV_EMBED_API_KEY or OPENAI_API_KEY/);
    expect(() => resolveOpenAIEmbedderConfig({ baseUrl: 'not a url', model: 'm', env: {} })).toThrow(/is not a URL/);
    expect(() => resolveOpenAIEmbedderConfig({ baseUrl: 'http://h/v1', model: 'm', batchSize: 0, env: {} })).toThrow(/batchSize must be a positive integer/);
  });
});
