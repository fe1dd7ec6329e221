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
import { renderInterface } from '../scaffold/index.js';
import { searchTool, semanticSearchTool, snippetSearchTool, type ScaffoldData } from './search-tools.js';
import type { AnyToolDefinition, ToolDefinition } from './tool-types.js';
import { viewCodeTool } from './view-code-tool.js';
import { provisionalSearchAnswer } from './provisional-answer.js';
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

/**
 * The built-in tools with `search` rendering an RQ2 comparison interface
 * (File-Only: the ranked files; Inline: files with their hits) instead of the
 * scaffold — for `search --format` and the agent's ablation interfaces.
 */
export function toolsWithSearchInterface(format: 'file-only' | 'inline'): AnyToolDefinition[] {
  const search: ToolDefinition<unknown, ScaffoldData> = {
    ...searchTool,
    render: ({ search: { result }, files }, env) => renderInterface(format, result, files, { budgetTokens: env.budgetTokens }),
    // A never-indexed tree's text-scan answer keeps the interface's shape too.
    provisional: (args, env) => provisionalSearchAnswer(args as { query: string; file_pattern?: string }, env, format),
  };
  return BUILTIN_TOOLS.map((tool) => (tool.name === 'search' ? search : tool));
}
