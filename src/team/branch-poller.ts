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
    head = await remoteHead(repo.url, repo.branch);
    if (head === null) throw new Error(`branch '${repo.branch}' does not exist`);
    // A purged commit pushed back is refused like an unreadable head: never recorded, built or served.
    if (await purgedCommit(db, repo.name, head)) throw new Error(`${purgedText(repo.name, head).replace(/\.$/, '')}; force-push it away`);
  } catch (error) {
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

/** How many branch heads one pass checks at once (each check waits mostly on git and PostgreSQL round trips). */
const CHECKS_AT_ONCE = 8;

/** One pass over the catalog (or the named repositories), CHECKS_AT_ONCE repositories at a time. */
export async function pollOnce(db: Queryable, queue: JobQueue, options: CheckOptions & { repos?: readonly string[] }): Promise<PollResult> {
  const repos = (await listRepos(db)).filter((r) => !options.repos || options.repos.includes(r.name));
  const result: PollResult = { checked: 0, enqueued: [], failed: [] };
  let next = 0;
  const lane = async () => {
    while (next < repos.length) {
      const repo = repos[next++];
      try {
        const check = await checkHead(db, queue, repo, options);
        result.checked++;
        if (check.error) result.failed.push({ repo: repo.name, reason: check.error });
        else if (check.enqueued && check.head) result.enqueued.push({ repo: repo.name, commit: check.head });
      } catch (error) {
        result.failed.push({ repo: repo.name, reason: (error as Error).message });
        options.logger.warn(`poll ${repo.name}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, repos.length) }, lane));
  // Lanes finish in any order; listings read better by name.
  result.enqueued.sort((a, b) => a.repo.localeCompare(b.repo));
  result.failed.sort((a, b) => a.repo.localeCompare(b.repo));
  return result;
}

/**
 * Takes part in the cluster-wide poll: every `intervalMs` this worker asks for
 * the current slot's pass (pg-boss keeps one job per slot, however many
 * workers ask) and runs it when it takes it — so a pass costs one check per
 * repository whatever the number of workers.
 */
export function startPoller(db: Queryable, queue: JobQueue, options: CheckOptions & { intervalMs: number }): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    if (stopped) return;
    try {
      await queue.requestPollPass(options.intervalMs / 1000);
      const id = await queue.takePollPass();
      if (id) {
        const started = Date.now();
        const result = await pollOnce(db, queue, options);
        await queue.completePollPass(id);
        options.logger.debug(`poll pass: ${result.checked} checked, ${result.enqueued.length} queued, ${result.failed.length} unreadable in ${Date.now() - started} ms`);
      }
    } catch (error) {
      options.logger.warn(`poll failed: ${(error as Error).message}`);
    }
    if (!stopped) timer = setTimeout(pass, options.intervalMs);
  };
  void pass();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
