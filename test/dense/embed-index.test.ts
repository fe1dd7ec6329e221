import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReponavError } from '../../src/errors.js';
import { ChunkTextBuilder } from '../../src/retrieve/dense/chunk-text.js';
import { ensureEmbeddings, type EmbeddingCounts } from '../../src/retrieve/dense/embed-index.js';
import { OpenAIEmbedder } from '../../src/retrieve/dense/openai-embedder.js';
import { VectorStore } from '../../src/index/store/vector-store.js';
import { fakeEmbedding, startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { DENSE_FIXTURE, openDenseFixture, type DenseFixture } from './dense-fixture.js';

let server: FakeServer;
let fixture: DenseFixture;

beforeEach(async () => {
  server = await startFakeOpenAIServer({ embeddingMode: 'bag-of-words' });
  fixture = await openDenseFixture();
});
afterEach(async () => {
  fixture.close();
  await server.close();
});

const embedderFor = (model = 'fake-embed', extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ baseUrl: server.openaiBaseUrl, model, env: {}, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...extra });

const inputsSent = () => server.requests.filter((r) => r.route === 'embeddings').flatMap((r) => r.body.input as string[]);

describe('ensureEmbeddings', () => {
  it('embeds every searchable chunk once, then nothing; editing one function re-embeds exactly that chunk', async () => {
    const store = fixture.repository.store;
    const expectedTotal = VectorStore.open(store).coverage().total;
    expect(expectedTotal).toBeGreaterThan(5);

    const progress: EmbeddingCounts[] = [];
    const first = await ensureEmbeddings(store, embedderFor(), { onProgress: (p) => progress.push(p) });
    expect(first).toEqual({ embedded: expectedTotal, cached: 0, total: expectedTotal });
    expect(progress[0]).toEqual({ embedded: 0, cached: 0, total: expectedTotal });
    expect(progress.at(-1)).toEqual(first);
    expect(inputsSent()).toHaveLength(expectedTotal);
    // README.md has no parsed language: BM25 does not search it, so it is never paid for.
    expect(inputsSent().some((t) => t.startsWith('README.md'))).toBe(false);

    const second = await ensureEmbeddings(store, embedderFor());
    expect(second).toEqual({ embedded: 0, cached: expectedTotal, total: expectedTotal });
    expect(inputsSent()).toHaveLength(expectedTotal);

    await fixture.edit('shop/cart.py', DENSE_FIXTURE['shop/cart.py']!.replace('cart.remove(item)', 'cart.discard(item)'));
    const third = await ensureEmbeddings(store, embedderFor());
    expect(third).toEqual({ embedded: 1, cached: expectedTotal - 1, total: expectedTotal });
    const last = inputsSent().at(-1)!;
    expect(last).toContain('shop/cart.py\nfunction remove_item');
    expect(last).toContain('cart.discard(item)');
  });

  it('sends batches of batchSize and commits each one', async () => {
    const store = fixture.repository.store;
    const total = VectorStore.open(store).coverage().total;
    const seen: number[] = [];
    await ensureEmbeddings(store, embedderFor(), { batchSize: 3, onProgress: (p) => seen.push(p.embedded) });
    const sizes = server.requests.map((r) => r.body.input.length);
    expect(sizes.every((n) => n <= 3)).toBe(true);
    expect(sizes).toHaveLength(Math.ceil(total / 3));
    expect(seen).toEqual([0, ...sizes.map((_, i) => Math.min(total, (i + 1) * 3))]);
  });

  it('survives a 429 mid-run and stores the vectors the server returned', async () => {
    const store = fixture.repository.store;
    server.enqueue({ status: 429, headers: { 'retry-after-ms': '1' } });
    const counts = await ensureEmbeddings(store, embedderFor());
    expect(counts.embedded).toBe(counts.total);
    expect(server.requests[0]!.body.input).toEqual(server.requests[1]!.body.input);
    const text = new ChunkTextBuilder(store).text(VectorStore.open(store).currentChunks().find((c) => c.symbol === 'hash_password')!);
    const reader = new Database(store.path, { readonly: true });
    const row = reader
      .prepare("SELECT e.vector FROM embeddings e JOIN chunks c ON c.content_hash = e.content_hash WHERE c.symbol = 'hash_password'")
      .get() as { vector: Buffer };
    reader.close();
    expect([...new Float32Array(new Uint8Array(row.vector).buffer)]).toEqual(fakeEmbedding(text, 16, 'bag-of-words'));
  });

  it('refuses vectors of another model, naming both and --reembed; reembed rebuilds', async () => {
    const store = fixture.repository.store;
    await ensureEmbeddings(store, embedderFor('model-a'));
    const before = server.requests.length;
    const error = await ensureEmbeddings(store, embedderFor('model-b')).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    expect((error as Error).message).toContain('openai-compatible:model-a (16-dimensional)');
    expect((error as Error).message).toContain('openai-compatible:model-b');
    expect((error as Error).message).toContain('--reembed');
    expect(server.requests.length).toBe(before); // refused before any request

    const rebuilt = await ensureEmbeddings(store, embedderFor('model-b'), { reembed: true });
    expect(rebuilt).toMatchObject({ cached: 0, embedded: rebuilt.total });
    expect(VectorStore.open(store).embedderId()).toBe('openai-compatible:model-b');
  });

  it('detects a dimension change under the same model id', async () => {
    const store = fixture.repository.store;
    await ensureEmbeddings(store, embedderFor('same'));
    await fixture.edit('shop/cart.py', DENSE_FIXTURE['shop/cart.py']! + '\ndef clear(cart):\n    cart.clear()\n');
    const error = await ensureEmbeddings(store, embedderFor('same', { dimensions: 8 })).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/returns 8-dimensional vectors, but this index holds 16-dimensional/);
    expect((error as Error).message).toContain('--reembed');
    // A server that silently switches models is caught on the first answer, before storing.
    const other = await startFakeOpenAIServer({ embeddingDimension: 12 });
    try {
      const embedder = new OpenAIEmbedder({ baseUrl: other.openaiBaseUrl, model: 'same', env: {} });
      await expect(ensureEmbeddings(store, embedder)).rejects.toThrow(/returns 12-dimensional vectors/);
      expect(other.requests).toHaveLength(1);
      expect(VectorStore.open(store).coverage().missing).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('stops on abort between batches, keeping what was stored', async () => {
    const store = fixture.repository.store;
    const controller = new AbortController();
    const error = await ensureEmbeddings(store, embedderFor(), {
      batchSize: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.embedded === 2) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(isReponavError(error, 'EMBEDDER_ERROR')).toBe(true);
    expect((error as { details: { aborted: boolean } }).details.aborted).toBe(true);
    const resumed = await ensureEmbeddings(store, embedderFor());
    expect(resumed.cached).toBe(2);
  });
});

describe('ChunkTextBuilder', () => {
  it('leads with path, symbol and signature, and gives a file chunk only the lines it owns', () => {
    const store = fixture.repository.store;
    const chunks = VectorStore.open(store).currentChunks();
    const builder = new ChunkTextBuilder(store);
    const method = builder.text(chunks.find((c) => c.symbol === 'PriceCalculator.apply_tax')!);
    expect(method.split('\n').slice(0, 2)).toEqual(['shop/pricing.py', 'function PriceCalculator.apply_tax']);
    expect(method).toContain('    def apply_tax(self, total, rate):\n        return total * (1 + rate)');
    const remainder = builder.text(chunks.find((c) => c.path === 'auth/login.py' && c.kind === 'file')!);
    expect(remainder).toBe('auth/login.py\n\nimport hashlib');
    expect(new ChunkTextBuilder(store, 20).text(chunks.find((c) => c.symbol === 'PriceCalculator.compute')!)).toHaveLength(20);
  });
});
