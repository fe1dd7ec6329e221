/**
 * Freshness: the branch head is whatever git answers (`git ls-remote` of the
 * tracked branch), never the order events arrived in. A check records git's
 * answer (the check that started last wins) and queues the head's build when
 * it has no ready shard — again on later checks after a failure, waiting
 * longer each time — so a lost event, a failed build or a lost shard is
 * repaired by the next poll. A webhook's commit is only a reason to check now.
 */
import type { Logger } from '../logger.js';
import { listRepos, type CatalogRepo } from './catalog.js';
import { remoteHead } from './git-fetch.js';
import { retryWaitSeconds, type EnqueueOptions, type IndexJob, type JobQueue } from './job-queue.js';
import type { Queryable } from './pg-database.js';
import { endPass, POLL_LEASE_SECONDS, renewPass, startPass, type HeldPass } from './poll-lease.js';
import { purgedCommit, purgedText } from './commit-purge.js';
import { commitState, recordHead, recordHeadError } from './shard-registry.js';
import { SCHEMA_VERSION } from '../index/index.js';

/** What one poll pass did. */
export interface PollResult {
  checked: number;
  enqueued: IndexJob[];
  /** Repositories whose head could not be read, with why. */
  failed: { repo: string; reason: string }[];
}

/** What checking one branch head found. */
export interface HeadCheck {
  /** The head by git, or null when it could not be read. */
  head: string | null;
  /** A build of the head was queued by this check. */
  enqueued: boolean;
  /** Why the head could not be read. */
  error?: string;
  /** False when a check that started later had already recorded its answer. */
  current: boolean;
}

export interface CheckOptions extends EnqueueOptions {
  logger: Logger;
  /** Stops the check: a running `git ls-remote` is ended and nothing is recorded. */
  signal?: AbortSignal;
  /** Queue a failed head now instead of after its backoff (fleet sync). */
  now?: boolean;
  /**
   * Reads a new head's history into the registry (what it contains), so the
   * servers stop serving a commit it no longer contains at once; only a
   * worker, which has a mirror, passes it (elsewhere the build reads it).
   */
  readHistory?: (repo: CatalogRepo, head: string) => Promise<void>;
}

/** Asks git for `repo`'s branch head, records it and queues its build when it has no ready shard. */
export async function checkHead(db: Queryable, queue: JobQueue, repo: CatalogRepo, options: CheckOptions): Promise<HeadCheck> {
  // Database time, taken before git answers: of two checks, the one that started later read the newer branch.
  const checkedAt = (await db.query<{ t: Date }>('SELECT clock_timestamp() AS t')).rows[0].t;
  let head: string | null;
  try {
    head = await remoteHead(repo.url, repo.branch, 60_000, options.signal);
    if (head === null) throw new Error(`branch '${repo.branch}' does not exist`);
    // A purged commit pushed back is refused like an unreadable head: never recorded, built or served. Its history
    // is still read (once) when no worker read it before the purge: the newest ready commit it contains answers meanwhile.
    if (await purgedCommit(db, repo.name, head)) {
      await options.readHistory?.(repo, head);
      throw new Error(`${purgedText(repo.name, head).replace(/\.$/, '')}; force-push it away`);
    }
  } catch (error) {
    // Stopped, not unreadable: the next pass checks it.
    if (options.signal?.aborted) throw options.signal.reason;
    const reason = (error as Error).message.replace(/\.$/, '');
    const previous = await recordHeadError(db, repo.name, reason, checkedAt);
    // Once per new reason, not on every poll; fleet list shows it until a check succeeds.
    if (previous !== reason) options.logger.warn(`poll ${repo.name}: ${reason}`);
    return { head: null, enqueued: false, error: reason, current: true };
  }
  const record = await recordHead(db, repo.name, head, checkedAt);
  if (!record.current) return { head, enqueued: false, current: false };
  await options.readHistory?.(repo, head);
  return { head, enqueued: await ensureBuilt(db, queue, { repo: repo.name, commit: head }, options), current: true };
}

/**
 * Queues the build of `job`'s commit unless it is ready or a build is already
 * waiting or running; after failed builds, not before the backoff of
 * retryWaitSeconds has passed (unless `now`). True when a job was queued.
 */
export async function ensureBuilt(db: Queryable, queue: JobQueue, job: IndexJob, options: CheckOptions): Promise<boolean> {
  const state = await commitState(db, job.repo, job.commit);
  if (state?.state === 'ready' && state.schemaVersion === SCHEMA_VERSION && !job.force) return false;
  let startAfterSeconds = 0;
  if (!options.now) {
    const failures = await queue.failures(job.repo, job.commit);
    if (failures.count > 0 && failures.lastAt) {
      const waited = (Date.now() - new Date(failures.lastAt).getTime()) / 1000;
      startAfterSeconds = Math.max(0, retryWaitSeconds(failures.count) - waited);
    }
  }
  const id = await queue.enqueue(job, { leaseSeconds: options.leaseSeconds, retryLimit: options.retryLimit, startAfterSeconds, now: options.now });
  if (id) options.logger.info(`${job.repo}@${job.commit.slice(0, 12)}: build queued${startAfterSeconds > 0 ? ` to start in ${Math.round(startAfterSeconds)} s (after earlier failures)` : ''}`);
  return id !== null;
}

