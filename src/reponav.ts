/**
 * reponav's public library API, root entry: open an index, search it, render
 * what an agent sees, and call the agent tools. It loads neither the MCP SDK,
 * nor the agents and model clients, nor dense retrieval, nor PostgreSQL: those
 * have their own entries, `reponav/mcp`, `reponav/agents`, `reponav/dense` and
 * `reponav/team`. Anything not
 * exported from an entry is internal and may change.
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
export { RepositoryIndex, type IndexStatus, type OpenRepositoryOptions } from './index/index.js';
export type { IndexOptions, IndexProgress, IndexReport } from './index/index.js';
export type { IndexStore, SymbolRow, FileRow } from './index/index.js';
export { compilePathPattern } from './index/index.js';
// eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: loads tree-sitter only where files are parsed (see parse/index.ts)
export { parseSource } from './parse/parse-source.js';
export { SUPPORTED_LANGUAGES, languageForPath } from './parse/index.js';
export type { CodeSymbol, ImportRecord, ParsedFile, SymbolKind } from './parse/index.js';
export { searchRepository, type SearchOptions, type SearchResult } from './retrieve/index.js';
export { parseQuery, type ParsedQuery } from './retrieve/index.js';
export { aggregateFiles, DEFAULT_AGGREGATION, type AggregationOptions } from './retrieve/index.js';
export type { ChunkHit, FileCandidate, RankedSymbol, RetrievalResult } from './retrieve/index.js';
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
export { createDenseFusion, reciprocalRankFusion, normalizedScoreFusion, type FusionMethod } from './retrieve/index.js';
