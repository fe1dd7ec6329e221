/**
 * The one JSON shape of a search result. `reponav search --format json` (and
 * `--json`), the `search` tool's machine form (MCP `structuredContent`) and the
 * web view's `GET /api/search` all carry exactly this object, built by
 * {@link buildSearchResultJson}; the zod schema below is its definition
 * (docs/mcp-tools.md and docs/architecture.md describe it in words).
 *
 * ```
 * {
 *   query,                                   // the query as given
 *   files:     [{ path, score, evidence }],  // stage-1 files, best first (≤ 20)
 *   modules:   [RankedSpan],                 // file:Class / file:function, best first (≤ 20)
 *   functions: [RankedSpan],                 // file:Class.method / file:function, best first (≤ 20)
 *   scaffold:  ScaffoldJson                  // what the scaffold text shows, as data
 * }
 * RankedSpan = { id: "path:qualifiedName", path, qualifiedName, score, startLine, endLine }
 * ```
 *
 * Scores of the ranked lists are rounded to 3 decimals (they order, they do
 * not measure); the scaffold keeps its own. Spans are 1-based inclusive, null
 * when the index no longer has the symbol. Keys come in a fixed order, so the
 * same index and query give byte-identical JSON.
 */
// zod/mini, as every schema (src/tools/tool-args.ts): a `reponav search` process loads this module and
// must not load the chainable API for schemas it never builds.
import * as z from '../zod-mini.js';
import type { IndexStore, SymbolRow } from '../index/index.js';
import type { RankedSymbol, RetrievalResult } from '../retrieve/index.js';
import { renderScaffoldJson } from './render-json.js';
import type { ScaffoldFile, ScaffoldOptions } from './scaffold-types.js';

/** Ranked lists (files, modules, functions) are cut here; the scaffold keeps its own caps. */
export const RANKED_LIMIT = 20;

/**
 * The schemas are built on first use, not at load: zod builds every schema
 * object eagerly and a `reponav search` process never validates its own output.
 */
function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const scaffoldSymbolSchema = once(() =>
  z.object({
    qualifiedName: z.string(),
    kind: z.enum(['class', 'interface', 'struct', 'enum', 'trait', 'type', 'module', 'function', 'method', 'section']),
    startLine: z.number(),
    endLine: z.number(),
    /** Best chunk-hit score of this symbol, or null when it was chosen without a hit. */
    hitScore: z.nullable(z.number()),
  }),
);

/** The scaffold as data (the same choices as the text; not budgeted). */
export const scaffoldJsonSchema = once(() =>
  z.object({
    query: z.string(),
    queryTokens: z.array(z.string()),
    totalFiles: z.number(),
    files: z.array(
      z.object({
        rank: z.number(),
        path: z.string(),
        score: z.number(),
        evidence: z.number(),
        expanded: z.boolean(),
        parsed: z.boolean(),
        importedBy: z.array(z.string()),
        anchors: z.optional(
          z.array(
            z.extend(scaffoldSymbolSchema(), {
              matchedTokens: z.array(z.string()),
              invokes: z.array(z.string()),
              invokedBy: z.array(z.string()),
            }),
          ),
        ),
        glimpse: z.optional(z.array(scaffoldSymbolSchema())),
        targets: z.optional(z.array(z.extend(scaffoldSymbolSchema(), { source: z.enum(['anchor', 'neighbour', 'glimpse']) }))),
      }),
    ),
  }),
);

/** A ranked module or function with its span. */
export const rankedSpanSchema = once(() =>
  z.object({
    /** `path:qualifiedName`, the LocBench id form. */
    id: z.string(),
    path: z.string(),
    qualifiedName: z.string(),
    score: z.number(),
    startLine: z.nullable(z.number()),
    endLine: z.nullable(z.number()),
  }),
);

/** The one search result shape (see the module comment). */
export const searchResultJsonSchema = once(() =>
  z.object({
    query: z.string(),
    files: z.array(z.object({ path: z.string(), score: z.number(), evidence: z.number() })),
    modules: z.array(rankedSpanSchema()),
    functions: z.array(rankedSpanSchema()),
    /** Documentation files by their best section, best first; `docPlacement` says where they rank against the code. */
    docs: z.array(
      z.object({ path: z.string(), section: z.nullable(z.string()), startLine: z.number(), endLine: z.number(), score: z.number() }),
    ),
    docPlacement: z.enum(['below', 'equal']),
    scaffold: scaffoldJsonSchema(),
  }),
);

export type RankedSpan = z.infer<ReturnType<typeof rankedSpanSchema>>;
export type SearchResultJson = z.infer<ReturnType<typeof searchResultJsonSchema>>;

/** What a search produced: the retrieval result with its ranked modules and functions. */
export interface RankedRetrievalResult extends RetrievalResult {
  modules: RankedSymbol[];
  functions: RankedSymbol[];
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Builds the search result JSON. `files` is the scaffold's per-file input (see
 * loadScaffoldFiles); spans of ranked symbols are read from `store`, once per file.
 */
export function buildSearchResultJson(
  store: IndexStore,
  result: RankedRetrievalResult,
  files: ReadonlyMap<string, ScaffoldFile>,
  options: ScaffoldOptions = {},
): SearchResultJson {
  const symbolsByPath = new Map<string, SymbolRow[]>();
  const withSpans = (ranked: readonly RankedSymbol[]): RankedSpan[] =>
    ranked.slice(0, RANKED_LIMIT).map((r) => {
      let symbols = symbolsByPath.get(r.path);
      if (!symbols) symbolsByPath.set(r.path, (symbols = store.symbolsOf(r.path)));
      const symbol = symbols.find((s) => s.qualifiedName === r.qualifiedName);
      return {
        id: `${r.path}:${r.qualifiedName}`,
        path: r.path,
        qualifiedName: r.qualifiedName,
        score: round3(r.score),
        startLine: symbol?.startLine ?? null,
        endLine: symbol?.endLine ?? null,
      };
    });
  return {
    query: result.query,
    files: result.files.slice(0, RANKED_LIMIT).map((f) => ({ path: f.path, score: round3(f.score), evidence: f.hits.length })),
    modules: withSpans(result.modules),
    functions: withSpans(result.functions),
    docs: (result.docs ?? []).map((d) => ({ ...d, score: round3(d.score) })),
    docPlacement: result.docPlacement ?? 'below',
    scaffold: renderScaffoldJson(result, files, options),
  };
}
