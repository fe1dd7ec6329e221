/**
 * `reponav worker`: takes index jobs from the queue and, for each, builds the
 * shard (shard-builder.ts), uploads it to the shard store and marks it ready
 * in the registry (which notifies the servers). A job that outlives its lease
 * is abandoned here — the queue has given it to another worker by then.
 * Killed mid-job, a worker loses nothing: its lease expires, the job is
 * retried elsewhere, and its half-done upload was never registered.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { SCHEMA_VERSION } from '../index/index.js';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { countOf } from '../plural.js';
import { startPoller, WORKER_POOL_SIZE } from './branch-poller.js';
import { getRepo, listRepos } from './catalog.js';
import { startHeartbeat } from './heartbeats.js';
import type { EnqueueOptions, JobQueue, TakenJob } from './job-queue.js';
import type { Queryable, TeamDatabase } from './pg-database.js';
import { headHistoryReader, recordContained } from './commit-history.js';
import { purgedCommit } from './commit-purge.js';
import { buildShard, mirrorDir } from './shard-builder.js';
import { markReady, newestReadyShard, readyShard } from './shard-registry.js';
import { applyRetention, DEFAULT_RETENTION, type RetentionRule } from './retention.js';
import { shardLocation, type ShardStore } from './shard-store.js';
import type { TeamMetrics } from './team-metrics.js';
import { sweepRemoved } from './work-folders.js';

export interface WorkerOptions {
  db: TeamDatabase;
  queue: JobQueue;
  store: ShardStore;
  /** This worker's own folder (git mirrors, its commit indexes); two workers must not share one. */
  workDir: string;
  logger: Logger;
  /** How often to look for a job when the queue was empty. Default 1000 ms. */
  idleMs?: number;
  /** Also poll tracked branches every this many ms (0: do not poll); then `db`'s pool needs WORKER_POOL_SIZE connections. */
  pollMs?: number;
  /** Lease and retries of the jobs this worker's poller enqueues. */
  enqueue?: EnqueueOptions;
  /** Which old shards to keep after each build (default DEFAULT_RETENTION). */
  retention?: RetentionRule;
  /** Where builds and poll passes are counted (`/metrics`). */
  metrics?: TeamMetrics;
}

/** What a finished job reports (stored as the job's output). */
export interface JobOutcome {
  repo: string;
  commit: string;
  /**
   * superseded: the commit is no longer the branch head by git's last answer, so it was not built (it would never be served);
   * purged: the commit was purged (fleet purge) and is never built again.
   */
  result: 'built' | 'already-built' | 'lost-race' | 'repo-removed' | 'superseded' | 'purged';
  parsedFiles?: number;
  startedFrom?: string;
  buildMs?: number;
  sizeBytes?: number;
}

/** The build was abandoned because the job is no longer this worker's: it must not be completed or failed here. */
class LeaseLost extends Error {}

/** The worker was stopped mid-build: the job is failed at once so pg-boss gives it to another worker after its first retry delay. */
class WorkerStopped extends Error {}

/** A running worker. */
export interface RunningWorker {
  readonly id: string;
  /** Jobs finished by this worker, by result. */
  readonly done: Record<string, number>;
  /** Stops taking jobs, aborts the current build and gives its job back to the queue (retried elsewhere within ~10 s), stops beating. */
  stop(): Promise<void>;
}

