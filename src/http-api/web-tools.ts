/**
 * The web view's tools: the built-in ones, with `list_symbols` given a
 * machine form shaped for the page (an outline with same-file call edges and
 * resolved imports). `search` is the built-in tool as it is: its machine form
 * is already the one search result shape. Everything else — validation,
 * freshness, budgets, path checks, the text an agent reads — is the built-in
 * definition's, run through callTool, so the page shows what an agent sees.
 */
import { sameFileCallGraph } from '../parse/index.js';
import { importEntries } from '../scaffold/index.js';
import { BUILTIN_TOOLS } from '../tools/index.js';
import { listSymbolsTool } from '../tools/index.js';
import { createToolRegistry, type ToolRegistry } from '../tools/index.js';
import type { AnyToolDefinition, ToolEnvironment } from '../tools/index.js';
import type { OutlineResponse } from './api-types.js';

type OutlineJson = Omit<OutlineResponse, 'repo' | 'text'>;

/** `list_symbols` answering with every symbol (no budget cut), its call edges and the import links. */
export const webOutlineTool: AnyToolDefinition = {
  ...listSymbolsTool,
  toJson(data: Parameters<typeof listSymbolsTool.render>[0], env: ToolEnvironment): OutlineJson {
    const { input, importedBy } = data;
    const graph = sameFileCallGraph(input.symbols, { language: input.language, text: env.repository.index.store.fileText(input.path) });
    const symbols = [...input.symbols]
      .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine)
      .map((s) => ({
        name: s.name,
        qualifiedName: s.qualifiedName,
        kind: s.kind,
        parent: s.parent,
        startLine: s.startLine,
        endLine: s.endLine,
        signature: s.signature,
        doc: s.doc,
        bases: [...s.bases],
        invokes: graph.get(s.qualifiedName)?.invokes ?? [],
        invokedBy: graph.get(s.qualifiedName)?.invokedBy ?? [],
      }));
    return {
      path: input.path,
      language: input.language,
      lineCount: input.lineCount ?? null,
      status: input.status,
      errorCount: input.errorCount,
      imports: importEntries(input.imports),
      importsFiles: env.repository.index.store.importsOf(input.path),
      importedBy: [...importedBy].sort(),
      symbols,
    };
  },
};

/** The built-in registry with the web form of `list_symbols` in its place, without the `exclude` tools. */
export function createWebToolRegistry(exclude?: readonly string[]): ToolRegistry {
  const replaced: AnyToolDefinition[] = BUILTIN_TOOLS.map((tool) => (tool.name === 'list_symbols' ? webOutlineTool : tool));
  return createToolRegistry({ tools: replaced, exclude });
}
