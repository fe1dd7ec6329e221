/**
 * A running reponav MCP service: the opened repositories, the tool registry
 * and the shared context, from which one MCP server per connection is made.
 * Transports (stdio, HTTP, in-memory for tests) attach to it.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { SearchOptions } from '../retrieve/index.js';
import { RepositorySet, type RepositorySpec } from '../tools/index.js';
import { createToolRegistry, type ToolRegistry, type ToolRegistryOptions } from '../tools/index.js';
import { TOOL_NAMES, toolsWithRerank, type ToolBudgets, type ToolContext } from '../tools/index.js';
import { ReponavError } from '../errors.js';
import { createMcpServer } from './mcp-server.js';
import { BoundedStdioTransport } from './stdio-transport.js';

/** How long a call waits for indexing before answering "still indexing" (clients time out near 60 s). */
export const DEFAULT_INDEX_WAIT_MS = 45_000;

export interface McpServiceOptions {
  /** At least one repository. Names default to unique folder basenames. */
  repositories: readonly RepositorySpec[];
  logger?: Logger;
  budgets?: ToolBudgets;
  /** Default DEFAULT_INDEX_WAIT_MS; Infinity waits for indexing however long it takes. */
  indexWaitMs?: number;
  /** Default: the built-in tools chosen by `tools`. */
  registry?: ToolRegistry;
  /**
   * Which built-in tools to offer (ignored with `registry`). By default every
   * tool except OPT_IN_TOOLS: the git change tools, and `semantic_search`
   * without an embedder (without one it is BM25 over the same index as
   * snippet_search, and two tools for one job make a model guess). Naming one
   * in `include` offers it; `default` in `include` stands for the default set.
   */
  tools?: { include?: readonly string[]; exclude?: readonly string[] };
  maxFileBytes?: number;
  /** `--include` / `--exclude` globs for every repository (stored with each index; see OpenRepositoryOptions). */
  include?: string[];
  exclude?: string[];
  fuse?: SearchOptions['fuse'];
  /** Opt-in dense retrieval (see ToolContext.embedder). */
  embedder?: ToolContext['embedder'];
  scaffold?: ToolContext['scaffold'];
  /** A model reranker: `search` then takes `rerank: true` (see ToolContext.reranker); without one it does not. */
  reranker?: ToolContext['reranker'];
  /** What orders `search`'s candidates (ToolContext.ranker); default `hand`. */
  ranker?: ToolContext['ranker'];
  /**
   * Advertise output schemas and send structuredContent (the budgeted
   * envelope, see ToolContext.structuredOutput). Default off: the answer is
   * the text alone, which is what every client then passes to its model.
   */
  structured?: boolean;
}

/**
 * Tools left out of the default list (each costs every client its listing on
 * every connection): the git change tools, which answer only in a git
 * repository and serve reviews more than localization, and semantic_search
 * without an embedder. Naming one in `include` offers it.
 */
export const OPT_IN_TOOLS: readonly string[] = ['semantic_search', 'changed_files', 'diff', 'file_history', 'blame_lines'];

/** The word in `include` that stands for the default set (`--tools default,changed_files,diff`). */
export const DEFAULT_TOOLS_WORD = 'default';

/** The registry options for `options.tools` (see McpServiceOptions.tools). Throws BAD_INPUT for an unknown tool name, or when no tool is left. */
export function offeredTools(options: Pick<McpServiceOptions, 'tools' | 'embedder' | 'fuse'>): ToolRegistryOptions {
  const named = options.tools?.include;
  const exclude = [...(options.tools?.exclude ?? [])];
  const dense = options.embedder !== undefined || options.fuse !== undefined;
  for (const name of [...(named ?? []).filter((n) => n !== DEFAULT_TOOLS_WORD), ...exclude]) {
    if (!(TOOL_NAMES as readonly string[]).includes(name)) {
      throw new ReponavError('BAD_INPUT', `Unknown tool '${name.slice(0, 100)}'; the tools are ${TOOL_NAMES.join(', ')} (or ${DEFAULT_TOOLS_WORD} for the default set).`);
    }
  }
  const optIn = OPT_IN_TOOLS.filter((name) => !(name === 'semantic_search' && dense));
  const defaults = TOOL_NAMES.filter((name) => !optIn.includes(name));
  // `default` in the list expands to the default set; without the word the list is exactly the tools named.
  const include = named?.includes(DEFAULT_TOOLS_WORD) ? [...new Set([...defaults, ...named.filter((n) => n !== DEFAULT_TOOLS_WORD)])] : named;
  if (include === undefined) for (const name of optIn) if (!exclude.includes(name)) exclude.push(name);
  const left = TOOL_NAMES.filter((name) => (include === undefined || include.includes(name)) && !exclude.includes(name));
  if (left.length === 0) {
    throw new ReponavError('BAD_INPUT', `No tool is left to offer: --tools ${(include ?? []).join(',') || '(all)'} with --exclude-tools ${(options.tools?.exclude ?? []).join(',')}; drop one of the names from --exclude-tools.`);
  }
  return { include, exclude };
}

