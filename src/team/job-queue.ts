/**
 * The index job queue: pg-boss on the team database (SKIP LOCKED fetches,
 * retries with exponential backoff, a lease per job that expires when its
 * worker dies, so another worker takes the job). pg-boss runs its statements
 * through our pool, so they share its retries across a PostgreSQL restart.
 */
import PgBoss from 'pg-boss';
import type { Logger } from '../logger.js';
import { QUEUE_SCHEMA } from './migrations.js';
import type { Queryable, TeamDatabase } from './pg-database.js';

/**
 * The build queue's name. Its policy is pg-boss's `stately`: at most one job
 * per state (queued, retrying, active) for one singleton key, the key being
 * `repo@commit`, so any number of pollers, webhooks and `fleet rebuild`s
 * queue a commit's build once.
 */
export const INDEX_QUEUE = 'reponav-build';

/** One job: build the shard of `repo` at `commit`. */
export interface IndexJob {
  repo: string;
  commit: string;
  /** Build even when the commit is ready or no longer the branch head (fleet rebuild, a broken shard). */
  force?: boolean;
}

/** A job as fleet jobs shows it. */
export interface JobRow {
  id: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'failed' | 'cancelled';
  repo: string;
  commit: string;
  retryCount: number;
  retryLimit: number;
  createdOn: Date;
  startedOn: Date | null;
  completedOn: Date | null;
  startAfter: Date;
  /** When an active job's lease runs out. */
  expiresAt: Date | null;
  /** The error of a failed or retrying job (the worker's message, or pg-boss's when the lease ran out). */
  error: string | null;
}

const JOB_COLUMNS = `id, state::text AS state, data->>'repo' AS repo, data->>'commit' AS commit, retry_count AS "retryCount", retry_limit AS "retryLimit",
  created_on AS "createdOn", started_on AS "startedOn", completed_on AS "completedOn", start_after AS "startAfter",
  CASE WHEN state = 'active' THEN started_on + expire_in END AS "expiresAt",
  CASE WHEN state IN ('retry', 'failed') THEN COALESCE(output->>'message', output->'value'->>'message', output::text) END AS error`;

/** pg-boss's connection shape over one of ours (a pool or a transaction's client). */
function connection(db: Queryable): PgBoss.Db {
  return { executeSql: (text: string, values: unknown[]) => db.query(text, values) };
}

/** The singleton key of a commit's build. */
export function buildKey(repo: string, commit: string): string {
  return `${repo}@${commit}`;
}

/** How long a poll waits before queueing a commit whose builds failed `failures` times: 1 min, 2, 4 … up to 1 h. */
export function retryWaitSeconds(failures: number): number {
  return failures <= 0 ? 0 : Math.min(3600, 60 * 2 ** (failures - 1));
}

/** A job taken by a worker: its id and how long its lease lasts. */
export interface TakenJob extends IndexJob {
  id: string;
  leaseSeconds: number;
  /** How many times it was tried before. */
  retryCount: number;
}

/** Queue settings chosen by whoever enqueues. */
export interface EnqueueOptions {
  /** The lease: a job still active this long after it was taken is failed and retried elsewhere. */
  leaseSeconds?: number;
  retryLimit?: number;
}

/**
 * Default lease of a job. Short because it is renewed every third of it while
 * the build runs: a dead worker's job is retried about a minute later.
 */
export const DEFAULT_LEASE_SECONDS = 60;
/** Default tries of one build job after the first (5 s, then 10 s, then 20 s later, with jitter); later polls queue a new job with a longer wait. */
export const DEFAULT_RETRY_LIMIT = 3;

