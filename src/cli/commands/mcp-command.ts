/**
 * `reponav mcp`: serve the tools to MCP clients (Claude Code, Cursor, …) over
 * stdio (default) or Streamable HTTP. stdout belongs to the protocol in stdio
 * mode: everything human-readable goes to stderr.
 */
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { DEFAULT_RANKER, RANKER_KINDS, type RankerKind } from '../../retrieve/index.js';
import { isReponavError, ReponavError } from '../../errors.js';
import { isLoopbackHost, MCP_PATH, startHttpServer, type RunningHttpServer } from '../../mcp-server/index.js';
import { answerStartupFailure, DEFAULT_INDEX_WAIT_MS, DEFAULT_TOOLS_WORD, OPT_IN_TOOLS, offeredTools, openMcpService, serveStdio, type McpService, type McpServiceOptions } from '../../mcp-server/index.js';
import { addPathRuleOptions, cliLogger } from '../cli-context.js';
import { addHiddenAlias } from '../option-aliases.js';
import { keepProcessAlive } from '../process-exit.js';
import { collect, commaList, fileSize, port, seconds, tokenBudget } from '../option-parsers.js';
import { addEmbedderOptions, type EmbedderFlags } from '../embedder-options.js';
import { createEmbedder } from '../../retrieve/dense/index.js';
import { clientHttpSnippet, clientSnippet, MCP_CLIENTS, mcpClientOf, type ClientSnippet, type McpClient } from '../mcp-client-config.js';
import { addRerankOptions, rerankerFromFlags, type RerankFlags } from './rerank-localize.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface McpCommandOptions extends Pick<EmbedderFlags, 'embedder' | 'embedModel' | 'embedBaseUrl'>, RerankFlags {
  ranker: RankerKind;
  repo: string[];
  include?: string[];
  exclude?: string[];
  commit?: string;
  http?: number;
  host: string;
  token?: string;
  allowOrigin: string[];
  budgetTokens?: number;
  maxBudgetTokens?: number;
  indexWait: number;
  maxFileSize?: number;
  tools?: string[];
  excludeTools?: string[];
  quiet?: boolean;
  verbose?: boolean;
  printConfig?: string;
  structured?: boolean;
}

