/**
 * `reponav serve`: the stateless team server. Every request carries a bearer
 * token (or, from the web view's pages, the same token in a session cookie),
 * checked against the hashed tokens in PostgreSQL; MCP (Streamable HTTP,
 * `/mcp`), the web view (team-web.ts) and the JSON status endpoints then see
 * only the repositories of the token's groups. `/webhook` takes signed push
 * events (push-webhook.ts). Shards come from the shard store into a bounded LRU
 * cache; a NOTIFY that a repository's new shard is ready fetches it ahead of
 * the first call when the repository is in use here. Any number of these run
 * behind a load balancer: nothing is kept between requests that another
 * server could not rebuild from PostgreSQL and the store.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import pg from 'pg';
import { ReponavError } from '../errors.js';
import { ApiError, sendApiError } from '../http-api/index.js';
import { SCHEMA_VERSION } from '../index/index.js';
import type { Logger } from '../logger.js';
import { checkRequest, createRoutedMcpServer } from '../mcp-server/index.js';
import { createToolRegistry } from '../tools/index.js';
import { authenticate, type Principal } from './access-tokens.js';
import { COMMIT_PURGED_CHANNEL, purgedAmong } from './commit-purge.js';
import { listRepos } from './catalog.js';
import { startHeartbeat } from './heartbeats.js';
import { JobQueue, type EnqueueOptions } from './job-queue.js';
import type { TeamDatabase } from './pg-database.js';
import { ShardCache } from './shard-cache.js';
import { freshness, markBroken, newestReadyShard, SHARD_READY_CHANNEL, type ShardRecord } from './shard-registry.js';
import type { ShardStore } from './shard-store.js';
import { handlePushWebhook } from './push-webhook.js';
import { serveMetrics, TeamMetrics } from './team-metrics.js';
import { shardLossText, teamRouter } from './team-router.js';
import { createTeamWeb, sessionToken } from './team-web.js';
import { countOf } from '../plural.js';

export interface TeamServerOptions {
  db: TeamDatabase;
  store: ShardStore;
  /** The local shard cache folder (emptied at start). */
  cacheDir: string;
  /** Largest total size of cached shards. */
  cacheBytes: number;
  /** `/healthz` answers 503 when the shard store has less free space than this (default DEFAULT_STORE_MIN_FREE). */
  storeMinFreeBytes?: number;
  port: number;
  host: string;
  /** Browser Origins accepted besides loopback ones (a browser page elsewhere is refused: DNS rebinding, cross-site requests). */
  allowedOrigins?: readonly string[];
  /** Accept signed push events at `/webhook` (off without a secret). */
  webhook?: { secret: string; enqueue?: EnqueueOptions };
  /** The bearer secret `/metrics` answers (off without one; group tokens never read metrics, which name every repository). */
  metricsToken?: string;
  /** Shown by the web view's /api/info. */
  version?: string;
  /** The web view's built front end; default `<package>/dist/web-ui`. */
  assetsDir?: string;
  logger: Logger;
}

export interface RunningTeamServer {
  id: string;
  url: string;
  port: number;
  cache: ShardCache;
  metrics: TeamMetrics;
  close(): Promise<void>;
}

/** Who the current request is, and what it may see. */
interface RequestScope {
  principal: Principal;
  visible: string[];
}

/**
 * Tools a team server does not offer: reindex writes an index (shards are
 * built by workers), semantic_search needs a local model, and the git tools
 * (changed_files, diff, file_history, blame_lines) need the repository's git
 * history, which a shard does not hold: the server never runs git or reads
 * its own disk for a caller (a served repository's root is only a name).
 */
export const EXCLUDED_TOOLS = ['reindex', 'semantic_search', 'changed_files', 'diff', 'file_history', 'blame_lines'];

/** How often a server checks its cached shards against the purged commits, besides when a purge is announced. */
const PURGE_SWEEP_MS = 30_000;

/** Free space below which a shard store is reported unhealthy: room for a few shards of a large repository. */
export const DEFAULT_STORE_MIN_FREE = 1024 ** 3;

