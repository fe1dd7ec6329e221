/**
 * Removing a repository leaves nothing behind: its waiting and running builds
 * are cancelled, its shards deleted from the store, its catalog and registry
 * rows dropped; each worker deletes its own mirror and commit index of it at
 * its next sweep (sweepRemoved, every poll interval).
 */
import type { JobQueue } from './job-queue.js';
import type { TeamDatabase } from './pg-database.js';
import type { ShardStore } from './shard-store.js';

/** What removing one repository deleted; null when it was not in the catalog. */
export async function removeRepoEverywhere(db: TeamDatabase, queue: JobQueue, store: ShardStore, name: string): Promise<{ jobs: number; shards: number } | null> {
  const deleted = await db.query('DELETE FROM reponav.repos WHERE name = $1', [name]);
  if ((deleted.rowCount ?? 0) === 0) return null;
  const jobs = await queue.cancelRepo(name);
  const shards = await store.deleteRepo(name);
  return { jobs, shards };
}
