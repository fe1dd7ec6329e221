/**
 * Public surface of opt-in dense retrieval. Nothing here is imported by the
 * default (lexical) pipeline; the hybrid hook lives in ../fusion.ts.
 */
export { checkVectors, truncateForEmbedding, type Embedder } from './embedder.js';
export {
  DEFAULT_EMBED_BATCH_SIZE,
  DEFAULT_EMBED_MAX_CHARS,
  OpenAIEmbedder,
  resolveOpenAIEmbedderConfig,
  type OpenAIEmbedderConfig,
  type ResolvedOpenAIEmbedderConfig,
} from './openai-embedder.js';
export { LocalEmbedder, TRANSFORMERS_PACKAGE, type LocalEmbedderConfig } from './local-embedder.js';
export { createEmbedder, EMBEDDER_KINDS, type EmbedderKind, type EmbedderSettings } from './create-embedder.js';
export { VectorStore, type StoredChunk, type VectorMatch, type VectorStoreOptions } from '../../index/index.js';
export { ChunkTextBuilder, DEFAULT_CHUNK_TEXT_CHARS } from './chunk-text.js';
export { ensureEmbeddings, DEFAULT_ENSURE_BATCH_SIZE, type EmbeddingCounts, type EnsureEmbeddingsOptions } from './embed-index.js';
export { denseSearch, type DenseSearchOptions } from './dense-retriever.js';
