/**
 * What a commit contains, known to the servers without git: when a worker has
 * a commit in its mirror (a poll check that met a new branch head, or a
 * build), it records which commits of the registry are ancestors of it
 * (reponav.commit_ancestors). A commit's history never changes, so these
 * facts only grow. The server then serves by default only the branch head or
 * a ready commit the head contains: after a force-push that removed the
 * served commit, the newest ready commit still on the branch, never the
 * removed one — and nothing when no such commit is known.
 */
import type { Logger } from '../logger.js';
import { containedCommits, mirrorWithCommit } from './git-fetch.js';
import type { Queryable } from './pg-database.js';
import { countOf } from '../plural.js';

/**
 * SQL condition on a ready row `c` of reponav.commits: it may answer by
 * default — it was a branch head once, is not purged, and is the current head
 * or an ancestor of it by a worker's reading of the head's history.
 */
export const ON_BRANCH = `c.head_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = c.repo AND p.commit = c.commit)
  AND EXISTS (SELECT 1 FROM reponav.repos r WHERE r.name = c.repo AND (r.head_commit = c.commit
    OR EXISTS (SELECT 1 FROM reponav.commit_ancestors a WHERE a.repo = c.repo AND a.commit = r.head_commit AND a.ancestor = c.commit)))`;

/**
 * True when `commit` has a registry row whose history no worker has read, or
 * read before another commit entered the registry (which it may contain: a
 * branch reset to an older commit, then moved back); and for a purged commit
 * (its row is gone) of which nothing is known to be contained: a head purged
 * before its history was read still names the ready commits it contains, so
 * one of them answers while it stays the head.
 */
export async function historyStale(db: Queryable, repo: string, commit: string): Promise<boolean> {
  const rows = await db.query<{ stale: boolean }>(
    `SELECT CASE WHEN c.commit IS NOT NULL
              THEN c.history_seq IS NULL OR EXISTS (SELECT 1 FROM reponav.commits o WHERE o.repo = c.repo AND o.seq > c.history_seq)
              ELSE EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = $1 AND p.commit = $2)
                AND NOT EXISTS (SELECT 1 FROM reponav.commit_ancestors a WHERE a.repo = $1 AND a.commit = $2) END AS stale
     FROM (SELECT 1) one LEFT JOIN reponav.commits c ON c.repo = $1 AND c.commit = $2`,
    [repo, commit],
  );
  return rows.rows[0]?.stale ?? false;
}

/**
 * Records that `commit` contains `ancestors` (commits of the registry), by a
 * reading that covered the registry up to row `coveredSeq`.
 */
export async function recordHistory(db: Queryable, repo: string, commit: string, ancestors: readonly string[], coveredSeq: number): Promise<void> {
  await db.query(
    `WITH facts AS (
       INSERT INTO reponav.commit_ancestors(repo, commit, ancestor)
       SELECT $1, $2, a FROM unnest($3::text[]) a
       WHERE EXISTS (SELECT 1 FROM reponav.repos WHERE name = $1)
         AND NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = $1 AND p.commit = a)
       ON CONFLICT DO NOTHING
     )
     UPDATE reponav.commits SET history_seq = GREATEST(history_seq, $4) WHERE repo = $1 AND commit = $2`,
    [repo, commit, ancestors, coveredSeq],
  );
}

/**
 * Reads `commit`'s history in the mirror at `gitDir` (which holds it) and
 * records which commits of `repo`'s registry it contains; returns how many.
 */
export async function recordContained(db: Queryable, repo: string, commit: string, gitDir: string, signal?: AbortSignal): Promise<number> {
  const rows = (await db.query<{ commit: string; seq: number }>('SELECT commit, seq::float8 AS seq FROM reponav.commits WHERE repo = $1', [repo])).rows;
  const ancestors = await containedCommits(gitDir, commit, rows.map((r) => r.commit), signal);
  await recordHistory(db, repo, commit, ancestors, Math.max(0, ...rows.map((r) => r.seq)));
  return ancestors.length;
}

/**
 * A worker's reader of new branch heads' histories (for the poll check):
 * fetches the head into the worker's mirror of the repository and records
 * what it contains. A failure is logged and left to the build, which reads it
 * again after its own fetch.
 */
export function headHistoryReader(db: Queryable, mirrorOf: (repo: string) => string, logger: Logger) {
  // Warned once per head, not at every poll pass while its objects stay missing.
  const warned = new Set<string>();
  return async (repo: { name: string; url: string }, head: string): Promise<void> => {
    if (!(await historyStale(db, repo.name, head))) return;
    try {
      const gitDir = mirrorOf(repo.name);
      await mirrorWithCommit(repo.url, gitDir, head);
      const n = await recordContained(db, repo.name, head, gitDir);
      logger.debug(`${repo.name}@${head.slice(0, 12)}: history read (${countOf(n, 'known commit')} in it)`);
    } catch (error) {
      const key = `${repo.name}@${head}`;
      const say = warned.has(key) ? logger.debug.bind(logger) : logger.warn.bind(logger);
      warned.add(key);
      say(`${repo.name}@${head.slice(0, 12)}: its history could not be read yet (until it is, servers answer only from commits already known to be in it): ${(error as Error).message}`);
    }
  };
}
