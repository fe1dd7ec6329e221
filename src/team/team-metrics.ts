/**
 * What a platform team scrapes: Prometheus text exposition (prom-client) at
 * `/metrics` of `serve` and `worker`. Each process has its own registry.
 * Events are counted where they happen (builds on workers, tool calls, cache
 * use and refused tokens on servers); cluster-wide state (queue depth, each
 * repository's lag) is read from PostgreSQL at scrape time, so every process
 * reports the same values and alerts aggregate them with max().
 *
 * Metrics name every repository of the catalog, whatever the groups: a group
 * token never reads them. `/metrics` answers only the metrics token (its own
 * bearer secret) and is off without one.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReponavError } from '../errors.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SCHEMA_VERSION } from '../index/index.js';
import type { Logger } from '../logger.js';
import { listRepos } from './catalog.js';
import type { JobQueue } from './job-queue.js';
import type { Queryable } from './pg-database.js';
import type { ShardCacheStats } from './shard-cache.js';
import { freshness, type RepoFreshness } from './shard-registry.js';

/** The environment variable holding the metrics token (when no --metrics-token-file is given). */
export const METRICS_TOKEN_ENV = 'REPONAV_METRICS_TOKEN';

/** Why a request's token was refused. */
export type AuthFailure = 'missing' | 'invalid';

/** Seconds: tool calls answer in milliseconds from a cached shard, seconds when it is downloaded first. */
const TOOL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: a small repository's update builds in a second, a large first build in minutes. */
const BUILD_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800];

/** One process's metrics. */
export class TeamMetrics {
  readonly registry = new Registry();
  /** Finished build jobs by repository and outcome (built, already-built, superseded, lost-race, repo-removed, failed, abandoned, stopped); worker only. */
  readonly builds: Counter<'repo' | 'outcome'>;
  /** Time to build, upload and register a shard; worker only. */
  readonly buildSeconds: Histogram<'repo'>;
  /** Poll passes run; worker only. */
  readonly pollPasses: Counter;
  /** Tool call latency by tool and outcome; server only. */
  readonly toolSeconds: Histogram<'tool' | 'outcome'>;
  /** Requests refused for their token, by reason. */
  readonly authFailures: Counter<'reason'>;