/** Starts listening. */
export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  const { db, logger } = options;
  const id = `server-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const cache = new ShardCache(options.store, options.cacheDir, options.cacheBytes, logger);
  const registry = createToolRegistry({ exclude: EXCLUDED_TOOLS });
  // The queue takes the webhook's checks and the rebuilds of lost shards.
  const queue = await JobQueue.open(db, logger);
  const metrics = new TeamMetrics('serve', { db, queue, cache: () => cache.stats(), logger });
  const scope = new AsyncLocalStorage<RequestScope>();
  const usedRepos = new Set<string>();
  const base = { logger };
  const mcp = createMcpHandler(
    () => {
      const current = scope.getStore()!;
      const router = teamRouter(db, cache, current.visible, repair);
      const route = router.route;
      router.route = (tool, args, run) => {
        const repo = (args as { repo?: unknown } | undefined)?.repo;
        if (typeof repo === 'string') usedRepos.add(repo);
        const timer = metrics.toolSeconds.startTimer({ tool: tool.name });
        return route(tool, args, run).then(
          (result) => {
            timer({ outcome: result.isError ? 'error' : 'ok' });
            return result;
          },
          (error: unknown) => {
            timer({ outcome: 'error' });
            throw error;
          },
        );
      };
      return createRoutedMcpServer(registry, base, router);
    },
    { onerror: (error: Error) => logger.debug(`MCP HTTP: ${error.message}`) },
  );
  const serveMcp = toNodeHandler(mcp, { maxRequestBodySize: 1024 * 1024, onerror: (error) => logger.error(`MCP request failed: ${error.message}`) });
  let requests = 0;
  const web = createTeamWeb({ db, cache, logger, version: options.version ?? '0.0.0', assetsDir: options.assetsDir, excludedTools: EXCLUDED_TOOLS });
  const repair = async (shard: ShardRecord, error: ReponavError) => {
    const marked = await markBroken(db, shard.repo, shard.location, error.message);
    await queue.enqueue({ repo: shard.repo, commit: shard.commit, force: true }, options.webhook?.enqueue ?? {});
    if (marked) logger.warn(`${shardLossText(shard, error)} (${error.message})`);
  };

  /** The principal, counting a refused token. */
  const counted = async (check: Promise<Principal | null>) => {
    const principal = await check;
    if (!principal) metrics.authFailures.inc({ reason: 'invalid' });
    return principal;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/healthz') {
      const problems = await healthProblems(db, options.store, options.storeMinFreeBytes ?? DEFAULT_STORE_MIN_FREE);
      return sendJson(res, problems.length ? 503 : 200, problems.length ? { ok: false, id, problems } : { ok: true, id });
    }
    // Its own token, not a group token: metrics name every repository of the catalog.
    if (path === '/metrics') return serveMetrics(req, res, metrics, options.metricsToken, logger);
    // The same Host/Origin rules as the single-user MCP server; the token is checked against the database below.
    const refusal = checkRequest({ host: req.headers.host, origin: browserOrigin(req) }, { host: options.host, allowedOrigins: options.allowedOrigins });
    if (refusal) return sendJson(res, refusal.status, { error: refusal.message });
    if (path === '/webhook') {
      if (!options.webhook) return sendJson(res, 404, { error: 'The webhook is off; start reponav serve with a webhook secret.' });
      return handlePushWebhook({ db, queue, secret: options.webhook.secret, enqueue: options.webhook.enqueue, logger }, req, res);
    }
    if (path === '/login') return web.login(req, res, (token) => counted(authenticate(db, token)));
    if (path === '/logout') return web.logout(req, res);
    // MCP clients send a bearer header; the web view's pages send the session cookie instead.
    const token = tokenOf(req, path !== '/mcp');
    const principal = token ? await counted(authenticate(db, token)) : null;
    if (!principal) {
      const isPage = (req.method === 'GET' || req.method === 'HEAD') && path !== '/mcp' && !path.startsWith('/api/');
      // A browser's first visit to a page carries no token yet: not a failure.
      if (!token && !isPage) metrics.authFailures.inc({ reason: 'missing' });
      if (isPage) {
        res.writeHead(303, { Location: `${'../'.repeat(Math.max(0, path.split('/').length - 2))}login`, 'Cache-Control': 'no-store' });
        return void res.end();
      }
      return sendJson(res, 401, { error: 'A valid bearer token is required (Authorization: Bearer rnv_…); create one with reponav fleet token create.' }, { 'WWW-Authenticate': 'Bearer' });
    }
    const visible = (await listRepos(db, principal.groups)).map((r) => r.name);
    requests++;
    if (path === '/mcp') return scope.run({ principal, visible }, () => serveMcp(req, res));
    if (path === '/api/repos' && req.method === 'GET') {
      const rows = await freshness(db, visible, SCHEMA_VERSION);
      return sendJson(res, 200, { repositories: rows, answeredBy: id });
    }
    if (path === '/api' || path.startsWith('/api/')) return web.api(req, res, url, principal, visible);
    return web.page(req, res, path);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ApiError && !res.headersSent) return sendApiError(res, error);
      logger.error(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendJson(res, error instanceof ReponavError && error.code === 'TEAM_DATABASE' ? 503 : 500, { error: error instanceof ReponavError ? error.message : 'Internal error.' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => reject(new ReponavError('BAD_INPUT', `Cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'it is in use' : error.message}.`)));
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address() as AddressInfo;

  // Purged commits leave the cache when a purge is announced, and at each sweep (a purge announced while this server was not listening).
  const sweepPurged = async () => {
    const dropped = cache.drop(await purgedAmong(db, cache.held()));
    if (dropped > 0) logger.info(`dropped ${countOf(dropped, 'purged shard')} from the cache`);
  };
  const sweepTimer = setInterval(() => void sweepPurged().catch((error: Error) => logger.debug(`purge sweep: ${error.message}`)), PURGE_SWEEP_MS);
  sweepTimer.unref();
  const listener = listenForShards(db, logger, {
    async ready(repo) {
      // Fetch the new shard before the first call asks for it, when this server answers about that repository.
      if (!usedRepos.has(repo)) return;
      const shard = await newestReadyShard(db, repo, SCHEMA_VERSION);
      if (shard && !cache.has(shard.location)) (await cache.acquire(shard)).release();
    },
    purged: sweepPurged,
  });
  const heartbeat = startHeartbeat(db, { id, kind: 'server' }, () => ({ port: address.port, requests, cache: cache.stats() }), logger);

  return {
    id,
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    port: address.port,
    cache,
    metrics,
    async close() {
      listener.stop();
      clearInterval(sweepTimer);
      await heartbeat.stop();
      await mcp.close().catch(() => undefined);
      await queue.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await cache.close();
    },
  };
}

/** What keeps this server from answering: PostgreSQL unreachable, the shard store unreadable or short of `minFree` bytes (empty when healthy). */
async function healthProblems(db: TeamDatabase, store: ShardStore, minFree: number): Promise<string[]> {
  const problems: string[] = [];
  try {
    await db.query('SELECT 1', [], 0);
  } catch (error) {
    problems.push(`PostgreSQL: ${(error as Error).message.replace(/\.$/, '')}`);
  }
  const storeProblem = await store.check().catch((error: Error) => error.message);
  if (storeProblem) problems.push(`shard store ${store.description}: ${storeProblem}`);
  else if (store.freeBytes) {
    // A full store fails every build: said here before the builds fail.
    const free = await store.freeBytes().catch(() => null);
    if (free !== null && free < minFree) problems.push(`shard store ${store.description}: ${mib(free)} free, less than the ${mib(minFree)} threshold (--store-min-free)`);
  }
  return problems;
}

/**
 * The Origin to check. The web view's pages send no referrer, so the browser
 * sends `Origin: null` with their form posts and uploads; `Sec-Fetch-Site`
 * (set by the browser, not by the page) says whether such a request came from
 * this site's own pages, which are as welcome as a request without Origin.
 */
function browserOrigin(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  return origin === 'null' && req.headers['sec-fetch-site'] === 'same-origin' ? undefined : origin;
}

/** The caller's token: a bearer header, else (when `cookie`) the web view's session cookie. */
function tokenOf(req: IncomingMessage, cookie: boolean): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? (cookie ? sessionToken(req) : undefined);
}

function mib(bytes: number): string {
  return `${Math.floor(bytes / 1024 ** 2)} MiB`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * LISTEN on the shard-ready and commit-purged channels with its own
 * connection, reconnecting (with backoff) when PostgreSQL goes away; a missed
 * ready notification only costs a download at first use, and a missed purge is
 * caught by the next sweep (`purged` runs again at each reconnection too).
 */
function listenForShards(db: TeamDatabase, logger: Logger, on: { ready(repo: string): Promise<void>; purged(): Promise<void> }): { stop(): void } {
  let stopped = false;
  let client: pg.Client | null = null;
  let wait = 200;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: db.url, application_name: 'reponav-listen' });
    client = c;
    const retry = () => {
      if (client !== c || stopped) return;
      client = null;
      c.end().catch(() => undefined);
      setTimeout(connect, wait).unref();
      wait = Math.min(wait * 2, 5_000);
    };
    c.on('error', (error) => {
      logger.debug(`LISTEN connection: ${error.message}`);
      retry();
    });
    c.on('end', retry);
    c.on('notification', (message) => {
      if (message.channel === SHARD_READY_CHANNEL && message.payload) on.ready(message.payload).catch((error: Error) => logger.debug(`prefetch: ${error.message}`));
      if (message.channel === COMMIT_PURGED_CHANNEL) on.purged().catch((error: Error) => logger.debug(`purge sweep: ${error.message}`));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${SHARD_READY_CHANNEL}`);
      await c.query(`LISTEN ${COMMIT_PURGED_CHANNEL}`);
      wait = 200;
      await on.purged().catch((error: Error) => logger.debug(`purge sweep: ${error.message}`));
    } catch (error) {
      logger.debug(`LISTEN connect: ${(error as Error).message}`);
      retry();
    }
  };
  void connect();
  return {
    stop() {
      stopped = true;
      client?.end().catch(() => undefined);
    },
  };
}