/** Starts the worker loop. */
export function startWorker(options: WorkerOptions): RunningWorker {
  const id = `worker-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const logger = options.logger;
  const done: Record<string, number> = {};
  /** Counts a finished job: in `done` (heartbeat) and in the metrics. */
  const count = (job: TakenJob, outcome: string) => {
    done[outcome] = (done[outcome] ?? 0) + 1;
    options.metrics?.builds.inc({ repo: job.repo, outcome });
  };
  if (options.pollMs && options.db.pool.options.max !== undefined && options.db.pool.options.max < WORKER_POOL_SIZE) {
    // Fewer connections than poll lanes: lanes wait for connections, and under load time out ("timeout exceeded when trying to connect").
    throw new ReponavError('BAD_INPUT', `A polling worker needs a PostgreSQL pool of at least ${WORKER_POOL_SIZE} connections (it has ${options.db.pool.options.max}); open its TeamDatabase with max: WORKER_POOL_SIZE.`);
  }
  let current: TakenJob | null = null;
  let stopped = false;
  const stopping = new AbortController();
  const heartbeat = startHeartbeat(
    options.db,
    { id, kind: 'worker' },
    () => ({ job: current ? `${current.repo}@${current.commit.slice(0, 12)}` : null, jobId: current?.id ?? null, done }),
    logger,
  );
  const readHistory = headHistoryReader(options.db, (repo) => mirrorDir(options.workDir, repo), logger);
  const poller = options.pollMs
    ? startPoller(options.db, options.queue, { intervalMs: options.pollMs, holder: id, logger, readHistory, onPass: () => options.metrics?.pollPasses.inc(), ...options.enqueue })
    : null;

  /** Ends `job` (complete or fail, by `end`) and clears it from this worker's row in one transaction; the row is cleared even when ending fails. */
  const finish = async (job: TakenJob, end: (client: Queryable) => Promise<void>) => {
    try {
      await heartbeat.exclusive((write) =>
        options.db.transaction(async (client) => {
          await end(client);
          current = null;
          await write(client);
        }),
      );
    } finally {
      current = null;
    }
  };

  let sweptAt = 0;
  const loop = (async () => {
    while (!stopped) {
      if (Date.now() - sweptAt > (options.pollMs || 30_000)) {
        sweptAt = Date.now();
        await sweep(options).catch((error: Error) => logger.warn(`sweeping ${options.workDir}: ${error.message}`));
      }
      let job: TakenJob | null = null;
      try {
        // The job and this worker's row naming it change in one transaction: fleet jobs never sees a live worker's job without its worker.
        job = await heartbeat.exclusive((write) =>
          options.db.transaction(async (client) => {
            const taken = await options.queue.take(client);
            if (!taken) return null;
            current = taken;
            try {
              await write(client);
            } catch (error) {
              current = null;
              throw error;
            }
            return taken;
          }),
        );
      } catch (error) {
        logger.warn(`taking a job failed: ${(error as Error).message}`);
      }
      if (!job) {
        await sleep(options.idleMs ?? 1000);
        continue;
      }
      current = job;
      try {
        const outcome = await runJob(job, id, options, stopping.signal);
        count(job, outcome.result);
        if (outcome.result === 'built' && outcome.buildMs !== undefined) options.metrics?.buildSeconds.observe({ repo: job.repo }, outcome.buildMs / 1000);
        logger.info(outcomeLine(job, outcome));
        await finish(job, (client) => options.queue.complete(job!.id, outcome, client)).catch((error: Error) => logger.warn(`completing job ${job!.id}: ${error.message}`));
        if (outcome.result === 'built') {
          await applyRetention(options.db, options.store, job.repo, options.retention ?? DEFAULT_RETENTION, logger).catch((error: Error) => logger.warn(`retention of ${job!.repo}: ${error.message}`));
        }
      } catch (error) {
        if (error instanceof WorkerStopped) {
          options.metrics?.builds.inc({ repo: job.repo, outcome: 'stopped' });
          logger.warn(`${job.repo}@${job.commit.slice(0, 12)} given back to the queue: ${error.message}`);
          await finish(job, (client) => options.queue.fail(job!.id, error, client)).catch((e: Error) => logger.warn(`giving back job ${job!.id}: ${e.message}`));
          continue;
        }
        if (error instanceof LeaseLost) {
          // Not this worker's any more: its row stops naming the job now, not at the next beat.
          await heartbeat.exclusive(async (write) => {
            current = null;
            await write(options.db);
          }).catch((e: Error) => logger.debug(`heartbeat: ${e.message}`));
          count(job, 'abandoned');
          logger.warn(`${job.repo}@${job.commit.slice(0, 12)} abandoned: ${error.message}`);
          continue;
        }
        count(job, 'failed');
        logger.warn(`${job.repo}@${job.commit.slice(0, 12)} failed (try ${job.retryCount + 1}): ${(error as Error).message}`);
        await finish(job, (client) => options.queue.fail(job!.id, error as Error, client)).catch((e: Error) => logger.warn(`failing job ${job!.id}: ${e.message}`));
      } finally {
        current = null;
      }
    }
  })();

  return {
    id,
    done,
    async stop() {
      stopped = true;
      stopping.abort(new WorkerStopped('the worker was stopped mid-build'));
      // The poll's checks end before the caller closes the pool.
      await Promise.all([poller?.stop(), loop]);
      await heartbeat.stop();
    },
  };
}

/** Deletes this worker's mirrors and indexes of repositories removed from the catalog. */
/** The log line of a finished job: `acme/shop@0123456789ab: built in 420 ms (1 file parsed, from scratch)`. */
export function outcomeLine(job: { repo: string; commit: string }, outcome: JobOutcome): string {
  const build = outcome.buildMs !== undefined ? ` in ${outcome.buildMs} ms (${countOf(outcome.parsedFiles ?? 0, 'file')} parsed, from ${outcome.startedFrom})` : '';
  return `${job.repo}@${job.commit.slice(0, 12)}: ${outcome.result}${build}`;
}

async function sweep(options: WorkerOptions): Promise<void> {
  const removed = sweepRemoved(options.workDir, (await listRepos(options.db)).map((r) => r.name));
  if (removed.length > 0) options.logger.info(`removed the local mirrors of ${removed.join(', ')} (no longer in the catalog)`);
  else options.logger.debug(`swept ${options.workDir}: nothing to remove`);
}

/** One job, abandoned when its lease runs out. */
async function runJob(job: TakenJob, builtBy: string, options: WorkerOptions, stopping: AbortSignal): Promise<JobOutcome> {
  const { db, store, logger } = options;
  const base = { repo: job.repo, commit: job.commit };
  const repo = await getRepo(db, job.repo);
  if (!repo) return { ...base, result: 'repo-removed' };
  if (await purgedCommit(db, job.repo, job.commit)) return { ...base, result: 'purged' };
  if (!job.force) {
    if (await readyShard(db, job.repo, job.commit, SCHEMA_VERSION)) return { ...base, result: 'already-built' };
    if (repo.headCommit && repo.headCommit !== job.commit) return { ...base, result: 'superseded' };
  }
  const lease = keepLease(job, options);
  const signal = AbortSignal.any([lease.signal, stopping]);
  const started = Date.now();
  try {
    const previous = await newestReadyShard(db, job.repo, SCHEMA_VERSION);
    const built = await naming(`building in ${options.workDir}`, () =>
      buildShard(
        { repo: job.repo, url: repo.url, commit: job.commit },
        { workDir: options.workDir, store, previous, logger, signal, fetched: (gitDir) => recordContained(db, job.repo, job.commit, gitDir, signal).then(() => undefined) },
      ),
    );
    signal.throwIfAborted();
    const location = shardLocation(job.repo, job.commit);
    try {
      const stored = await naming(`uploading to ${store.description}`, () => store.put(built.path, location));
      signal.throwIfAborted();
      const buildMs = Date.now() - started;
      const shard = { ...base, schemaVersion: SCHEMA_VERSION, ...stored, location, builtBy, buildMs, parsedFiles: built.parsedFiles };
      const { won, replaced } = await db.transaction((client) => markReady(client, shard, !!job.force));
      if (!won) {
        await store.delete(location);
        return { ...base, result: 'lost-race' };
      }
      if (replaced) await store.delete(replaced).catch((error: Error) => logger.warn(`deleting the replaced shard ${replaced}: ${error.message}`));
      return { ...base, result: 'built', parsedFiles: built.parsedFiles, startedFrom: built.startedFrom, buildMs, sizeBytes: stored.sizeBytes };
    } catch (error) {
      await store.delete(location).catch(() => undefined);
      throw error;
    } finally {
      await rm(built.path, { force: true });
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    lease.stop();
  }
}

/** Runs `work`; a full disk's error names where it happened (Node's ENOSPC of a stream write names no path). */
async function naming<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      const path = (error as NodeJS.ErrnoException).path;
      throw new ReponavError('INDEX_UNAVAILABLE', `No space left on device while ${where}${path ? ` (${path})` : ''}; free space there, then run reponav fleet sync.`);
    }
    throw error;
  }
}

/**
 * Renews the job's lease every third of it while the build runs, and aborts
 * the build when a renewal says the job is gone or no renewal succeeded for a
 * whole lease (the database is unreachable): by then the queue may have given
 * the job to another worker.
 */
function keepLease(job: TakenJob, options: WorkerOptions): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const seconds = job.leaseSeconds;
  let renewedAt = Date.now();
  const renew = async () => {
    try {
      // No retries: a renewal that waited out a database restart would come too late anyway.
      const mine = await options.queue.renew(job.id, seconds, { query: (text, values) => options.db.query(text, values, 0) });
      if (!mine) controller.abort(new LeaseLost('the job went back to the queue (its lease ran out)'));
      else renewedAt = Date.now();
    } catch (error) {
      options.logger.debug(`lease renewal: ${(error as Error).message}`);
    }
    if (Date.now() - renewedAt > seconds * 1000) controller.abort(new LeaseLost(`its lease (${seconds} s) could not be renewed`));
  };
  void renew();
  const timer = setInterval(renew, Math.max(500, (seconds * 1000) / 3));
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
