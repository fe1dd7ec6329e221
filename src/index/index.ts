/**
 * Public surface of the index layer: reading a working tree or a commit, the
 * SQLite index and its store, incremental updates, the commit index pool, path
 * safety and code tokens.
 */
export { kthLargest } from './kth-largest.js';
export { bm25Chunks, chunkIdOfSymbol, chunkRangesOfFile, chunksWithBodyPhrase, chunksWithBodyPhraseUpTo, indexGeneration, type ChunkScore, type WeightedToken } from './chunk-queries.js';
export { codeTokens, splitIdentifier } from './code-tokens.js';
export { termStatistics, type TermStatistics } from './term-statistics.js';
export { indexVocabulary } from './index-vocabulary.js';
export { CommitIndexPool } from './commit-index-pool.js';
export { GitCommitSource } from './git-commit-source.js';
export { CHUNK_KINDS, FTS_FIELDS, type ChunkKind, type FieldWeights, type FtsField } from './index-schema.js';
export type { ChunkRow, FileRow, IndexStore, SymbolRow } from './index-store.js';
export type { IndexOptions, IndexProgress, IndexReport } from './indexer.js';
export { compilePathPattern, MAX_PATTERN_LENGTH } from './path-pattern.js';
export { editDistance } from './path-guard.js';
export { symbolsCalling } from './reference-queries.js';
export { RepositoryIndex, type IndexStatus, type OpenRepositoryOptions } from './repository-index.js';
export type { SourceFile } from './source-file.js';
export { DEFAULT_MAX_FILE_BYTES, VENDORED_DIRECTORIES } from './source-file.js';
export { WorktreeSource } from './worktree-source.js';
export { snapshotIndex } from './index-snapshot.js';
export { cacheDirectory } from './cache-location.js';
export { SCHEMA_VERSION } from './index-schema.js';
export { WriterLock } from './writer-lock.js';
export { describeOpenFailure, isCorruption } from './index-errors.js';
export { symbolsNamed, symbolsWithNameContaining } from './symbol-queries.js';
export { definedNamesByFile, definedNamesOfFiles, parsedFileStates } from './file-definitions.js';
export { indexFilesFingerprint, readDerivedCache, readStaleDerivedCache, writeDerivedCache } from './derived-cache.js';
export { removeDerivedCaches } from './derived-cache-files.js';
export { filesContainingText, type IndexedText } from './text-queries.js';
export { VectorStore, type StoredChunk, type VectorMatch, type VectorStoreOptions } from './vector-store.js';
export { displayPath, quotedPath } from './display-path.js';
export { folderChildren, notIndexedReason, resolveListingPath, symbolCounts, type FolderChild } from './folder-listing.js';
export { graphInputs, mapSymbolsOf, type GraphInputs, type MapSymbolRow } from './graph-inputs.js';
export { blameLines, changedPaths, fileAt, fileDiff, fileLog, gitContextOf, historyPath, parentOf, resolveRevision, type BlameLine, type ChangeArea, type ChangedPath, type ChangeStatus, type CommitInfo, type GitContext } from './git-history.js';
export { symbolsOfBytes, type FileSide } from './symbols-of-bytes.js';
