/**
 * Purging a commit (a leaked secret): `reponav fleet purge` records it in
 * reponav.purged_commits first — from then on no server serves it, no pin,
 * webhook, poll or rebuild brings it back, and no build of it is marked
 * ready — then drops its registry rows (with its pins and what it contains),
 * cancels its waiting builds and deletes its shards from the store. Servers
 * drop it from their caches when the purge is announced (NOTIFY) and at each
 * sweep of their cache against the table.
 */
import type { JobQueue } from './job-queue.js';
import type { Queryable, TeamDatabase } from './pg-database.js';
import type { ShardStore } from './shard-store.js';

/** The LISTEN/NOTIFY channel announcing a purge (payload: the repository name). */
export const COMMIT_PURGED_CHANNEL = 'reponav_commit_purged';

/** What purging one commit did. */
export interface PurgeResult {
  repo: string;
  commit: string;
  /** True when the commit had been purged before (the deletions ran again all the same). */
  alreadyPurged: boolean;
  /** Registry rows dropped: the commit's row (with its pin) and the facts that other commits contain it. */
  registryRows: number;
  /** Shard files deleted from the store. */
  shards: number;
  /** Waiting or running builds of the commit cancelled. */
  jobs: number;
}

/** The sentence refusing a purged commit. */
export function purgedText(repo: string, commit: string): string {
  return `Commit ${commit.slice(0, 12)} of '${repo}' was purged (reponav fleet purge) and is never indexed or served again.`;
}

/** The purged commit of `repo` whose id starts with `prefix` (lower-case hex), or null. */
export async function purgedCommit(db: Queryable, repo: string, prefix: string): Promise<string | null> {
  const rows = await db.query<{ commit: string }>("SELECT commit FROM reponav.purged_commits WHERE repo = $1 AND commit LIKE $2 || '%' LIMIT 1", [repo, prefix]);
  return rows.rows[0]?.commit ?? null;
}

/** Of `shards` (repository and commit), those purged, as `repo@commit` keys. */
export async function purgedAmong(db: Queryable, shards: readonly { repo: string; commit: string }[]): Promise<Set<string>> {
  if (shards.length === 0) return new Set();
  const rows = await db.query<{ key: string }>(
    `SELECT p.repo || '@' || p.commit AS key FROM reponav.purged_commits p
     JOIN unnest($1::text[], $2::text[]) AS s(repo, commit) ON s.repo = p.repo AND s.commit = p.commit`,
    [shards.map((s) => s.repo), shards.map((s) => s.commit)],
  );
  return new Set(rows.rows.map((r) => r.key));
}

/** Purges `commit` (a full id) of `repo` everywhere; see the module comment for the order. */
export async function purgeCommit(db: TeamDatabase, queue: JobQueue, store: ShardStore, repo: string, commit: string): Promise<PurgeResult> {
  const { alreadyPurged, registryRows } = await db.transaction(async (client) => {
    const added = await client.query('INSERT INTO reponav.purged_commits(repo, commit) VALUES ($1, $2) ON CONFLICT DO NOTHING', [repo, commit]);
    const rows = await client.query('DELETE FROM reponav.commits WHERE repo = $1 AND commit = $2', [repo, commit]);
    // What the commit contains stays (only ids): while it is still the branch head, its newest ready ancestor answers.
    const facts = await client.query('DELETE FROM reponav.commit_ancestors WHERE repo = $1 AND ancestor = $2', [repo, commit]);
    await client.query('SELECT pg_notify($1, $2)', [COMMIT_PURGED_CHANNEL, repo]);
    return { alreadyPurged: (added.rowCount ?? 0) === 0, registryRows: (rows.rowCount ?? 0) + (facts.rowCount ?? 0) };
  });
  const jobs = await queue.cancelRepo(repo, commit);
  // After the row is gone: a build finishing now cannot mark it ready (markReady refuses purged commits) and deletes its upload.
  const shards = await store.deleteCommit(repo, commit);
  return { repo, commit, alreadyPurged, registryRows, shards, jobs };
}