/** The queue over one team database. */
export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly db: Queryable,
  ) {}

  /**
   * Connects to the queue. `supervise` (workers) also runs pg-boss's
   * maintenance, which expires leases every `maintenanceSeconds`; `install`
   * (fleet migrate) creates or upgrades the queue schema.
   */
  static async open(db: TeamDatabase, logger: Logger, options: { install?: boolean; supervise?: boolean; maintenanceSeconds?: number } = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      db: connection(db),
      schema: QUEUE_SCHEMA,
      migrate: !!options.install,
      supervise: !!options.supervise,
      schedule: false,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
    });
    boss.on('error', (error: Error) => logger.warn(`job queue: ${error.message}`));
    await boss.start();
    if (options.install) {
      await boss.createQueue(INDEX_QUEUE, { name: INDEX_QUEUE, policy: 'stately' });
    }
    return new JobQueue(boss, db);
  }

  /**
   * Adds a commit's build unless one is already queued, retrying or running
   * (returns null then); returns the job's id. With `via` (a transaction's
   * client) the job is added in that transaction; `startAfterSeconds` delays it;
   * `now` first cancels a build of the commit still waiting out its backoff.
   */
  async enqueue(job: IndexJob, options: EnqueueOptions & { startAfterSeconds?: number; now?: boolean } = {}, via?: Queryable): Promise<string | null> {
    const db = via ?? this.db;
    const key = buildKey(job.repo, job.commit);
    if (options.now) {
      // A build waiting out its backoff is cancelled and queued again to start now (fleet sync).
      const waiting = await db.query<{ id: string }>(`SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry') AND start_after > now()`, [INDEX_QUEUE, key]);
      if (waiting.rows.length > 0) await this.boss.cancel(INDEX_QUEUE, waiting.rows.map((r) => r.id), { db: connection(db) });
    }
    const pending = await db.query(`SELECT 1 FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`, [INDEX_QUEUE, key]);
    if (pending.rows.length > 0) return null;
    return this.boss.send(INDEX_QUEUE, { repo: job.repo, commit: job.commit, ...(job.force ? { force: true } : {}) }, {
      db: connection(db),
      singletonKey: key,
      retryLimit: options.retryLimit ?? DEFAULT_RETRY_LIMIT,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      ...(options.startAfterSeconds ? { startAfter: Math.max(1, Math.round(options.startAfterSeconds)) } : {}),
    });
  }

  /**
   * The failed build jobs of a commit since its last completed one, and when
   * the last failed: later polls wait longer after each (see retryWaitSeconds).
   */
  async failures(repo: string, commit: string): Promise<{ count: number; lastAt: Date | null }> {
    const rows = await this.db.query<{ count: number; lastAt: Date | null }>(
      `SELECT count(*)::int AS count, max(completed_on) AS "lastAt" FROM ${QUEUE_SCHEMA}.job
       WHERE name = $1 AND singleton_key = $2 AND state = 'failed'
         AND created_on > COALESCE((SELECT max(completed_on) FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state = 'completed'), '-infinity')`,
      [INDEX_QUEUE, buildKey(repo, commit)],
    );
    return rows.rows[0];
  }

  /** Takes the next job (SKIP LOCKED), or null when none is waiting; with `via` (a transaction's client), in that transaction. */
  async take(via?: Queryable): Promise<TakenJob | null> {
    const options = { batchSize: 1, includeMetadata: true as const, ...(via ? { db: connection(via) } : {}) };
    const [job] = (await this.boss.fetch<IndexJob>(INDEX_QUEUE, options)) as PgBoss.JobWithMetadata<IndexJob>[];
    if (!job) return null;
    return { id: job.id, repo: job.data.repo, commit: job.data.commit, force: job.data.force, leaseSeconds: job.expireInSeconds, retryCount: job.retryCount };
  }

  /**
   * Jobs of the build queue in `states` (newest first, at most `limit`), each
   * with the live worker whose heartbeat row names it (`worker`; null when no
   * worker beating within `aliveSeconds` runs it). One statement, so one
   * snapshot: a worker records a job in its row in the transaction that takes
   * it and clears it in the one that ends it, so a live worker's active job
   * always has its worker here. With `settledFailures: false`, a failed job
   * whose commit was built since (its shard is ready, or a later job of it
   * completed) is left out: nothing is left to repair for it.
   */
  async jobs(states: readonly JobRow['state'][], limit = 200, aliveSeconds = 15, settledFailures = true): Promise<(JobRow & { worker: string | null })[]> {
    const rows = await this.db.query<JobRow & { worker: string | null }>(
      `SELECT ${JOB_COLUMNS},
         (SELECT n.id FROM reponav.nodes n WHERE n.kind = 'worker' AND n.info->>'jobId' = job.id::text AND n.beat_at > now() - make_interval(secs => $4) LIMIT 1) AS worker
       FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state::text = ANY($2)
         AND ($5 OR state <> 'failed' OR NOT (
           EXISTS (SELECT 1 FROM reponav.commits c WHERE c.repo = job.data->>'repo' AND c.commit = job.data->>'commit' AND c.state = 'ready')
           OR EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.job later WHERE later.name = job.name AND later.singleton_key = job.singleton_key
                        AND later.state = 'completed' AND later.created_on > job.created_on)))
       ORDER BY created_on DESC LIMIT $3`,
      [INDEX_QUEUE, states, limit, aliveSeconds, settledFailures],
    );
    return rows.rows;
  }

  /** The newest build job of each repository (what fleet list shows as its last error and retries left). */
  async latestJobs(): Promise<Map<string, JobRow>> {
    const rows = await this.db.query<JobRow>(
      `SELECT DISTINCT ON (data->>'repo') ${JOB_COLUMNS} FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY data->>'repo', created_on DESC`,
      [INDEX_QUEUE],
    );
    return new Map(rows.rows.map((r) => [r.repo, r]));
  }

  /** Cancels every waiting or running build of `repo` (fleet remove), or only those of `commit` (fleet purge). */
  async cancelRepo(repo: string, commit?: string): Promise<number> {
    const ids = (
      await this.db.query<{ id: string }>(
        `SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'repo' = $2 AND ($3::text IS NULL OR data->>'commit' = $3) AND state < 'completed'`,
        [INDEX_QUEUE, repo, commit ?? null],
      )
    ).rows.map((r) => r.id);
    if (ids.length > 0) await this.boss.cancel(INDEX_QUEUE, ids);
    return ids.length;
  }

  /**
   * Extends a taken job's lease to `seconds` from now; false when the job is
   * no longer this worker's (its lease ran out and it went back to the queue).
   * pg-boss 10 has no lease renewal of its own: this sets the expiry its
   * maintenance reads (started_on + expire_in), so a long build keeps its job
   * while a dead worker's job comes back within one lease.
   */
  async renew(id: string, seconds: number, via: Queryable): Promise<boolean> {
    const result = await via.query(
      `UPDATE ${QUEUE_SCHEMA}.job SET expire_in = (now() - started_on) + make_interval(secs => $3) WHERE name = $1 AND id = $2 AND state = 'active'`,
      [INDEX_QUEUE, id, seconds],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** Completes a taken job with its outcome; with `via`, in that transaction. */
  async complete(id: string, output: object, via?: Queryable): Promise<void> {
    await this.boss.complete(INDEX_QUEUE, id, output, via ? { db: connection(via) } : undefined);
  }

  /** Fails the job (pg-boss retries it after its backoff until its retries are spent); with `via`, in that transaction. */
  async fail(id: string, error: Error, via?: Queryable): Promise<void> {
    await this.boss.fail(INDEX_QUEUE, id, { message: error.message }, via ? { db: connection(via) } : undefined);
  }

  /** Jobs by state (created, retry, active, completed, failed), for status and benchmarks. */
  async counts(): Promise<Record<string, number>> {
    // countStates is public at runtime (pg-boss promotes it) but missing from its types.
    const states = await (this.boss as unknown as { countStates(): Promise<{ queues: unknown }> }).countStates();
    const queue = (states.queues as Record<string, Record<string, number>>)[INDEX_QUEUE] ?? {};
    return { created: queue.created ?? 0, retry: queue.retry ?? 0, active: queue.active ?? 0, completed: queue.completed ?? 0, failed: queue.failed ?? 0 };
  }

  /** Runs the lease expiry now (workers do it every maintenance interval). */
  async expireLeases(): Promise<void> {
    await this.boss.expire();
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
  }
}
