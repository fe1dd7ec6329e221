/**
 * The three retrieval tools over one search pipeline: `search` (the RepoNav
 * scaffold), `snippet_search` (the flat snippet baseline over the same hits)
 * and `semantic_search` (chunk-level hits, compact). They share retrieval so
 * that they differ only in presentation, as in the paper's RQ2 comparison.
 */
import * as z from '../zod-mini.js';
import { loadScaffoldFiles } from '../scaffold/index.js';
import { createDenseFusion } from '../retrieve/index.js';
import type { IndexStore } from '../index/index.js';
import { reduceLongQuery, searchRepository, type SearchOptions, type SearchResult } from '../retrieve/index.js';
import {
  DEFAULT_SCAFFOLD_OPTIONS,
  FILE_CHUNK_LABEL,
  NO_CANDIDATES_LINE,
  buildSearchResultJson,
  renderScaffold,
  renderSnippets,
  type ScaffoldFile,
  type SearchResultJson,
} from '../scaffold/index.js';
import { sortHits } from '../scaffold/index.js';
import { cleanSignature } from '../scaffold/index.js';
import { displayPath, formatScore } from '../scaffold/index.js';
import { clipLine, renderBlocks } from './output-budget.js';
import { provisionalSearchAnswer } from './provisional-answer.js';
import { LineCache } from './source-lines.js';
import { budgetArg, filePatternArg, pathFilterOf, queryArg, repoArg, topKArg, lazySchema } from './tool-args.js';
import type { ToolDefinition, ToolEnvironment } from './tool-types.js';
import { searchOutputSchema } from './output-schemas.js';

/** One search as the tools run it. */
export interface ToolSearch {
  result: SearchResult;
  filePattern: string | null;
  /** False when a file_pattern was given and no indexed file matches it. */
  patternMatchesFiles: boolean;
}

/** The context's fusion hook, or one built for this repository's store from the context's embedder. */
function fusionFor(env: ToolEnvironment, pathFilter: ((path: string) => boolean) | undefined): SearchOptions['fuse'] {
  if (env.context.fuse) return env.context.fuse;
  if (!env.context.embedder) return undefined;
  return createDenseFusion(env.repository.index.store, env.context.embedder, {
    pathFilter,
    embedMissing: true,
    onError: 'lexical',
    logger: env.logger,
  });
}

/** Runs the retrieval pipeline with the call's file_pattern and the context's fusion hook. */
export async function runToolSearch(env: ToolEnvironment, query: string, filePattern: string | undefined): Promise<ToolSearch> {
  const store = env.repository.index.store;
  const pathFilter = pathFilterOf(filePattern);
  // A long issue text (logs, dumps) is reduced to what retrieval reads; a shorter one is passed as it is.
  const result = await searchRepository(store, reduceLongQuery(query).text, { pathFilter, fuse: fusionFor(env, pathFilter), ranker: env.context.ranker });
  const patternMatchesFiles = !pathFilter || result.hits.length > 0 || store.files().some((f) => pathFilter(f.path));
  return { result, filePattern: pathFilter ? filePattern! : null, patternMatchesFiles };
}

/** The note for a search that found nothing because of its file_pattern, or null. */
function patternNote(search: ToolSearch): string | null {
  if (search.patternMatchesFiles) return null;
  return `No indexed file matches file_pattern '${search.filePattern}'; drop it or try a broader glob such as '*.py' or 'src/'.`;
}

/** The scaffold's per-file input for the files it will show (result.files is already ranked, ties by path). */
export function scaffoldFilesFor(store: IndexStore, result: SearchResult, parseTop = DEFAULT_SCAFFOLD_OPTIONS.parseTop): Map<string, ScaffoldFile> {
  return loadScaffoldFiles(store, result, parseTop);
}

