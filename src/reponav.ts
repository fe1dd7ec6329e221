/**
 * reponav's public library API. Everything a program needs to open an index,
 * search it, render what an agent sees, and call the agent tools; anything not
 * exported here is internal and may change.
 *
 * @example
 * ```ts
 * import { RepositoryIndex, searchRepository, renderSearchResult } from 'reponav';
 * const repo = await RepositoryIndex.open('/path/to/repo');
 * await repo.refresh();
 * const result = await searchRepository(repo.store, 'where is the retry logic?');
 * console.log(renderSearchResult(repo.store, result, 'scaffold'));
 * repo.close();
 * ```
 */
export { RepositoryIndex, type IndexStatus, type OpenRepositoryOptions } from './index/repository-index.js';
export type { IndexOptions, IndexProgress, IndexReport } from './index/indexer.js';
export type { IndexStore, SymbolRow, FileRow } from './index/index-store.js';
export { compilePathPattern } from './index/path-pattern.js';
export { parseSource } from './parse/parse-source.js';
export { SUPPORTED_LANGUAGES, languageForPath } from './parse/languages.js';
export type { CodeSymbol, ImportRecord, ParsedFile, SymbolKind } from './parse/symbol-model.js';
export { searchRepository, type SearchOptions, type SearchResult } from './retrieve/search-repository.js';
export { parseQuery, type ParsedQuery } from './retrieve/query-parser.js';
export { aggregateFiles, DEFAULT_AGGREGATION, type AggregationOptions } from './retrieve/file-aggregation.js';
export type { ChunkHit, FileCandidate, RankedSymbol, RetrievalResult } from './retrieve/retrieval-types.js';
export {
  renderScaffold,
  renderSearchResult,
  renderSkeleton,
  buildSkeletonJson,
  INTERFACE_MODES,
  type InterfaceMode,
  type ScaffoldOptions,
} from './scaffold/index.js';
export { BUILTIN_TOOLS, callTool, createToolRegistry, RepositorySet, TOOL_NAMES, type ToolCallResult, type ToolName } from './tools/index.js';
export { ReponavError, isReponavError, type ReponavErrorCode } from './errors.js';
export { createStderrLogger, silentLogger, type Logger, type LogLevel } from './logger.js';
export { openMcpService, createMcpServer, serveStdio, startHttpServer } from './server/index.js';
export {
  createEmbedder,
  ensureEmbeddings,
  denseSearch,
  type Embedder,
  type EmbedderSettings,
} from './retrieve/dense/index.js';
export { createDenseFusion, reciprocalRankFusion, normalizedScoreFusion, type FusionMethod } from './retrieve/fusion.js';
export { askQuestion, type AskTrace } from './agents/ask/index.js';
export { createChatModel, type ChatModel, type ChatMessage, type ChatResponse } from './llm/index.js';
