/**
 * The JSON shapes of the web view's API (`/api/*`). Types only, so the
 * browser bundle (web/) can import them without pulling in server code.
 * Lines are 1-based and inclusive everywhere, as in the tools.
 */
import type { RankedSpan, SearchResultJson } from '../scaffold/index.js';
import type { SymbolKind } from '../parse/index.js';
import type { AskTrace } from '../agents/ask/index.js';
import type { AnalysisDocument, LocbenchSummary } from '../eval/index.js';
import type { SweqaSummary } from '../eval/sweqa/index.js';
import type { ChangedFilesData, RepoMapData } from '../tools/index.js';

/** Every error answer: one sentence the page shows as it is. */
export interface ApiErrorBody {
  error: string;
  /** A stable code (ReponavError codes, `NOT_FOUND`, `INDEXING`, …). */
  code?: string;
  /** Set while the repository is still being indexed (status 503); the client retries. */
  indexing?: { done: number; total: number | null };
}

/** Which repository and commit answered (team server: every repository answer carries it). */
export interface AnsweredFrom {
  repo: string;
  commit: string;
}

/** `GET /api/info`. */
export interface InfoResponse {
  version: string;
  repositories: Array<{ name: string; root: string }>;
  /** Set by the team server (`reponav serve`): who is signed in and the freshness of each visible repository. */
  team?: {
    token: string;
    /**
     * lagCommits / lagSeconds: heads git named after the served one and seconds since the first (null while the head
     * cannot be read: headError says why); lastError: the head unreadable or its build failing, as fleet list gives it.
     */
    repositories: Array<{
      name: string;
      branch: string;
      servedCommit: string | null;
      headCommit: string | null;
      lagCommits: number | null;
      lagSeconds: number | null;
      headError: string | null;
      lastError: { message: string; at: Date | string | null } | null;
    }>;
  };
}

/** `GET /api/files?repo=`: indexed paths, sorted. */
export interface FilesResponse {
  repo: string;
  paths: string[];
  /** True when the list was cut at its cap. */
  truncated: boolean;
}

/**
 * `GET /api/search?q=&file_pattern=&repo=`: the one search result shape
 * (scaffold/search-result-json.ts, the same as `reponav search --json` and the
 * `search` tool's structured output) plus the repository and the scaffold text.
 */
export interface SearchResponse extends SearchResultJson {
  repo: string;
  /** The scaffold exactly as the `search` tool renders it for an agent. */
  text: string;
}

export type { RankedSpan };

/** `GET /api/code?path=&start=&end=&symbol=&repo=`: numbered lines with a span to highlight. */
export interface CodeResponse {
  repo: string;
  path: string;
  language: string;
  lineCount: number;
  /** Line number of `lines[0]` (1 unless a very long file was windowed). */
  firstLine: number;
  lines: string[];
  /** The span to highlight, clamped to the file, or null. */
  highlight: { start: number; end: number } | null;
  /** The symbol asked for, when one was found. */
  symbol: { qualifiedName: string; kind: string } | null;
}

/** One symbol of an outline, with its same-file call edges. */
export interface OutlineSymbol {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  parent: string | null;
  startLine: number;
  endLine: number;
  signature: string;
  doc: string | null;
  bases: string[];
  /** Same-file symbols this one calls (qualified names). */
  invokes: string[];
  /** Same-file symbols calling this one. */
  invokedBy: string[];
}

/** `GET /api/symbols?path=&repo=`: a file's list_symbols skeleton as a tree-ready list. */
export interface OutlineResponse {
  repo: string;
  path: string;
  language: string;
  lineCount: number | null;
  status: string;
  errorCount: number;
  /** Imports as written (`os.path`, `./util {a, b}`). */
  imports: string[];
  /** Indexed files this one imports (resolved). */
  importsFiles: string[];
  /** Indexed files importing this one. */
  importedBy: string[];
  /** Symbols in document order. */
  symbols: OutlineSymbol[];
  /** The list_symbols text an agent would read. */
  text: string;
}

/** `GET /api/trace?path=` or `POST /api/trace`: a validated ask trace. */
export interface TraceResponse {
  source: string;
  /** The trace as read; fields the view does not need are passed through unchecked. */
  trace: AskTrace;
  /** Non-fatal problems (e.g. a node whose parent is missing). */
  warnings: string[];
}

/** A report the Reports view can draw. */
export type LoadedReport =
  | { kind: 'locbench'; source: string; summary: LocbenchSummary }
  | { kind: 'sweqa'; source: string; summary: SweqaSummary }
  /** An `eval analyze` document (analysis.json). */
  | { kind: 'analysis'; source: string; document: AnalysisDocument };

/** `GET /api/report?path=` or `POST /api/report`. */
export type ReportResponse = LoadedReport;

/** `GET /api/map?focus=&budget=&repo=`: the repo_map tool's machine form, its text and the repository. */
export interface MapResponse extends RepoMapData {
  repo: string;
  /** The map exactly as the repo_map tool renders it for an agent. */
  text: string;
}

/** `GET /api/changes?from=&to=&repo=`: the changed_files tool's machine form, its text and the repository. */
export interface ChangesResponse extends ChangedFilesData {
  repo: string;
  text: string;
}
