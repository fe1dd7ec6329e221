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
import { startWorker } from './team-worker.js';

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