/**
 * How many branch heads one pass checks at once (each check waits mostly on
 * git and PostgreSQL round trips). A worker's pool holds at least this many
 * connections plus its own (WORKER_POOL_SIZE), so lanes never wait for one.
 */
export const POLL_LANES = 8;

/** Connections a worker's pool needs: one per poll lane, plus the job loop, the lease renewals, the heartbeat and the queue's maintenance. */
export const WORKER_POOL_SIZE = POLL_LANES + 4;

/**
 * One pass over the catalog (or the named repositories), POLL_LANES
 * repositories at a time. Once `signal` aborts, no further repository is
 * started and a running `git ls-remote` is stopped; nothing is recorded for
 * the repositories not checked.
 */
export async function pollOnce(db: Queryable, queue: JobQueue, options: CheckOptions & { repos?: readonly string[] }): Promise<PollResult> {
  const repos = (await listRepos(db)).filter((r) => !options.repos || options.repos.includes(r.name));
  const result: PollResult = { checked: 0, enqueued: [], failed: [] };
  let next = 0;
  const lane = async () => {
    while (next < repos.length && !options.signal?.aborted) {
      const repo = repos[next++];
      try {
        const check = await checkHead(db, queue, repo, options);
        result.checked++;
        if (check.error) result.failed.push({ repo: repo.name, reason: check.error });
        else if (check.enqueued && check.head) result.enqueued.push({ repo: repo.name, commit: check.head });
      } catch (error) {
        if (options.signal?.aborted) break;
        result.failed.push({ repo: repo.name, reason: (error as Error).message });
        options.logger.warn(`poll ${repo.name}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(POLL_LANES, repos.length) }, lane));
  // Lanes finish in any order; listings read better by name.
  result.enqueued.sort((a, b) => a.repo.localeCompare(b.repo));
  result.failed.sort((a, b) => a.repo.localeCompare(b.repo));
  return result;
}

/** A running poller. */
export interface RunningPoller {
  /** Stops polling: a running pass starts no further check, its running ones end, and it is released to other workers; resolves once it has. */
  stop(): Promise<void>;
}

/**
 * Takes part in the cluster-wide poll: this worker starts a pass when the
 * pass lease (poll-lease.ts) says none runs and the last ended `intervalMs`
 * ago, and holds the lease while the pass runs — so passes never overlap and
 * cost one check per repository per interval whatever the number of workers.
 */
export function startPoller(db: Queryable, queue: JobQueue, options: CheckOptions & { intervalMs: number; holder: string; passLeaseSeconds?: number; /** Called after each pass this worker ran. */ onPass?: () => void }): RunningPoller {
  const stopping = new AbortController();
  const leaseSeconds = options.passLeaseSeconds ?? POLL_LEASE_SECONDS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const runPass = async (pass: HeldPass) => {
    const lost = new AbortController();
    const renewal = setInterval(() => {
      renewPass(db, pass, leaseSeconds).then(
        (mine) => mine || lost.abort(new Error('the poll pass lease ran out')),
        (error: Error) => options.logger.debug(`poll lease renewal: ${error.message}`),
      );
    }, (leaseSeconds * 1000) / 3);
    const signal = AbortSignal.any([stopping.signal, lost.signal]);
    const started = Date.now();
    try {
      const result = await pollOnce(db, queue, { ...options, signal });
      options.logger.debug(`poll pass: ${result.checked} checked, ${result.enqueued.length} queued, ${result.failed.length} unreadable in ${Date.now() - started} ms${signal.aborted ? ' (interrupted)' : ''}`);
    } finally {
      options.onPass?.();
      clearInterval(renewal);
      if (!lost.signal.aborted) await endPass(db, pass, !signal.aborted);
    }
  };
  const tick = async () => {
    if (stopping.signal.aborted) return;
    let waitMs = options.intervalMs;
    try {
      const attempt = await startPass(db, options.holder, options.intervalMs / 1000, leaseSeconds);
      if (attempt.started) await runPass(attempt.started);
      // Another worker's pass runs (look again within an interval), or the next is due in retryInSeconds.
      else waitMs = Math.max(50, Math.min(options.intervalMs, attempt.retryInSeconds * 1000 + 20));
    } catch (error) {
      if (!stopping.signal.aborted) options.logger.warn(`poll failed: ${(error as Error).message}`);
    }
    if (!stopping.signal.aborted) timer = setTimeout(() => (running = tick()), waitMs);
  };
  running = tick();
  return {
    async stop() {
      stopping.abort(new Error('the worker is stopping'));
      clearTimeout(timer);
      await running;
    },
  };
}
