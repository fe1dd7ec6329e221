/**
 * Public surface of the tool layer: one registry of tools used by the MCP
 * server, the CLI and the agents, and the one way to call them.
 */
export { BUILTIN_TOOLS, toolsWithSearchInterface } from './builtin-tools.js';
export { callTool, createToolRegistry, formatArgumentError, type ToolRegistry, type ToolRegistryOptions } from './tool-registry.js';
export { singleToolRegistry } from './call-tool.js';
export {
  RepositoryHandle,
  RepositorySet,
  uniqueRepositoryNames,
  type FreshnessOptions,
  type FreshnessResult,
  type RepositorySpec,
} from './repository-set.js';
export {
  TOOL_NAMES,
  type AnyToolDefinition,
  type ToolBudgets,
  type ToolCallResult,
  type ToolContext,
  type ToolDefinition,
  type ToolEnvironment,
  type ToolName,
  type ToolProgress,
} from './tool-types.js';
export { clipLine, DEFAULT_MAX_BUDGET_TOKENS, enforceBudget, MIN_BUDGET_TOKENS, resolveBudget } from './output-budget.js';
export { lookupSymbols, parseSymbolQuery, type SymbolCategory, type SymbolLookupResult } from './symbol-lookup.js';
export { searchIndexedText, type TextMatch } from './find-code-snippet-tool.js';
export { parseFileSpan } from './view-code-tool.js';
export { FOCUSED_MIN_FILES } from './focused-answer.js';
export { runToolOnce, type RunToolOnceOptions } from './run-tool-once.js';
export { listSymbolsTool } from './list-symbols-tool.js';
export { findClassTool, findFunctionTool } from './find-symbol-tools.js';
export { viewCodeTool } from './view-code-tool.js';
export { findReferencesTool } from './find-references-tool.js';
export { regexSearchTool } from './regex-search-tool.js';
export { findCodeSnippetTool } from './find-code-snippet-tool.js';
export { listFilesTool } from './list-files-tool.js';
export { repoMapTool } from './repo-map-tool.js';
export { changedFilesTool } from './changed-files-tool.js';
export { blameLinesTool, diffTool, fileHistoryTool } from './git-history-tools.js';
export { searchTool, snippetSearchTool, type ScaffoldData } from './search-tools.js';
export { rerankSearchTool, toolsWithRerank, type RerankScaffoldData } from './rerank-search-tool.js';
export { LineCache } from './source-lines.js';
export type { ViewData } from './view-code-tool.js';
export type { RepoMapData, MapFile, MapSymbol } from './repo-map-tool.js';
export type { ChangedFile, ChangedFilesData } from './changed-files-tool.js';
export type { SymbolChange } from './symbol-changes.js';
export type { ListFilesData, ListedEntry } from './list-files-tool.js';
