/**
 * The built-in tools in listing order (the order of TOOL_NAMES): retrieval
 * first, then navigation, then index maintenance.
 */
import { findCodeSnippetTool } from './find-code-snippet-tool.js';
import { findReferencesTool } from './find-references-tool.js';
import { findClassTool, findFunctionTool } from './find-symbol-tools.js';
import { indexStatusTool, reindexTool } from './index-tools.js';
import { listSymbolsTool } from './list-symbols-tool.js';
import { regexSearchTool } from './regex-search-tool.js';
import { searchTool, semanticSearchTool, snippetSearchTool } from './search-tools.js';
import type { AnyToolDefinition } from './tool-types.js';
import { viewCodeTool } from './view-code-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { repoMapTool } from './repo-map-tool.js';
import { changedFilesTool } from './changed-files-tool.js';
import { blameLinesTool, diffTool, fileHistoryTool } from './git-history-tools.js';

/** Every built-in tool, once. */
export const BUILTIN_TOOLS: readonly AnyToolDefinition[] = Object.freeze([
  searchTool,
  snippetSearchTool,
  semanticSearchTool,
  listSymbolsTool,
  findClassTool,
  findFunctionTool,
  findReferencesTool,
  findCodeSnippetTool,
  regexSearchTool,
  viewCodeTool,
  listFilesTool,
  repoMapTool,
  changedFilesTool,
  diffTool,
  fileHistoryTool,
  blameLinesTool,
  indexStatusTool,
  reindexTool,
]);
