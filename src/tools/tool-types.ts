/**
 * The shape every reponav tool shares, so that the MCP server, the CLI and the
 * agents run the same definition: one name, one LLM-facing description, one zod
 * input schema, one handler, one text renderer and one default output budget.
 */
import type { $ZodType, ZodMiniType } from '../zod-mini.js';
import type { Logger } from '../logger.js';
import type { SearchOptions } from '../retrieve/index.js';
import type { Embedder } from '../retrieve/dense/index.js';
import type { FunctionReranker } from '../retrieve/rerank/index.js';
import type { ScaffoldOptions } from '../scaffold/index.js';
import type { RepositoryHandle, RepositorySet } from './repository-set.js';

/** Names of the built-in tools, in the order they are listed to clients. */
export const TOOL_NAMES = [
  'search',
  'snippet_search',
  'semantic_search',
  'list_symbols',
  'find_class',
  'find_function',
  'find_references',
  'find_code_snippet',
  'regex_search',
  'view_code',
  'list_files',
  'repo_map',
  'changed_files',
  'diff',
  'file_history',
  'blame_lines',
  'index_status',
  'reindex',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/** Indexing progress of one repository, as reported while a tool waits for its index. */
export interface ToolProgress {
  repository: string;
  done: number;
  total: number;
  message: string;
}

/** Output budgets, in o200k tokens as budget/token-budget.ts estimates them. */
export interface ToolBudgets {
  /** Overrides every tool's built-in default. */
  defaultTokens?: number;
  /** Per-tool defaults (win over defaultTokens). */
  perTool?: Partial<Record<string, number>>;
  /** Upper bound of any budget, including one asked for per call. Default 20000. */
  maxTokens?: number;
}

/**
 * What a tool call runs with. Long-lived parts (repositories, logger, budgets,
 * fuse) are shared by a server; per-call parts (onProgress, signal) are set by
 * the caller for one call.
 */
export interface ToolContext {
  repositories: RepositorySet;
  logger?: Logger;
  budgets?: ToolBudgets;
  /** Called while the call waits for (re)indexing; never called once the tool body runs. */
  onProgress?: (progress: ToolProgress) => void;
  signal?: AbortSignal;
  /**
   * How long a call waits for indexing before answering "still indexing, call
   * again" (the index keeps building in the background), counted from when
   * the call's refresh starts indexing: a check that finds nothing changed is
   * always waited for. Default: no limit.
   */
  indexWaitMs?: number;
  /** Dense retrieval fused with the lexical hits (search, snippet_search, semantic_search); wins over `embedder`. */
  fuse?: SearchOptions['fuse'];
  /**
   * Opt-in dense retrieval for every repository: each search fuses BM25 with
   * this embedder's nearest chunks (RRF), embedding chunks that have no vector
   * yet; an embedder failure falls back to lexical results.
   */
  embedder?: Embedder;
  /**
   * A model reranker (`--rerank-model`): the `search` tool of a registry built
   * with `toolsWithRerank()` takes `rerank: true` and has this model order
   * its top functions. Absent: no reranking is offered.
   */
  reranker?: FunctionReranker;
  /** Which combination orders `search`'s candidates: `auto` (default), `hand` or `learned` (SearchOptions.ranker). */
  ranker?: SearchOptions['ranker'];
  /** Scaffold knobs for `search` (ablations); its budget always comes from the call's budget. */
  scaffold?: Omit<ScaffoldOptions, 'budgetTokens'>;
  /**
   * The first index of a never-indexed working tree is being built by another
   * process (the CLI starts a detached `reponav index`): a tool with a
   * provisional answer gives it at once instead of indexing within this call.
   */
  firstIndexElsewhere?: boolean;
  /**
   * With firstIndexElsewhere: that build failed; `reason` is its error (a
   * full disk, say) and `retry` what to run to retry it. The provisional
   * answer says both instead of "being built".
   */
  firstIndexFailure?: { reason: string; retry: string };
  /**
   * What builds the first index when this process cannot (the CLI:
   * `reponav index ROOT`): named when a focused first index found that the
   * index cannot be written (a full disk, say), as what to run once that is
   * fixed. Without it, the answer says the next call tries again.
   */
  firstIndexRetry?: string;
  /**
   * Set by callTool, not by callers: why a focused first index could not be
   * written (its INDEX_UNAVAILABLE error). The provisional answer then says
   * the index cannot be built, why and what to do, instead of "being built".
   */
  firstIndexUnbuildable?: string;
  /**
   * The first search (a tool with a provisional answer) on a never-indexed
   * working tree that a focused index would not take whole (more than its
   * seeds may number or weigh; see focused-answer.ts): unless `false`, it
   * indexes the files the text scan ranks first and their neighbours, and
   * answers from that partial index, saying so (tools/focused-answer.ts).
   */
  focusedFirstIndex?: boolean;
  /**
   * After a focused first index: starts the whole index (the CLI starts a
   * detached `reponav index`). Default: this process refreshes the
   * repository in the background. With `unbuildable` (why the focused index
   * could not be written: a full disk, say) a whole build would fail the same
   * way: the CLI starts none and keeps the reason for its next command.
   */
  continueFirstIndex?: (unbuildable?: string) => void;
  /**
   * Who reads the answers: an MCP client (default) or a person at the CLI,
   * whose error messages must not speak of a server that keeps running.
   */
  surface?: 'mcp' | 'cli';
  /**
   * `reponav mcp --structured`: a tool with an outputSchema answers, as its
   * data, the envelope `{ text, ...json }` whose JSON stays within the call's
   * budget (tools/structured-envelope.ts), because structuredContent-first
   * clients pass that JSON to the model instead of the text. Default: off, and
   * no structuredContent is sent.
   */
  structuredOutput?: boolean;
}

/** A rendered answer and its machine form. */
export interface ToolAnswer {
  text: string;
  data: unknown;
}

/** What a tool's handler sees: its repository (already fresh unless `freshness: 'as-is'`) and its budget. */
export interface ToolEnvironment {
  repository: RepositoryHandle;
  context: ToolContext;
  /** This call's output budget in estimated tokens (already resolved and capped). */
  budgetTokens: number;
  /**
   * The budget the caller asked for (`budget_tokens`, or a per-tool / default budget of the
   * context), or null: a machine form (toJson) is cut only to an asked budget.
   */
  askedBudgetTokens?: number | null;
  logger: Logger;
}

/** One tool, defined once. `Args` is the parsed input; `Data` is what the handler returns. */
export interface ToolDefinition<Args = any, Data = any> {
  name: ToolName | string;
  title: string;
  /** Written for an LLM: what the tool answers, when to use it, what the arguments mean. */
  description: string;
  /**
   * A strict zod object schema (`zod/mini`, see tool-args.ts): an unknown argument name and a wrong type are tool
   * errors (callTool names the closest argument; numeric strings for number arguments are converted, strict-args.ts).
   */
  inputSchema: ZodMiniType<Args>;
  /** Default output budget in estimated tokens. */
  defaultBudgetTokens: number;
  /**
   * `fresh` (default): the repository is refreshed (a cheap stat check) before
   * the handler runs, so answers match the working tree. `as-is`: the handler
   * sees the index as it is (index_status reports staleness; reindex refreshes itself).
   */
  freshness?: 'fresh' | 'as-is';
  /** Runs the tool. Throw ReponavError for bad input: it becomes a tool error with its message. */
  run(args: Args, env: ToolEnvironment): Promise<Data> | Data;
  /**
   * Optional: the answer while a working tree's first index is still being
   * built (the call stopped waiting for it, or another process builds it), in
   * place of "call again". Marked provisional in its text and data; its text
   * stays within `env.budgetTokens` like render's.
   */
  provisional?(args: Args, env: ToolEnvironment): Promise<ToolAnswer>;
  /** The text an agent reads; must stay within `env.budgetTokens` and say what it left out. */
  render(data: Data, env: ToolEnvironment): string;
  /** The machine form (CLI `--json`); default: `data` itself. */
  toJson?(data: Data, env: ToolEnvironment): unknown;
  /**
   * The shape of `toJson`'s output, when it is a documented contract. With
   * `reponav mcp --structured` the MCP server advertises it (behind a `text`
   * field, nulls as absent fields) as the tool's `outputSchema` and sends the
   * budgeted envelope as `structuredContent`; by default neither. Every field
   * must be optional (the envelope cuts data to the budget), and it must admit
   * the "still indexing" answer (`{ indexing: true, ... }`).
   */
  outputSchema?: $ZodType;
  /**
   * `all` (index_status): with several repositories and no `repo` argument the
   * handler runs with the first repository as `env.repository` and answers
   * about all of them, instead of the call being refused for a missing repo.
   */
  repositoryOmitted?: 'refuse' | 'all';
  /** True for a tool that changes state (the index): MCP clients then see `readOnlyHint: false`. */
  writesIndex?: boolean;
}

/** Any tool (the registry is heterogeneous). */
export type AnyToolDefinition = ToolDefinition<any, any>;

/** A fixed, ordered set of tools by name (createToolRegistry builds one). */
export interface ToolRegistry {
  readonly tools: ReadonlyMap<string, AnyToolDefinition>;
  /** Tools in listing order. */
  list(): AnyToolDefinition[];
  get(name: string): AnyToolDefinition | undefined;
}

/** The answer of one tool call, whatever the transport. */
export interface ToolCallResult {
  /** The rendered answer, or the error message when `isError`. */
  text: string;
  isError: boolean;
  /** The machine form of the answer (absent on errors). */
  data?: unknown;
  /** On errors: a stable code (ReponavError codes plus `UNKNOWN_TOOL`, `INVALID_ARGUMENTS`). */
  errorCode?: string;
}
