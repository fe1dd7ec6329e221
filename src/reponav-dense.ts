/**
 * `reponav/dense`: opt-in dense retrieval — embedders (an OpenAI-compatible
 * endpoint, or a local model through the optional `@huggingface/transformers`),
 * embedding an index's chunks into sqlite-vec, and nearest-chunk search. The
 * root entry's `createDenseFusion` fuses its hits with BM25.
 */
export { createEmbedder, ensureEmbeddings, denseSearch, type Embedder, type EmbedderSettings } from './retrieve/dense/index.js';
