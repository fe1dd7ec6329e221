/**
 * The repository half of the API: info, file list, search, code and
 * outlines. Each handler goes through callTool (the same path as the MCP
 * server and the CLI), so path checks and messages are the tools' own; a tool
 * error becomes an ApiError with a fitting status.
 */
import { callTool, type ToolRegistry } from '../tools/index.js';
import type { ChangedFilesData, RepoMapData, ViewData } from '../tools/index.js';
import type { ToolContext } from '../tools/index.js';
import type { ChangesResponse, CodeResponse, FilesResponse, InfoResponse, MapResponse, OutlineResponse, SearchResponse } from './api-types.js';
import { ApiError, statusForCode } from './http-io.js';
import { countOf } from '../plural.js';

/** What every repository handler needs. */
export interface RepositoryApiContext {
  registry: ToolRegistry;
  tools: ToolContext;
  version: string;
}

/** Files longer than this are sent as a window around the highlighted span. */
export const MAX_CODE_LINES = 20_000;
/** The most paths /api/files lists. */
export const MAX_LISTED_FILES = 50_000;
/** Generous budget for the texts the page shows (the JSON forms are not budgeted). */
const PAGE_BUDGET_TOKENS = 4000;

/** Calls a tool and returns its data, or throws the ApiError the page should show. */
export async function runTool<T>(ctx: RepositoryApiContext, name: string, args: Record<string, unknown>): Promise<{ data: T; text: string; repo: string }> {
  const result = await callTool(ctx.registry, name, args, ctx.tools);
  if (result.isError) throw new ApiError(statusForCode(result.errorCode), result.text, result.errorCode);
  const data = result.data as (T & { indexing?: boolean; provisional?: boolean; done?: number; total?: number | null }) | undefined;
  const repo = ctx.tools.repositories.select(typeof args.repo === 'string' ? args.repo : undefined).name;
  if (data && typeof data === 'object' && (data.indexing === true || data.provisional === true)) {
    // Not an error: the index is being built; the page retries (it shows indexed results only, not a provisional scan,
    // so a provisional answer's text — scan results — is not the message; the page gets the indexing sentence).
    const message = data.provisional === true ? `Indexing repository '${repo}'; try again in a moment.` : result.text;
    throw new ApiError(503, message, 'INDEXING', { indexing: { done: data.done ?? 0, total: data.total ?? null } });
  }
  return { data: data as T, text: result.text, repo };
}

/** `GET /api/info`. */
export function getInfo(ctx: RepositoryApiContext): InfoResponse {
  return { version: ctx.version, repositories: ctx.tools.repositories.all().map((r) => ({ name: r.name, root: r.root })) };
}

/** `GET /api/files`: the indexed paths (after a freshness check, like any tool call). */
export async function getFiles(ctx: RepositoryApiContext, params: URLSearchParams): Promise<FilesResponse> {
  const repo = optional(params, 'repo');
  // index_status is `as-is`; a refresh through ensureFresh keeps the list in line with the tree.
  const handle = ctx.tools.repositories.select(repo);
  const fresh = await handle.ensureFresh({ waitMs: ctx.tools.indexWaitMs });
  if (fresh.state === 'indexing') {
    const p = fresh.progress;
    throw new ApiError(503, `Indexing repository '${handle.name}'${p ? ` (${p.done} of ${countOf(p.total, 'file')})` : ''}; try again in a moment.`, 'INDEXING', {
      indexing: { done: p?.done ?? 0, total: p?.total ?? null },
    });
  }
  const paths = handle.index.store
    .files()
    .map((f) => f.path)
    .sort();
  return { repo: handle.name, paths: paths.slice(0, MAX_LISTED_FILES), truncated: paths.length > MAX_LISTED_FILES };
}

/** `GET /api/search?q=`. */
export async function getSearch(ctx: RepositoryApiContext, params: URLSearchParams): Promise<SearchResponse> {
  const query = required(params, 'q', 'a query (q)');
  const filePattern = optional(params, 'file_pattern');
  const { data, text, repo } = await runTool<Omit<SearchResponse, 'repo' | 'text'>>(ctx, 'search', {
    query,
    ...(filePattern ? { file_pattern: filePattern } : {}),
    ...repoArg(params),
  });
  return { repo, text, ...data };
}

