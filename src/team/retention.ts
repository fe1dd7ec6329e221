/**
 * Retention of built shards: per repository, the newest `keep` ready commits
 * (by when git last named them the branch head) and any commit a client
 * pinned (named with `commit`) within `pinnedDays` stay; the other shards are
 * deleted from the store and their registry rows dropped. A worker applies it
 * after each build of the repository.
 */
import type { Logger } from '../logger.js';
import type { Queryable } from './pg-database.js';
import type { ShardStore } from './shard-store.js';
import { countOf } from '../plural.js';

/** How many ready commits per branch stay, and for how long a pinned commit stays. */
export interface RetentionRule {
  keep: number;
  pinnedDays: number;
}

/** Defaults: the newest 5 ready commits, and commits pinned in the last 7 days. */
export const DEFAULT_RETENTION: RetentionRule = { keep: 5, pinnedDays: 7 };

/** Applies the rule to `repo`; returns the commits whose shards were deleted. */
export async function applyRetention(db: Queryable, store: ShardStore, repo: string, rule: RetentionRule, logger: Logger): Promise<string[]> {
  const rows = await db.query<{ commit: string; location: string | null }>(
    `WITH ranked AS (
       SELECT commit, location, pinned_at,
              row_number() OVER (ORDER BY head_at DESC NULLS LAST, seq DESC) AS rank
       FROM reponav.commits WHERE repo = $1 AND state IN ('ready', 'broken')
     )
     DELETE FROM reponav.commits c USING ranked r
     WHERE c.repo = $1 AND c.commit = r.commit AND r.rank > $2
       AND (r.pinned_at IS NULL OR r.pinned_at < now() - make_interval(days => $3))
     RETURNING c.commit, r.location`,
    [repo, rule.keep, rule.pinnedDays],
  );
  for (const row of rows.rows) {
    if (row.location) await store.delete(row.location).catch((error: Error) => logger.warn(`retention: deleting ${row.location}: ${error.message}`));
  }
  if (rows.rows.length > 0) logger.info(`retention: ${repo}: deleted ${countOf(rows.rows.length, 'old shard')}, kept the newest ${rule.keep} and those pinned in the last ${countOf(rule.pinnedDays, 'day')}`);
  return rows.rows.map((r) => r.commit);
}
