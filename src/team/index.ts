/**
 * Public surface of the team server (`reponav worker`, `serve`, `fleet`):
 * PostgreSQL as the coordination store (catalog, job queue, shard registry,
 * tokens, heartbeats, LISTEN/NOTIFY), shard stores, workers and the stateless
 * server. Loaded only by those commands: nothing else needs PostgreSQL.
 */
import type { RunningTeamServer, TeamServerOptions } from './team-server.js';

export { createToken, listTokens, revokeToken, type Principal, type TokenInfo } from './access-tokens.js';
export { ensureBuilt, pollOnce, POLL_LANES, WORKER_POOL_SIZE, type PollResult } from './branch-poller.js';
export { purgeCommit, purgedCommit, purgedText, type PurgeResult } from './commit-purge.js';
export { addRepo, addRepos, getRepo, isCatalogName, listRepos, removeRepo, type CatalogRepo } from './catalog.js';
export { DEAD_AFTER_SECONDS, FORGET_AFTER_SECONDS, listNodes, type NodeBeat } from './heartbeats.js';
export { DEFAULT_LEASE_SECONDS, DEFAULT_RETRY_LIMIT, JobQueue, type EnqueueOptions, type JobRow } from './job-queue.js';
export { migrate, MIGRATIONS, requireMigrated, TEAM_SCHEMA_VERSION } from './migrations.js';
export { openShardStore, SHARD_STORE_ENV } from './open-shard-store.js';
export { PG_URL_ENV, redactUrl, resolvePgUrl, TeamDatabase } from './pg-database.js';
export { freshness, freshnessText, recordSeen, seenCommitsByPrefix, type RepoFreshness } from './shard-registry.js';
export { removeRepoEverywhere } from './repo-removal.js';
export { claimFolder, releaseFolder } from './work-folders.js';
export { DEFAULT_RETENTION, type RetentionRule } from './retention.js';
export type { RunningTeamServer, TeamServerOptions };
export { startWorker, type RunningWorker, type WorkerOptions } from './team-worker.js';

/**
 * Environment variable holding the webhook secret of `reponav serve`. Defined
 * here, not beside the webhook's handler, which is part of the server's module.
 */
export const WEBHOOK_SECRET_ENV = 'REPONAV_WEBHOOK_SECRET';

/**
 * Starts the stateless team server (`reponav serve`). Its module (the MCP
 * server, the HTTP API, the index readers) is loaded on the first call, so the
 * `fleet` commands and the worker, which never serve, start without compiling it.
 */
export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  return (await import('./team-server.js')).startTeamServer(options);
}
export { METRICS_TOKEN_ENV, startMetricsServer, TeamMetrics } from './team-metrics.js';
