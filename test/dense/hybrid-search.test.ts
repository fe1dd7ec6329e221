import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEmbeddings } from '../../src/retrieve/dense/embed-index.js';
import { OpenAIEmbedder } from '../../src/retrieve/dense/openai-embedder.js';
import { VectorStore } from '../../src/index/store/vector-store.js';
import { createDenseFusion } from '../../src/retrieve/fusion.js';
import { searchRepository } from '../../src/retrieve/search-repository.js';
import { startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { DENSE_FIXTURE, openDenseFixture, type DenseFixture } from './dense-fixture.js';

let server: FakeServer;
let fixture: DenseFixture;
let embedder: OpenAIEmbedder;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ embeddingMode: 'bag-of-words', embeddingDimension: 256 });
  fixture = await openDenseFixture();
  embedder = new OpenAIEmbedder({ baseUrl: server.openaiBaseUrl, model: 'fake-embed', env: {} });
  await ensureEmbeddings(fixture.repository.store, embedder);
});
afterAll(async () => {
  fixture.close();
  await server.close();
});

describe('searchRepository with dense fusion (end to end)', () => {
  it('returns fused hits, files and functions for an indexed, embedded repository', async () => {
    const store = fixture.repository.store;
    const query = 'hash the password with a salt using sha256';
    const lexicalOnly = await searchRepository(store, query);
    const hybrid = await searchRepository(store, query, { fuse: createDenseFusion(store, embedder) });
    expect(hybrid.hits.length).toBeGreaterThan(0);
    expect(hybrid.hits[0]).toMatchObject({ path: 'auth/login.py', symbol: 'hash_password' });
    expect(hybrid.files.slice(0, 2).map((f) => f.path)).toContain('auth/login.py');
    expect(hybrid.functions.map((f) => f.qualifiedName)).toContain('hash_password');
    // Fused scores are RRF scores (≤ 1/(k+1)), no longer BM25 magnitudes.
    expect(hybrid.hits.every((h) => h.score > 0 && h.score <= 1 / 61 + 1e-12)).toBe(true);
    // Dense retrieval adds chunks BM25 did not find (the fake vectors relate every text a little).
    const lexicalIds = new Set(lexicalOnly.hits.map((h) => h.chunkId));
    expect(hybrid.hits.some((h) => !lexicalIds.has(h.chunkId))).toBe(true);
    // The query embedding request carried the query text.
    expect(server.requests.at(-1)!.body.input).toEqual([query]);
  });

  it('supports normalized fusion and strips issue-template boilerplate from the dense query', async () => {
    const store = fixture.repository.store;
    const query = '<!-- please fill the template -->\nAdd an item to the cart';
    const result = await searchRepository(store, query, { fuse: createDenseFusion(store, embedder, { method: 'normalized', denseWeight: 0.7 }) });
    expect(result.files[0]!.path).toBe('shop/cart.py');
    expect(result.hits[0]!.score).toBeLessThanOrEqual(1 + 1e-12);
    expect(server.requests.at(-1)!.body.input).toEqual(['Add an item to the cart']);
  });

  it('keeps dense hits inside the search path filter', async () => {
    const store = fixture.repository.store;
    const pathFilter = (p: string) => p.startsWith('shop/');
    const result = await searchRepository(store, 'password salt item', { pathFilter, fuse: createDenseFusion(store, embedder, { pathFilter }) });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((h) => h.path.startsWith('shop/'))).toBe(true);
  });

  it('with embedMissing, embeds chunks added by a refresh before searching', async () => {
    const store = fixture.repository.store;
    await fixture.edit('shop/cart.py', DENSE_FIXTURE['shop/cart.py']! + '\ndef empty_basket(cart):\n    cart.clear()\n');
    expect(VectorStore.open(store).coverage().missing).toBe(1);
    const fuse = createDenseFusion(store, embedder, { embedMissing: true });
    const result = await searchRepository(store, 'empty basket clear', { fuse });
    expect(VectorStore.open(store).coverage().missing).toBe(0);
    expect(result.hits[0]).toMatchObject({ path: 'shop/cart.py', symbol: 'empty_basket' });
  });
});
