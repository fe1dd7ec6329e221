/**
 * The tools a CLI command runs one at a time (`symbols`, `find`, `view`), with
 * what runs them, apart from the registry of every tool: a process that runs
 * one of these loads that tool, not the search tools and the retrieval layer
 * behind them (issue #15, start-up). The full surface is ../index.ts.
 */
export { singleToolRegistry } from '../call-tool.js';
export { runToolOnce, type RunToolOnceOptions } from '../run-tool-once.js';
export { findClassTool, findFunctionTool } from '../find-symbol-tools.js';
export { listSymbolsTool } from '../list-symbols-tool.js';
export { parseFileSpan, viewCodeTool } from '../view-code-tool.js';
export type { AnyToolDefinition } from '../tool-types.js';
export { listFilesTool } from '../list-files-tool.js';
export { repoMapTool } from '../repo-map-tool.js';
export { changedFilesTool } from '../changed-files-tool.js';
export { blameLinesTool, diffTool, fileHistoryTool } from '../git-history-tools.js';
