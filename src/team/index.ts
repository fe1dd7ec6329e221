/**
 * Public surface of the team server (`reponav worker`, `serve`, `fleet`):
 * PostgreSQL as the coordination store (catalog, job queue, shard registry,
 * tokens, heartbeats, LISTEN/NOTIFY), shard stores, workers and the stateless
 * server. Loaded only by those commands: nothing else needs PostgreSQL.
 */
export { createToken, revokeToken, type Principal } from './access-tokens.js';
export { noteCommit, pollOnce, type PollResult } from './branch-poller.js';
export { addRepo, getRepo, listRepos, removeRepo, type CatalogRepo } from './catalog.js';
export { liveNodes, type NodeBeat } from './heartbeats.js';
export { DEFAULT_LEASE_SECONDS, JobQueue, type EnqueueOptions } from './job-queue.js';
export { migrate, MIGRATIONS, requireMigrated, TEAM_SCHEMA_VERSION } from './migrations.js';
export { openShardStore, SHARD_STORE_ENV } from './open-shard-store.js';
export { PG_URL_ENV, redactUrl, resolvePgUrl, TeamDatabase } from './pg-database.js';
export { freshness, type RepoFreshness } from './shard-registry.js';
export { startTeamServer, type RunningTeamServer, type TeamServerOptions } from './team-server.js';
export { startWorker, type RunningWorker, type WorkerOptions } from './team-worker.js';
export { WEBHOOK_SECRET_ENV } from './push-webhook.js';