/** `GET /api/symbols?path=`. */
export async function getOutline(ctx: RepositoryApiContext, params: URLSearchParams): Promise<OutlineResponse> {
  const path = required(params, 'path', 'a file path (path)');
  const { data, text, repo } = await runTool<Omit<OutlineResponse, 'repo' | 'text'>>(ctx, 'list_symbols', {
    file: path,
    budget_tokens: PAGE_BUDGET_TOKENS,
    ...repoArg(params),
  });
  return { repo, text, ...data };
}

/** `GET /api/map?focus=a,b&budget=`: the repository map (repo_map), centred on the comma-separated focus when given. */
export async function getMap(ctx: RepositoryApiContext, params: URLSearchParams): Promise<MapResponse> {
  const focus = (optional(params, 'focus') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const budget = optional(params, 'budget');
  if (budget !== undefined && !/^\d{3,6}$/.test(budget)) throw new ApiError(400, `budget must be a number of tokens (100 or more), not '${budget.slice(0, 40)}'.`, 'BAD_INPUT');
  const { data, text, repo } = await runTool<RepoMapData>(ctx, 'repo_map', {
    ...(focus.length > 0 ? { focus } : {}),
    budget_tokens: budget !== undefined ? Number(budget) : PAGE_BUDGET_TOKENS,
    ...repoArg(params),
  });
  return { repo, text, ...data };
}

/** `GET /api/changes?from=&to=`: the changed files with their symbol changes (changed_files). */
export async function getChanges(ctx: RepositoryApiContext, params: URLSearchParams): Promise<ChangesResponse> {
  const from = optional(params, 'from');
  const to = optional(params, 'to');
  const { data, text, repo } = await runTool<ChangedFilesData>(ctx, 'changed_files', {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    budget_tokens: PAGE_BUDGET_TOKENS,
    ...repoArg(params),
  });
  return { repo, text, ...data };
}

/**
 * `GET /api/code?path=&start=&end=&symbol=`: the whole file (windowed when
 * huge) and the span to highlight — the given lines, or the symbol's span.
 */
export async function getCode(ctx: RepositoryApiContext, params: URLSearchParams): Promise<CodeResponse> {
  const path = optional(params, 'path');
  const symbolName = optional(params, 'symbol');
  if (path === undefined && symbolName === undefined) throw new ApiError(400, 'Give a file path (path) or a symbol name (symbol).', 'BAD_INPUT');
  let start = lineParam(params, 'start');
  let end = lineParam(params, 'end');
  if (start !== undefined && end !== undefined && end < start) throw new ApiError(400, `end ${end} is before start ${start}.`, 'BAD_INPUT');
  let file = path;
  let symbol: CodeResponse['symbol'] = null;
  if (symbolName !== undefined) {
    const located = await runTool<ViewData>(ctx, 'view_code', { ...(path ? { file: path } : {}), symbol: symbolName, budget_tokens: 200, ...repoArg(params) });
    file = located.data.path;
    symbol = located.data.symbol;
    if (start === undefined) {
      start = located.data.start;
      end = located.data.end;
    }
  }
  const { data, repo } = await runTool<ViewData>(ctx, 'view_code', { file, budget_tokens: 200, ...repoArg(params) });
  let highlight: CodeResponse['highlight'] = null;
  if (start !== undefined && data.lineCount > 0) {
    const first = Math.min(start, data.lineCount);
    highlight = { start: first, end: Math.max(first, Math.min(end ?? start, data.lineCount)) };
  }
  let firstLine = 1;
  let lines = data.lines;
  if (lines.length > MAX_CODE_LINES) {
    const centre = highlight?.start ?? 1;
    firstLine = Math.max(1, Math.min(centre - MAX_CODE_LINES / 4, data.lineCount - MAX_CODE_LINES + 1));
    lines = lines.slice(firstLine - 1, firstLine - 1 + MAX_CODE_LINES);
  }
  return { repo, path: data.path, language: data.language, lineCount: data.lineCount, firstLine, lines, highlight, symbol };
}

function optional(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name);
  return value === null || value.trim() === '' ? undefined : value;
}

function required(params: URLSearchParams, name: string, what: string): string {
  const value = optional(params, name);
  if (value === undefined) throw new ApiError(400, `Give ${what}.`, 'BAD_INPUT');
  return value;
}

function repoArg(params: URLSearchParams): { repo?: string } {
  const repo = optional(params, 'repo');
  return repo ? { repo } : {};
}

function lineParam(params: URLSearchParams, name: string): number | undefined {
  const value = optional(params, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,8}$/.test(value.trim()) || Number(value) < 1) throw new ApiError(400, `${name} must be a line number (1 or more), not '${value.slice(0, 40)}'.`, 'BAD_INPUT');
  return Number(value);
}