const searchInput = lazySchema(() =>
  z.strictObject({
    query: queryArg('What you are looking for: an issue text, an error message, or a few words and identifiers.'),
    file_pattern: filePatternArg(),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

/** What `search` computes before rendering: the search and the scaffold's per-file input. */
export interface ScaffoldData {
  search: ToolSearch;
  files: Map<string, ScaffoldFile>;
}

/** `search`: the RepoNav scaffold for a query. */
export const searchTool: ToolDefinition<z.infer<ReturnType<typeof searchInput>>, ScaffoldData> = {
  name: 'search',
  title: 'Search (RepoNav scaffold)',
  description:
    'Start here for an issue, error message or question: the files and symbols most likely involved, as a tree ' +
    '(ANCHORS: symbols matching the query, with callers and callees; GLIMPSE: other relevant symbols; ' +
    'CANDIDATE_TARGETS: where to read or edit, with line spans). Then list_symbols or view_code on what it names. ' +
    'For a known name use find_class/find_function; for exact text, find_code_snippet.',
  get inputSchema() {
    return searchInput();
  },
  get outputSchema() {
    return searchOutputSchema();
  },
  defaultBudgetTokens: DEFAULT_SCAFFOLD_OPTIONS.budgetTokens,
  provisional: provisionalSearchAnswer,
  async run(args, env) {
    const search = await runToolSearch(env, args.query, args.file_pattern);
    const parseTop = env.context.scaffold?.parseTop ?? DEFAULT_SCAFFOLD_OPTIONS.parseTop;
    return { search, files: scaffoldFilesFor(env.repository.index.store, search.result, parseTop) };
  },
  render({ search, files }, env) {
    const text = renderScaffold(search.result, files, { ...env.context.scaffold, budgetTokens: env.budgetTokens });
    const note = patternNote(search);
    return note && text === NO_CANDIDATES_LINE ? `${text}\n${note}` : text;
  },
  /** The one search result shape (scaffold/search-result-json.ts), also the CLI's `--json` and the web view's. */
  toJson({ search, files }, env): SearchResultJson {
    return buildSearchResultJson(env.repository.index.store, search.result, files, { ...env.context.scaffold, budgetTokens: env.budgetTokens });
  },
};

const snippetInput = lazySchema(() =>
  z.strictObject({
    query: queryArg('What you are looking for: an issue text, an error message, or a few words and identifiers.'),
    file_pattern: filePatternArg(),
    top_k: topKArg(),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

interface SnippetData {
  search: ToolSearch;
  topK: number;
  lines: LineCache;
}

/** `snippet_search`: the flat snippet baseline. */
export const snippetSearchTool: ToolDefinition<z.infer<ReturnType<typeof snippetInput>>, SnippetData> = {
  name: 'snippet_search',
  title: 'Snippet search',
  description:
    'Like search, but answers with the best-matching code chunks themselves (numbered lines), best first: read ' +
    'candidate code at once instead of a map, at more tokens per hit. top_k: how many (default 10).',
  get inputSchema() {
    return snippetInput();
  },
  defaultBudgetTokens: DEFAULT_SCAFFOLD_OPTIONS.budgetTokens,
  provisional: (args, env) => provisionalSearchAnswer(args, env, 'snippet'),
  async run(args, env) {
    const search = await runToolSearch(env, args.query, args.file_pattern);
    return { search, topK: args.top_k ?? 10, lines: new LineCache(env.repository.index.store) };
  },
  render({ search, topK, lines }, env) {
    const read = lines.readLines();
    const text = renderSnippets(search.result, {
      readLines: (path, start, end) => read(path, start, end).map((line) => clipLine(line)),
      topK,
      budgetTokens: env.budgetTokens,
    });
    const note = patternNote(search);
    return note && search.result.hits.length === 0 && (search.result.docs ?? []).length === 0 ? `${text}\n${note}` : text;
  },
  toJson({ search, topK }) {
    return { query: search.result.query, hits: sortHits(search.result.hits).slice(0, topK), docs: search.result.docs ?? [], docPlacement: search.result.docPlacement ?? 'below' };
  },
};

const semanticInput = lazySchema(() =>
  z.strictObject({
    query: queryArg('A natural-language description of the behaviour or code you want, e.g. "where is tax added to the order total".'),
    file_pattern: filePatternArg(),
    top_k: topKArg(),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

/** One chunk hit with the symbol facts semantic_search prints. */
export interface DescribedHit {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
  kind: string;
  score: number;
  signature: string | null;
  doc: string | null;
}

interface SemanticData {
  search: ToolSearch;
  retriever: 'lexical' | 'fused';
  hits: DescribedHit[];
}

/** `semantic_search`: chunk-level hits for a description, compact (no code). */
export const semanticSearchTool: ToolDefinition<z.infer<ReturnType<typeof semanticInput>>, SemanticData> = {
  name: 'semantic_search',
  title: 'Semantic search',
  description:
    'Describe behaviour in plain words; get the best-matching functions, methods and classes as path:start-end with ' +
    'signature and doc line (no bodies, so many fit), then read one with view_code. Dense embeddings fused with BM25 ' +
    'when the server has an embedder; lexical BM25 otherwise (then snippet_search does the same job).',
  get inputSchema() {
    return semanticInput();
  },
  defaultBudgetTokens: 1000,
  async run(args, env) {
    const search = await runToolSearch(env, args.query, args.file_pattern);
    const store = env.repository.index.store;
    const hits = sortHits(search.result.hits)
      .slice(0, args.top_k ?? 10)
      .map((hit): DescribedHit => {
        const symbols = hit.symbol ? store.symbolsOf(hit.path).filter((s) => s.qualifiedName === hit.symbol) : [];
        const symbol = symbols.find((s) => s.startLine === hit.startLine) ?? symbols[0];
        return {
          path: hit.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          symbol: hit.symbol,
          kind: symbol?.kind ?? hit.kind,
          score: hit.score,
          signature: symbol ? cleanSignature(symbol.signature) : null,
          doc: symbol?.doc ?? null,
        };
      });
    return { search, retriever: env.context.fuse || env.context.embedder ? 'fused' : 'lexical', hits };
  },
  render({ search, retriever, hits }, env) {
    if (hits.length === 0) return ['No code matched this description.', patternNote(search)].filter(Boolean).join('\n');
    const head = [`Top ${hits.length} code unit${hits.length === 1 ? '' : 's'} (${retriever === 'lexical' ? 'lexical BM25' : 'fused lexical + dense'} retrieval):`];
    const blocks = hits.map((hit, i) => {
      const label = hit.symbol ?? `${FILE_CHUNK_LABEL} top-level code`;
      const lines = [`${i + 1}. ${displayPath(hit.path)}:${hit.startLine}-${hit.endLine} ${label} (${hit.kind}, ${formatScore(hit.score)})`];
      if (hit.signature) lines.push(`     ${clipLine(hit.signature, 200)}`);
      if (hit.doc) lines.push(`     — ${clipLine(hit.doc.trim(), 160)}`);
      return lines;
    });
    return renderBlocks(head, blocks, env.budgetTokens, { singular: 'hit', plural: 'hits' });
  },
  toJson({ search, retriever, hits }) {
    return { query: search.result.query, retriever, hits };
  },
};
