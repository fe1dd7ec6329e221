/**
 * The web view's tools: the built-in `search` and `list_symbols` with a
 * machine form shaped for the page (ranked files and spans; an outline with
 * same-file call edges and resolved imports). Everything else — validation,
 * freshness, budgets, path checks, the text an agent reads — is the built-in
 * definition's, run through callTool, so the page shows what an agent sees.
 */
import type { IndexStore, SymbolRow } from '../index/index-store.js';
import { sameFileCallGraph } from '../parse/call-graph.js';
import { importEntries } from '../scaffold/render-skeleton.js';
import { renderScaffoldJson } from '../scaffold/render-json.js';
import type { RankedSymbol } from '../retrieve/retrieval-types.js';
import { BUILTIN_TOOLS } from '../tools/builtin-tools.js';
import { listSymbolsTool } from '../tools/list-symbols-tool.js';
import { searchTool } from '../tools/search-tools.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { AnyToolDefinition, ToolEnvironment } from '../tools/tool-types.js';
import type { OutlineResponse, RankedSpan, SearchResponse } from './api-types.js';

/** Ranked lists sent to the page are cut here (the scaffold itself keeps its own caps). */
export const RANKED_LIMIT = 20;

type SearchJson = Omit<SearchResponse, 'repo' | 'text'>;
type OutlineJson = Omit<OutlineResponse, 'repo' | 'text'>;

/** Spans of ranked symbols, read once per file from the index. */
function withSpans(store: IndexStore, ranked: readonly RankedSymbol[]): RankedSpan[] {
  const byPath = new Map<string, SymbolRow[]>();
  return ranked.slice(0, RANKED_LIMIT).map((r) => {
    let symbols = byPath.get(r.path);
    if (!symbols) byPath.set(r.path, (symbols = store.symbolsOf(r.path)));
    const symbol = symbols.find((s) => s.qualifiedName === r.qualifiedName);
    return {
      path: r.path,
      qualifiedName: r.qualifiedName,
      score: Math.round(r.score * 1000) / 1000,
      startLine: symbol?.startLine ?? null,
      endLine: symbol?.endLine ?? null,
    };
  });
}

/** `search` answering with the scaffold's structure plus the ranked files, functions and modules. */
export const webSearchTool: AnyToolDefinition = {
  ...searchTool,
  toJson(data: Parameters<typeof searchTool.render>[0], env: ToolEnvironment): SearchJson {
    const { result } = data.search;
    const store = env.repository.index.store;
    return {
      query: result.query,
      scaffold: renderScaffoldJson(result, data.files, { ...env.context.scaffold, budgetTokens: env.budgetTokens }),
      files: result.files.slice(0, RANKED_LIMIT).map((f) => ({ path: f.path, score: Math.round(f.score * 1000) / 1000, evidence: f.hits.length })),
      functions: withSpans(store, result.functions),
      modules: withSpans(store, result.modules),
    };
  },
};

/** `list_symbols` answering with every symbol (no budget cut), its call edges and the import links. */
export const webOutlineTool: AnyToolDefinition = {
  ...listSymbolsTool,
  toJson(data: Parameters<typeof listSymbolsTool.render>[0], env: ToolEnvironment): OutlineJson {
    const { input, importedBy } = data;
    const graph = sameFileCallGraph(input.symbols);
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

/** The built-in registry with the web forms of `search` and `list_symbols` in their places. */
export function createWebToolRegistry(): ToolRegistry {
  const replaced: AnyToolDefinition[] = BUILTIN_TOOLS.map((tool) =>
    tool.name === 'search' ? webSearchTool : tool.name === 'list_symbols' ? webOutlineTool : tool,
  );
  return createToolRegistry({ tools: replaced });
}