  constructor(
    readonly kind: 'serve' | 'worker',
    private readonly sources: { db: Queryable; queue?: JobQueue; cache?: () => ShardCacheStats; logger: Logger },
  ) {
    // Builds and poll passes are a worker's, tool calls a server's: each process exposes its own (the others stay unregistered).
    const [worker, serve, both] = [kind === 'worker' ? [this.registry] : [], kind === 'serve' ? [this.registry] : [], [this.registry]];
    this.builds = new Counter({ name: 'reponav_builds_total', help: 'Build jobs finished by this worker, by repository and outcome.', labelNames: ['repo', 'outcome'] as const, registers: worker });
    this.buildSeconds = new Histogram({ name: 'reponav_build_duration_seconds', help: 'Time to build, upload and register a shard, by repository (built jobs only).', labelNames: ['repo'] as const, buckets: BUILD_BUCKETS, registers: worker });
    this.pollPasses = new Counter({ name: 'reponav_poll_passes_total', help: 'Poll passes this worker ran (finished or interrupted).', registers: worker });
    this.toolSeconds = new Histogram({ name: 'reponav_tool_duration_seconds', help: 'MCP tool call latency on this server, by tool and outcome (ok, error).', labelNames: ['tool', 'outcome'] as const, buckets: TOOL_BUCKETS, registers: serve });
    this.authFailures = new Counter({ name: 'reponav_auth_failures_total', help: 'Requests refused for their token: missing, or invalid (unknown, revoked or expired).', labelNames: ['reason'] as const, registers: both });
    collectDefaultMetrics({ register: this.registry, prefix: 'reponav_process_' });
    this.registry.setDefaultLabels({ role: kind });
    // Both reasons from the start, so rate() sees the first failure.
    for (const reason of ['missing', 'invalid'] as const satisfies readonly AuthFailure[]) this.authFailures.inc({ reason }, 0);
    if (sources.queue) {
      const queue = sources.queue;
      new Gauge({
        name: 'reponav_queue_jobs',
        help: 'Build jobs in the cluster queue by state (created: waiting, retry: waiting out a backoff, active: building, failed: out of retries).',
        labelNames: ['state'] as const,
        registers: [this.registry],
        async collect() {
          const counts = await queue.counts();
          for (const state of ['created', 'retry', 'active', 'failed'] as const) this.set({ state }, counts[state] ?? 0);
        },
      });
    }
    const lagRows = () => this.lagRows();
    /** A gauge per repository from the shared lag read; `read` returns null to leave a repository out. */
    const repoGauge = (name: string, help: string, read: (r: RepoFreshness) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['repo'] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const r of await lagRows()) {
            const v = read(r);
            if (v !== null) this.set({ repo: r.repo }, v);
          }
        },
      });
    repoGauge('reponav_repo_lag_commits', 'Commits between the served commit and the branch head git last named, by repository (absent while the head cannot be read).', (r) => (r.headError ? null : r.lagCommits));
    repoGauge('reponav_repo_lag_seconds', 'Seconds since git first named a branch head not served yet that is still on the branch, by repository (0 when up to date).', (r) => (r.headError ? null : Math.round(r.lagSeconds)));
    repoGauge('reponav_repo_head_unreadable', '1 when the branch head could not be read at the last check (the remote is unreachable, the branch is gone), by repository.', (r) => (r.headError ? 1 : 0));
    if (sources.cache) {
      const cache = sources.cache;
      const counter = (name: string, help: string, read: (s: ShardCacheStats) => number) =>
        new Counter({
          name,
          help,
          registers: [this.registry],
          collect() {
            this.reset();
            this.inc(read(cache()));
          },
        });
      counter('reponav_shard_cache_hits_total', 'Tool calls answered from a shard already in this server’s cache.', (s) => s.hits);
      counter('reponav_shard_cache_misses_total', 'Tool calls that had to download their shard first.', (s) => s.misses);
      counter('reponav_shard_cache_evictions_total', 'Shards evicted from this server’s cache to stay under --cache-size.', (s) => s.evictions);
      new Gauge({ name: 'reponav_shard_cache_bytes', help: 'Bytes of shards in this server’s cache.', registers: [this.registry], collect() { this.set(cache().bytes); } });
    }
  }

  /** One read of the lag of every repository per scrape, shared by the lag gauges. */
  private lagRead: Promise<RepoFreshness[]> | null = null;
  private lagRows(): Promise<RepoFreshness[]> {
    this.lagRead ??= (async () => {
      try {
        const repos = await listRepos(this.sources.db);
        return await freshness(this.sources.db, repos.map((r) => r.name), SCHEMA_VERSION);
      } finally {
        setImmediate(() => (this.lagRead = null));
      }
    })();
    return this.lagRead;
  }

  /** The exposition text. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * Answers `GET /metrics` when the request carries `token` as its bearer
 * token; 404 when no metrics token is configured, 401 otherwise.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, metrics: TeamMetrics, token: string | undefined, logger: Logger): Promise<void> {
  if (!token) return sendText(res, 404, 'Metrics are off; start with --metrics-token-file (or REPONAV_METRICS_TOKEN) to serve them.\n');
  const header = req.headers.authorization;
  const given = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (!given || !sameSecret(given, token)) {
    metrics.authFailures.inc({ reason: given ? 'invalid' : 'missing' });
    return sendText(res, 401, 'The metrics token is required (Authorization: Bearer <metrics token>).\n', { 'WWW-Authenticate': 'Bearer' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Use GET.\n', { Allow: 'GET' });
  try {
    const text = await metrics.text();
    res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (error) {
    logger.warn(`metrics: ${(error as Error).message}`);
    sendText(res, 503, `Metrics could not be collected: ${(error as Error).message}\n`);
  }
}

/**
 * A worker's metrics listener: `/metrics` only (404 elsewhere), on
 * `host:port`. Resolves once it listens, with its URL and a close().
 */
export async function startMetricsServer(options: { host: string; port: number; metrics: TeamMetrics; token: string; logger: Logger }): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/metrics') return sendText(res, 404, 'Not found; metrics are at /metrics.\n');
    serveMetrics(req, res, options.metrics, options.token, options.logger).catch((error: Error) => {
      options.logger.warn(`metrics request failed: ${error.message}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error.\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => reject(new ReponavError('BAD_INPUT', `Cannot listen for metrics on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'it is in use' : error.message}.`)));
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** Compares secrets in constant time (digests, so lengths may differ). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}
