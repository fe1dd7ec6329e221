/**
 * Public surface of the index layer: reading a working tree or a commit
 * (sources/), the SQLite index and its store (store/), incremental updates
 * (write/), lexical scoring (lexical/), the other reads of an index (queries/),
 * `RepositoryIndex` and the commit index pool. Other folders import the index
 * only through this file.
 */
export { type BlameLine, blameLines, type ChangeArea, type ChangedPath, changedPaths, type ChangeStatus, type CommitInfo, compilePathPattern, DEFAULT_MAX_FILE_BYTES, displayPath, editDistance, fileAt, fileDiff, fileLog, GitCommitSource, type GitContext, gitContextOf, historyPath, MAX_PATTERN_LENGTH, parentOf, quotedPath, resolveRevision, type SourceFile, type SourceListing, VENDORED_DIRECTORIES, WorktreeSource } from './sources/index.js';
export { cacheDirectory, CHUNK_KINDS, derivedKey, type DerivedKey, IndexSnapshot, snapshotOf, type ChunkKind, type ChunkRow, codeTokens, describeOpenFailure, type FieldWeights, type FileRow, FTS_FIELDS, type FtsField, indexFilesFingerprint, type IndexStore, isCorruption, readDerivedCache, readStaleDerivedCache, removeDerivedCaches, unparsedFilesFingerprint, SCHEMA_VERSION, snapshotIndex, splitIdentifier, type StoredChunk, type SymbolRow, type VectorMatch, VectorStore, type VectorStoreOptions, writeDerivedCache, WriterLock } from './store/index.js';
export { type IndexOptions, type IndexProgress, type IndexReport } from './write/index.js';
export { BM25_B, BM25_K1, bm25Chunks, bm25ChunksIn, chunkIdOfSymbol, chunkRangesOfFile, type ChunkScore, chunksWithBodyPhrase, chunksWithBodyPhraseUpTo, indexGeneration, indexVocabulary, kthLargest, termStatistics, type TermStatistics, type WeightedToken } from './lexical/index.js';
export { definedNamesByFile, definedNamesOfFiles, filesContainingText, importTargets, type FileSide, type FolderChild, folderChildren, graphInputs, type GraphInputs, type IndexedText, type MapSymbolRow, mapSymbolsOf, notIndexedReason, parsedFileStates, resolveListingPath, symbolCounts, symbolsCalling, symbolsNamed, symbolsOfBytes, symbolsWithNameContaining } from './queries/index.js';
export { type IndexStatus, type OpenRepositoryOptions, RepositoryIndex } from './repository-index.js';
export type { IdleWarmer, WarmScoringReport } from './lexical/index.js';
export { CommitIndexPool } from './commit-index-pool.js';