/** The service: shared state plus a factory of per-connection MCP servers. */
export interface McpService {
  readonly context: ToolContext;
  readonly registry: ToolRegistry;
  /** A new MCP server for one connection (stdio pipe, HTTP session, in-memory pair). */
  createSession(): McpServer;
  /** Closes the repositories (after running refreshes finish). */
  close(): Promise<void>;
}

/** Opens the repositories (without indexing them: the first call does) and builds the service. */
export async function openMcpService(options: McpServiceOptions): Promise<McpService> {
  const logger = options.logger ?? silentLogger;
  offeredTools(options); // throws on an unknown tool name before anything is opened
  const repositories = await RepositorySet.open(options.repositories, { logger, maxFileBytes: options.maxFileBytes, include: options.include, exclude: options.exclude });
  return createMcpService(repositories, options);
}

/** Builds the service over repositories the caller opened (and now hands over: close() closes them). */
export function createMcpService(repositories: RepositorySet, options: Omit<McpServiceOptions, 'repositories' | 'maxFileBytes' | 'include' | 'exclude'> = {}): McpService {
  const registry = options.registry ?? createToolRegistry({ ...offeredTools(options), ...(options.reranker ? { tools: toolsWithRerank() } : {}) });
  const context: ToolContext = {
    repositories,
    logger: options.logger ?? silentLogger,
    budgets: options.budgets,
    indexWaitMs: options.indexWaitMs ?? DEFAULT_INDEX_WAIT_MS,
    fuse: options.fuse,
    embedder: options.embedder,
    scaffold: options.scaffold,
    ...(options.reranker ? { reranker: options.reranker } : {}),
    ...(options.ranker ? { ranker: options.ranker } : {}),
    ...(options.structured ? { structuredOutput: true } : {}),
  };
  return {
    context,
    registry,
    createSession: () => createMcpServer(registry, context),
    close: () => repositories.close(),
  };
}

/** A service connected to this process's stdin/stdout. */
export interface StdioConnection {
  /** Resolves when the client goes away (stdin ends or the transport closes). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves MCP over stdio, in the protocol era the client opens with (2026-07-28
 * or a 2025 revision; the SDK's serveStdio decides once per connection).
 * stdout carries only protocol messages from now on; everything else must go
 * to stderr (the Logger does). Oversized or malformed lines are answered with
 * a JSON-RPC error and the connection stays up (BoundedStdioTransport).
 */
export async function serveStdio(service: McpService, streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {}): Promise<StdioConnection> {
  const stdin = (streams.stdin ?? process.stdin) as NodeJS.ReadStream;
  const stdout = (streams.stdout ?? process.stdout) as NodeJS.WriteStream;
  const logger = service.context.logger ?? silentLogger;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  // The transport closes when stdin ends (the client went away) or on an output error.
  const transport = new BoundedStdioTransport(stdin, stdout, { onRefused: (reason) => logger.warn(reason), onClosed: () => resolveClosed() });
  const handle = sdkServeStdio(() => service.createSession(), {
    transport,
    onerror: (error) => logger.debug(`stdio: ${error.message}`),
  });
  return {
    closed,
    async close() {
      await handle.close().catch(() => undefined);
      resolveClosed();
    },
  };
}
