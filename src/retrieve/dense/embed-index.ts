/**
 * Brings the embedding cache up to date with the index: embeds every
 * searchable chunk whose content hash has no vector yet, and nothing else.
 * Run it after `RepositoryIndex.refresh()`; it is cheap (one SQL query) when
 * nothing changed.
 */
import { ReponavError } from '../../errors.js';
import type { IndexStore } from '../../index/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import { ChunkTextBuilder, DEFAULT_CHUNK_TEXT_CHARS } from './chunk-text.js';
import { checkVectors, type Embedder } from './embedder.js';
import { VectorStore, type VectorStoreOptions } from '../../index/index.js';
import { countOf } from '../../plural.js';

/** Texts per embedder call and per database transaction unless configured. */
export const DEFAULT_ENSURE_BATCH_SIZE = 64;

/** What {@link ensureEmbeddings} did, counted in distinct chunk contents (identical chunks share one vector). */
export interface EmbeddingCounts {
  /** Newly embedded by this call. */
  embedded: number;
  /** Already in the cache before this call. */
  cached: number;
  /** Distinct contents of all searchable chunks: after a complete run, `embedded + cached`. */
  total: number;
}

/** Options of {@link ensureEmbeddings}. */
export interface EnsureEmbeddingsOptions {
  /** Chunks per embedder call; progress is reported and vectors are committed after each. Default 64. */
  batchSize?: number;
  /** Called once before the first batch and after every batch. */
  onProgress?: (progress: EmbeddingCounts) => void;
  /** Stops between (and, for HTTP embedders, during) batches; batches already done stay stored. */
  signal?: AbortSignal;
  /** Discard all stored vectors first (after a model change). Default false. */
  reembed?: boolean;
  /** Cap on characters per chunk text. Default 8000. */
  maxChars?: number;
  logger?: Logger;
  vectorStore?: VectorStoreOptions;
}

/**
 * Embeds the searchable chunks of `store` that have no cached vector, in
 * batches, committing each batch so an interrupted run resumes where it
 * stopped. Returns the counts (`embedded` is 0 when nothing changed; editing
 * one function re-embeds that one chunk).
 *
 * Throws `ReponavError('EMBEDDER_ERROR')` when the store holds vectors of
 * another embedder or dimension (unless `reembed`), when the embedder fails,
 * or on abort.
 */
export async function ensureEmbeddings(store: IndexStore, embedder: Embedder, options: EnsureEmbeddingsOptions = {}): Promise<EmbeddingCounts> {
  const logger = options.logger ?? silentLogger;
  const batchSize = options.batchSize ?? DEFAULT_ENSURE_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new ReponavError('BAD_INPUT', `Embedding batch size must be a positive integer, got ${batchSize}.`);
  const vectors = VectorStore.open(store, { logger, ...options.vectorStore });
  if (options.reembed) {
    const previous = vectors.embedderId();
    vectors.reset();
    logger.info(`discarded stored embeddings${previous ? ` from ${previous}` : ''}; embedding again with ${embedder.id}`);
  }
  // Fails fast, before any request, when the stored vectors belong to another model.
  vectors.claim(embedder.id, embedder.dimension);

  const pending = vectors.chunksWithoutVectors();
  const { total } = vectors.coverage();
  const counts: EmbeddingCounts = { embedded: 0, cached: total - pending.length, total };
  options.onProgress?.({ ...counts });
  if (pending.length === 0) return counts;

  const texts = new ChunkTextBuilder(store, options.maxChars ?? DEFAULT_CHUNK_TEXT_CHARS);
  for (let start = 0; start < pending.length; start += batchSize) {
    if (options.signal?.aborted) {
      throw new ReponavError('EMBEDDER_ERROR', `Embedding aborted after ${counts.embedded} of ${countOf(pending.length, 'chunk')} (they stay stored).`, {
        aborted: true,
        ...counts,
      });
    }
    const batch = pending.slice(start, start + batchSize);
    const embedded = await embedder.embed(batch.map((chunk) => texts.text(chunk)), options.signal);
    const dimension = checkVectors(embedded, batch.length, `Embedder ${embedder.id}`);
    vectors.claim(embedder.id, dimension);
    vectors.put(batch.map((chunk, i) => ({ contentHash: chunk.contentHash, vector: embedded[i]! })));
    counts.embedded += batch.length;
    options.onProgress?.({ ...counts });
  }
  logger.debug(`embedded ${countOf(counts.embedded, 'chunk')} with ${embedder.id} (${counts.cached} cached, ${counts.total} total)`);
  return counts;
}
