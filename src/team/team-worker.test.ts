/**
 * A polling worker refuses a pool smaller than its poll lanes plus its own
 * connections (the lanes would wait for connections and time out under
 * load). Checked before the worker touches the database, so no server is needed.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { POLL_LANES, WORKER_POOL_SIZE } from './branch-poller.js';
import type { JobQueue } from './job-queue.js';
import { TeamDatabase } from './pg-database.js';
import type { ShardStore } from './shard-store.js';
import { outcomeLine, startWorker } from './team-worker.js';

describe('startWorker pool size', () => {
  it('a pool with more connections than poll lanes is required', () => {
    expect(WORKER_POOL_SIZE).toBeGreaterThan(POLL_LANES);
  });

  for (const max of [1, 4, POLL_LANES, WORKER_POOL_SIZE - 1]) {
    it(`refuses a polling worker on a pool of ${max}`, async () => {
      const db = new TeamDatabase('postgres://nobody@127.0.0.1:1/none', silentLogger, { max });
      try {
        expect(() => startWorker({ db, queue: {} as JobQueue, store: {} as ShardStore, workDir: '/nonexistent', logger: silentLogger, pollMs: 1000 })).toThrow(
          new RegExp(`at least ${WORKER_POOL_SIZE} connections \\(it has ${max}\\)`),
        );
      } finally {
        await db.close();
      }
    });
  }
});

describe('the worker log line of a finished job', () => {
  it('counts parsed files in the right number ("1 file parsed", "0 files parsed")', () => {
    const job = { repo: 'acme/shop', commit: '0123456789abcdef0123' };
    expect(outcomeLine(job, { ...job, result: 'built', buildMs: 420, parsedFiles: 1, startedFrom: 'scratch' })).toBe('acme/shop@0123456789ab: built in 420 ms (1 file parsed, from scratch)');
    expect(outcomeLine(job, { ...job, result: 'built', buildMs: 5, parsedFiles: 0, startedFrom: 'scratch' })).toContain('(0 files parsed,');
    expect(outcomeLine(job, { ...job, result: 'already-built' })).toBe('acme/shop@0123456789ab: already-built');
  });
});
