/**
 * `reponav/team`: the team server on PostgreSQL — a catalog of repositories
 * indexed by workers and answered over MCP by stateless servers with
 * per-group bearer tokens (docs/team-server.md). Needs the `pg` and `pg-boss`
 * packages, which a single-user install does not. A polling worker's
 * TeamDatabase needs `max: WORKER_POOL_SIZE` connections.
 */
export { startTeamServer, startWorker, TeamDatabase, TeamMetrics, migrate, resolvePgUrl, WORKER_POOL_SIZE } from './team/index.js';
export type { RunningTeamServer, TeamServerOptions, RunningWorker, WorkerOptions } from './team/index.js';
