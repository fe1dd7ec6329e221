/**
 * Dense retrieval: embed the query with the same embedder that embedded the
 * chunks, rank current chunks by cosine similarity.
 */
import { ReponavError } from '../../errors.js';
import type { IndexStore } from '../../index/index.js';
import type { ChunkHit } from '../retrieval-types.js';
import { checkVectors, type Embedder } from './embedder.js';
import { VectorStore, type VectorStoreOptions } from '../../index/index.js';

/** Options of {@link denseSearch}. */
export interface DenseSearchOptions {
  /** Keep only chunks of files whose path passes (applied inside the SQL, so `limit` hits still come back). */
  pathFilter?: (path: string) => boolean;
  signal?: AbortSignal;
  vectorStore?: VectorStoreOptions;
}

/**
 * The `limit` searchable chunks whose stored vectors are most similar to the
 * embedding of `queryText`, best first; `score` is the cosine similarity in
 * [-1, 1] (ties broken by chunk id, so results are deterministic).
 *
 * Chunks without a vector yet (indexed after the last `ensureEmbeddings`) are
 * simply absent. Throws `ReponavError('EMBEDDER_ERROR')` when the index was
 * never embedded, when it was embedded by another model or dimension (the
 * message says to re-run with `--reembed`), or when the embedder fails.
 * An empty query returns no hits without calling the embedder.
 */
export async function denseSearch(
  store: IndexStore,
  embedder: Embedder,
  queryText: string,
  limit: number,
  options: DenseSearchOptions = {},
): Promise<ChunkHit[]> {
  const vectors = VectorStore.open(store, options.vectorStore);
  if (vectors.embedderId() === null) {
    throw new ReponavError(
      'EMBEDDER_ERROR',
      `This index has no embeddings yet; index with --embedder (which embeds the chunks with ${embedder.id}) before searching with it.`,
      { reason: 'no-embeddings' },
    );
  }
  // Checked before the request: a mismatch must not cost an API call.
  vectors.assertCompatible(embedder.id);
  if (!queryText.trim() || limit < 1) return [];
  const embedded = await embedder.embed([queryText], options.signal);
  const dimension = checkVectors(embedded, 1, `Embedder ${embedder.id}`);
  vectors.assertDimension(embedder.id, dimension);
  const fileIds = options.pathFilter ? store.files().filter((f) => options.pathFilter!(f.path)).map((f) => f.id) : undefined;
  return vectors.search(embedded[0]!, limit, fileIds).map((m) => ({
    chunkId: m.chunkId,
    path: m.path,
    kind: m.kind,
    symbol: m.symbol,
    startLine: m.startLine,
    endLine: m.endLine,
    score: m.similarity,
  }));
}
