import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReponavError } from '../../src/errors.js';
import { ChunkTextBuilder } from '../../src/retrieve/dense/chunk-text.js';
import { denseSearch } from '../../src/retrieve/dense/dense-retriever.js';
import { ensureEmbeddings } from '../../src/retrieve/dense/embed-index.js';
import { OpenAIEmbedder } from '../../src/retrieve/dense/openai-embedder.js';
import { VectorStore } from '../../src/index/store/vector-store.js';
import { fakeEmbedding, startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { openDenseFixture, type DenseFixture } from './dense-fixture.js';

let server: FakeServer;
let fixture: DenseFixture;
let embedder: OpenAIEmbedder;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ embeddingMode: 'bag-of-words', embeddingDimension: 256 });
  fixture = await openDenseFixture();
  embedder = new OpenAIEmbedder({ baseUrl: server.openaiBaseUrl, model: 'fake-embed', env: {} });
});
afterAll(async () => {
  fixture.close();
  await server.close();
});

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

describe('denseSearch', () => {
  it('explains that the index must be embedded first', async () => {
    const error = await denseSearch(fixture.repository.store, embedder, 'anything', 5).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    expect((error as Error).message).toContain('no embeddings yet');
    expect(server.requests).toHaveLength(0);
  });

  it('ranks the chunk sharing the query words first, with its cosine similarity as score', async () => {
    const store = fixture.repository.store;
    await ensureEmbeddings(store, embedder);
    const query = 'hash the password with a salt using sha256 hexdigest';
    const hits = await denseSearch(store, embedder, query, 5);
    expect(hits).toHaveLength(5);
    expect(hits[0]).toMatchObject({ path: 'auth/login.py', symbol: 'hash_password', kind: 'function' });
    const chunk = VectorStore.open(store).currentChunks().find((c) => c.symbol === 'hash_password')!;
    const expected = cosine(fakeEmbedding(query, 256, 'bag-of-words'), fakeEmbedding(new ChunkTextBuilder(store).text(chunk), 256, 'bag-of-words'));
    expect(hits[0]!.score).toBeCloseTo(expected, 5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(hits.every((h) => h.score >= -1 && h.score <= 1)).toBe(true);
  });

  it('gives the same ranking through the JavaScript fallback as through sqlite-vec', async () => {
    const store = fixture.repository.store;
    expect(VectorStore.open(store).usesSqliteVec).toBe(true);
    const query = 'add an item to the cart and compute the price';
    const viaSql = await denseSearch(store, embedder, query, 20);
    const viaJs = await denseSearch(store, embedder, query, 20, { vectorStore: { useSqliteVec: false } });
    expect(viaJs.map((h) => h.chunkId)).toEqual(viaSql.map((h) => h.chunkId));
    viaJs.forEach((h, i) => expect(h.score).toBeCloseTo(viaSql[i]!.score, 5));
  });

  it('applies the path filter inside the search and never returns unsearchable files', async () => {
    const store = fixture.repository.store;
    const hits = await denseSearch(store, embedder, 'password', 50, { pathFilter: (p) => p.startsWith('shop/') });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.path.startsWith('shop/'))).toBe(true);
    const all = await denseSearch(store, embedder, 'password hashing demo shop', 50);
    expect(all.some((h) => h.path === 'README.md')).toBe(false);
    expect(await denseSearch(store, embedder, 'x', 5, { pathFilter: () => false })).toEqual([]);
  });

  it('refuses a query embedder of another model before calling it', async () => {
    const other = new OpenAIEmbedder({ baseUrl: server.openaiBaseUrl, model: 'other-model', env: {} });
    const before = server.requests.length;
    await expect(denseSearch(fixture.repository.store, other, 'q', 5)).rejects.toThrow(/--reembed/);
    expect(server.requests.length).toBe(before);
  });
});
