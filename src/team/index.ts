/**
 * Public surface of the team server (`reponav worker`, `serve`, `fleet`):
 * PostgreSQL as the coordination store (catalog, job queue, shard registry,
 * tokens, heartbeats, LISTEN/NOTIFY), shard stores, workers and the stateless
 * server. Loaded only by those commands: nothing else needs PostgreSQL.
 */
export { createToken, listTokens, revokeToken, type Principal, type TokenInfo } from './access-tokens.js';
export { ensureBuilt, pollOnce, type PollResult } from './branch-poller.js';
export { purgeCommit, purgedCommit, purgedText, type PurgeResult } from './commit-purge.js';
export { addRepo, getRepo, isCatalogName, listRepos, removeRepo, type CatalogRepo } from './catalog.js';
export { liveNodes, type NodeBeat } from './heartbeats.js';
export { DEFAULT_LEASE_SECONDS, DEFAULT_RETRY_LIMIT, JobQueue, type EnqueueOptions, type JobRow } from './job-queue.js';
export { migrate, MIGRATIONS, requireMigrated, TEAM_SCHEMA_VERSION } from './migrations.js';
export { openShardStore, SHARD_STORE_ENV } from './open-shard-store.js';
export { PG_URL_ENV, redactUrl, resolvePgUrl, TeamDatabase } from './pg-database.js';
export { freshness, freshnessText, recordSeen, seenCommitsByPrefix, type RepoFreshness } from './shard-registry.js';
export { removeRepoEverywhere } from './repo-removal.js';
export { claimFolder, releaseFolder } from './work-folders.js';
export { DEFAULT_RETENTION, type RetentionRule } from './retention.js';
export { startTeamServer, type RunningTeamServer, type TeamServerOptions } from './team-server.js';
export { startWorker, type RunningWorker, type WorkerOptions } from './team-worker.js';
export { WEBHOOK_SECRET_ENV } from './push-webhook.js';
