/**
 * The SQLite store and its schema: opening and checking the database, the
 * writer lock, the rows a file becomes (symbols, chunks and their code tokens),
 * the full-text table they are written to, the index generation, derived caches
 * and the vector table.
 */
export { gitBlobId } from './blob-id.js';
export { buildChunks } from './build-chunks.js';
export { cacheDirectory, defaultIndexPath } from './cache-location.js';
export { unwritableFolder } from './read-only-location.js';
export { codeTokens, splitIdentifier } from './code-tokens.js';
export { removeDerivedCaches } from './derived-cache-files.js';
export { derivedKey, type DerivedKey, IndexSnapshot, snapshotOf } from './derived-values.js';
export { indexFilesFingerprint, readDerivedCache, readStaleDerivedCache, unparsedFilesFingerprint, writeDerivedCache } from './derived-cache.js';
export { describeOpenFailure, isCorruption } from './index-errors.js';
export { indexGeneration } from './index-generation.js';
export { fileRowLogBetween, type FileRowLog, type FileRowReader, startFileRowLog } from './file-row-changes.js';
export { fullTextLog, fullTextLogBetween, type FullTextLog, type FullTextReader, startFullTextLog } from './full-text-changes.js';
export { type RawSymbol, toSymbolRow } from './index-rows.js';
export { CHUNK_KINDS, type ChunkKind, type FieldWeights, FTS_FIELDS, type FtsField, SCHEMA_VERSION } from './index-schema.js';
export { snapshotIndex } from './index-snapshot.js';
export { type ChunkRow, type FileRow, indexConnection, IndexStore, type SkippedFile, type SymbolRow } from './index-store.js';
export { type StoredChunk, type VectorMatch, VectorStore, type VectorStoreOptions } from './vector-store.js';
export { type WriterInfo, type WriterLease, WriterLock } from './writer-lock.js';