/** A comma-separated list from an environment variable (MCP client configs set `env`, not flags, more easily). */
function envList(name: string): string[] | undefined {
  const items = (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/**
 * Runs the server's start-up; over stdio, a failure (an index that cannot be
 * opened, a native module built for another Node) is also answered to the
 * client's first request before the error goes on to stderr and the exit code,
 * so the client shows the reason instead of "Connection closed".
 */
async function startOrTellClient<T>(options: McpCommandOptions, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (caught) {
    if (options.http !== undefined) throw caught;
    const error = isReponavError(caught) ? caught : (await import('../../index/index.js')).describeOpenFailure(null, caught);
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    await answerStartupFailure(message);
    throw error;
  }
}

/**
 * Prints the snippet for `--print-config CLIENT` on stdout (where it goes on
 * stderr). Over stdio: this Node and this script by absolute path, the
 * repositories as absolute paths, the tool choice, --structured and the cache
 * folder of this invocation. With `--http PORT`: the client's own HTTP form for
 * the server this command would start, its token named by environment variable.
 * An unknown client, or a form the client does not have, is a usage error (exit 2).
 */
function printClientConfig(options: McpCommandOptions, command: Command, io: CliIo): void {
  let snippet: ClientSnippet;
  try {
    const client = mcpClientOf(options.printConfig!);
    snippet = options.http !== undefined ? httpSnippetOf(client, options) : stdioSnippetOf(client, options);
  } catch (error) {
    return command.error(`error: ${error instanceof Error ? error.message : String(error)}`, { exitCode: 2, code: 'reponav.mcp.print-config' });
  }
  io.stdout.write(`${snippet.text}\n`);
  io.stderr.write(`${snippet.where}\n`);
}

function stdioSnippetOf(client: McpClient, options: McpCommandOptions): ClientSnippet {
  const repos = (options.repo.length > 0 ? options.repo : ['.']).map((path) => resolve(path));
  const args = ['mcp', ...repos.flatMap((path) => ['--repo', path])];
  if (options.commit !== undefined) args.push('--commit', options.commit);
  if (options.tools) args.push('--tools', options.tools.join(','));
  if (options.excludeTools) args.push('--exclude-tools', options.excludeTools.join(','));
  if (options.structured) args.push('--structured');
  const cache = process.env.REPONAV_CACHE_DIR;
  return clientSnippet(client, {
    node: process.execPath,
    script: realpathSync(process.argv[1]),
    args,
    env: cache ? { REPONAV_CACHE_DIR: resolve(cache) } : {},
  });
}

/** The environment variable a server's bearer token is read from (`--token` itself is never printed). */
const TOKEN_ENV = 'REPONAV_MCP_TOKEN';

function httpSnippetOf(client: McpClient, options: McpCommandOptions): ClientSnippet {
  if (options.http === 0) throw new ReponavError('BAD_INPUT', '--print-config needs the port the server listens on; --http 0 picks a free port only when the server starts.');
  const wildcard = ['0.0.0.0', '::', ''].includes(options.host);
  const host = wildcard ? hostname() : options.host.includes(':') ? `[${options.host}]` : options.host;
  const tokened = options.token !== undefined || Boolean(process.env[TOKEN_ENV]) || !isLoopbackHost(options.host);
  return clientHttpSnippet(client, { url: `http://${host}:${options.http}${MCP_PATH}`, ...(tokened ? { tokenEnv: TOKEN_ENV } : {}) });
}

/**
 * Registers `reponav mcp [--repo PATH]... [--http PORT] [--host HOST] [--token TOKEN]
 * [--allow-origin ORIGIN]... [--budget-tokens N] [--max-budget-tokens N] [--index-wait SECONDS]`.
 * Its messages go to `io`; the stdio server itself speaks on the process's own stdin and stdout.
 */
export function registerMcpCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program.command('mcp');
  addEmbedderOptions(command, { fusion: false, reembed: false });
  command
    .exitOverride()
    .description('serve the reponav tools over MCP: stdio by default, Streamable HTTP with --http')
    .addOption(
      new Option('--repo <path>', 'repository to serve (repeat for several; tools then take a repo name argument)')
        .argParser(collect)
        .default([], 'the current folder'),
    )
    .option('--commit <rev>', 'serve this commit of the repository (a git dir or work tree) without a checkout; one --repo only')
    .option('--http <port>', 'serve Streamable HTTP on this port (0 = any free port) instead of stdio', port)
    .option('--host <host>', 'HTTP bind address; a non-loopback address requires --token', '127.0.0.1')
    .option('--token <token>', 'HTTP bearer token clients must send (default: $REPONAV_MCP_TOKEN)')
    .addOption(new Option('--allow-origin <origin>', 'HTTP: also accept requests from this browser Origin (repeatable)').argParser(collect).default([], 'none'))
    .option('--budget-tokens <n>', 'default output budget of every tool, in estimated tokens', tokenBudget())
    .option('--max-budget-tokens <n>', 'cap on any output budget, including per-call budget_tokens (default 20000)', tokenBudget())
    .option('--index-wait <seconds>', 'answer "still indexing" instead of waiting longer than this for indexing', seconds, DEFAULT_INDEX_WAIT_MS / 1000)
    .option('--max-file-size <size>', 'skip files larger than this (e.g. 512k, 2m)', fileSize)
    .option(
      '--tools <names>',
      `offer only these tools, comma-separated; \`${DEFAULT_TOOLS_WORD}\` stands for the default set (default: $REPONAV_MCP_TOOLS, else every tool but ${OPT_IN_TOOLS.join(', ')}; semantic_search is in it with an embedder)`,
      commaList('tool name'),
    )
    .option('--exclude-tools <names>', 'do not offer these tools, comma-separated (default: $REPONAV_MCP_EXCLUDE_TOOLS)', commaList('tool name'))
    .addOption(new Option('--ranker <kind>', 'what orders search candidates: auto (the shipped LambdaMART model where it passed its evaluation, the tuned combination elsewhere), hand (the tuned combination) or learned (the model at every level, for every query)').choices(RANKER_KINDS).default(DEFAULT_RANKER))
    .option('--structured', 'also send structuredContent (the answer text first, the JSON data within the same budget) and list output schemas')
    .option('--print-config <client>', `print a ready snippet that starts this server from an MCP client (${MCP_CLIENTS.join(', ')}), or with --http connects to it, and exit`)
    .option('-q, --quiet', 'log only errors on stderr')
    .option('--verbose', 'log debug messages on stderr');
  addRerankOptions(command, 'offer `rerank` on the search tool');
  addPathRuleOptions(command);
  addHiddenAlias(command, '--max-file-bytes <size>', '--max-file-size <size>', fileSize);
  return command.action(async (options: McpCommandOptions) => {
      if (options.printConfig !== undefined) return printClientConfig(options, command, io);
      const tools = { include: options.tools ?? envList('REPONAV_MCP_TOOLS'), exclude: options.excludeTools ?? envList('REPONAV_MCP_EXCLUDE_TOOLS') };
      try {
        // Only whether an embedder is set matters here (it decides whether semantic_search is offered by default).
        offeredTools({ tools, embedder: options.embedder ? ({} as McpServiceOptions['embedder']) : undefined });
      } catch (error) {
        // A tool choice that names no tool, or an unknown one, is a usage error: nothing was started.
        command.error(`error: ${error instanceof Error ? error.message : String(error)}`, { exitCode: 2, code: 'reponav.mcp.tools' });
      }
      const logger = cliLogger(options, io);
      const token = options.token ?? process.env.REPONAV_MCP_TOKEN ?? undefined;
      const paths = options.repo.length > 0 ? options.repo : ['.'];
      if (options.commit !== undefined && paths.length > 1) {
        throw new ReponavError('BAD_INPUT', `--commit serves one repository, but ${paths.length} --repo paths were given; start one server per commit.`);
      }
      const service: McpService = await startOrTellClient(options, () => openMcpService({
        repositories: paths.map((path) => ({ path, commit: options.commit })),
        logger,
        budgets: { defaultTokens: options.budgetTokens, maxTokens: options.maxBudgetTokens },
        indexWaitMs: options.indexWait * 1000,
        maxFileBytes: options.maxFileSize,
        include: options.include,
        exclude: options.exclude,
        tools,
        // Chunks are embedded lazily, on the first search of each repository.
        embedder: options.embedder
          ? createEmbedder({ kind: options.embedder, model: options.embedModel, baseUrl: options.embedBaseUrl, logger })
          : undefined,
        reranker: rerankerFromFlags(options, logger),
        ranker: options.ranker,
        structured: options.structured === true,
      }));
      const names = service.context.repositories
        .all()
        .map((r) => `${r.name}=${r.root}`)
        .join(', ');

      let http: RunningHttpServer | null = null;
      let stopStdio: (() => Promise<void>) | null = null;
      let stopping = false;
      const shutdown = async (code: number) => {
        if (stopping) return;
        stopping = true;
        await Promise.allSettled([http?.close(), stopStdio?.()]);
        await service.close().catch(() => undefined);
        process.exit(code);
      };
      process.once('SIGINT', () => void shutdown(130));
      process.once('SIGTERM', () => void shutdown(143));

      if (options.http !== undefined) {
        try {
          http = await startHttpServer({
            port: options.http,
            host: options.host,
            token,
            allowedOrigins: options.allowOrigin,
            createSession: () => service.createSession(),
            logger,
          });
        } catch (error) {
          await service.close().catch(() => undefined);
          throw error;
        }
        keepProcessAlive();
        if (!options.quiet) io.stderr.write(`reponav MCP server listening on ${http.url} (${names})${token ? ', bearer token required' : ''}\n`);
        return;
      }
      const connection = await serveStdio(service);
      stopStdio = () => connection.close();
      logger.info(`reponav MCP server on stdio (${names})`);
      await connection.closed;
      await shutdown(0);
    });
}
