/**
 * The registry of commits and built shards: every commit seen on a tracked
 * branch (in the order seen), and for each, once a worker has built and
 * stored it, where its shard is, its size and checksum. A shard becomes
 * visible only when its row turns `ready` — after the upload finished — and
 * that commit's NOTIFY tells the servers.
 */
import { ON_BRANCH } from './commit-history.js';
import { INDEX_QUEUE, type JobRow } from './job-queue.js';
import { QUEUE_SCHEMA } from './migrations.js';
import type { Queryable } from './pg-database.js';

/** The LISTEN/NOTIFY channel announcing a ready shard (payload: the repository name). */
export const SHARD_READY_CHANNEL = 'reponav_shard_ready';

/** A built shard. */
export interface ShardRecord {
  repo: string;
  commit: string;
  seq: number;
  schemaVersion: number;
  sizeBytes: number;
  sha256: string;
  location: string;
  builtAt: Date;
}

/** Not a purged commit (SQL, on a row of reponav.commits without alias). */
const NOT_PURGED = 'NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = reponav.commits.repo AND p.commit = reponav.commits.commit)';

const SHARD_COLUMNS = `repo, commit, seq::float8 AS "seq", schema_version AS "schemaVersion", size_bytes::float8 AS "sizeBytes",
  sha256, location, built_at AS "builtAt"`;

/** Records that `commit` was seen on `repo` (a commit named by a rebuild, not a head); true when it is new (never for a purged commit). */
export async function recordSeen(db: Queryable, repo: string, commit: string): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO reponav.commits(repo, commit) SELECT $1, $2
     WHERE NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = $1 AND p.commit = $2) ON CONFLICT DO NOTHING`,
    [repo, commit],
  );
  return (result.rowCount ?? 0) > 0;
}

/** What recording one answer of git about a branch head did. */
export interface HeadRecord {
  /** False when a check that started later already recorded its answer (this one is stale and changed nothing). */
  current: boolean;
  /** True when the commit had not been seen before. */
  isNew: boolean;
}

/**
 * Records git's answer that `commit` is `repo`'s branch head, as read by a
 * check that started at `checkedAt` (database time). The check that started
 * last wins, so a slow check can never put back an older head; the commit's
 * `head_at` moves forward, and what is served is the ready commit with the
 * latest `head_at` — the order git moved the branch in, not the order events arrived.
 */
export async function recordHead(db: Queryable, repo: string, commit: string, checkedAt: Date): Promise<HeadRecord> {
  const result = await db.query<{ inserted: boolean }>(
    `WITH r AS (
       UPDATE reponav.repos SET head_commit = $2, head_checked_at = $3, head_error = NULL, head_error_at = NULL
       WHERE name = $1 AND (head_checked_at IS NULL OR head_checked_at <= $3) RETURNING name
     )
     INSERT INTO reponav.commits(repo, commit, head_at, head_first_at) SELECT name, $2, $3, $3 FROM r
       WHERE NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = $1 AND p.commit = $2)
     ON CONFLICT (repo, commit) DO UPDATE SET head_at = GREATEST(reponav.commits.head_at, excluded.head_at),
       head_first_at = LEAST(reponav.commits.head_first_at, excluded.head_first_at)
     RETURNING (xmax = 0) AS inserted`,
    [repo, commit, checkedAt],
  );
  const row = result.rows[0];
  return { current: !!row, isNew: !!row?.inserted };
}

/** Records that `repo`'s branch head could not be read (shown by fleet list and index_status until a check succeeds); returns the error recorded before. */
export async function recordHeadError(db: Queryable, repo: string, message: string, checkedAt: Date): Promise<string | null> {
  const rows = await db.query<{ previous: string | null }>(
    `UPDATE reponav.repos r SET head_error = $2, head_error_at = $3, head_checked_at = $3
     FROM (SELECT head_error FROM reponav.repos WHERE name = $1) old
     WHERE r.name = $1 AND (r.head_checked_at IS NULL OR r.head_checked_at <= $3) RETURNING old.head_error AS previous`,
    [repo, message.slice(0, 2000), checkedAt],
  );
  return rows.rows[0]?.previous ?? null;
}

/** The state of one commit's row, or null when it was never seen. */
export async function commitState(db: Queryable, repo: string, commit: string): Promise<{ state: 'queued' | 'ready' | 'broken'; schemaVersion: number | null } | null> {
  const rows = await db.query<{ state: 'queued' | 'ready' | 'broken'; schemaVersion: number | null }>(
    'SELECT state, schema_version AS "schemaVersion" FROM reponav.commits WHERE repo = $1 AND commit = $2',
    [repo, commit],
  );
  return rows.rows[0] ?? null;
}

/**
 * Marks the shard at `location` broken (missing from the store or failing its
 * checksum): it is no longer served, and the next ready commit is; false when
 * it was not ready (another server marked it first, or it was rebuilt).
 */
export async function markBroken(db: Queryable, repo: string, location: string, reason: string): Promise<boolean> {
  const result = await db.query(`UPDATE reponav.commits SET state = 'broken', broken_reason = $3 WHERE repo = $1 AND location = $2 AND state = 'ready'`, [
    repo,
    location,
    reason.slice(0, 2000),
  ]);
  return (result.rowCount ?? 0) > 0;
}

/** Notes that a client asked for `commit` by name (retention keeps pinned commits). */
export async function notePinned(db: Queryable, repo: string, commit: string): Promise<void> {
  await db.query(`UPDATE reponav.commits SET pinned_at = now() WHERE repo = $1 AND commit = $2 AND (pinned_at IS NULL OR pinned_at < now() - interval '1 minute')`, [repo, commit]);
}

/** The shard's record as a worker writes it. */
export interface BuiltShard {
  repo: string;
  commit: string;
  schemaVersion: number;
  sizeBytes: number;
  sha256: string;
  location: string;
  builtBy: string;
  buildMs: number;
  parsedFiles: number;
}

/**
 * Marks the commit's shard ready and notifies the servers, in one statement
 * pair of one transaction. Returns false when another build of the same
 * commit got there first (the caller then deletes its own upload), the
 * repository was removed or the commit purged meanwhile.
 */
export async function markReady(db: Queryable, shard: BuiltShard, replace = false): Promise<{ won: boolean; replaced: string | null }> {
  const result = await db.query<{ old: string | null }>(
    `WITH old AS (SELECT location FROM reponav.commits WHERE repo = $1 AND commit = $2 FOR UPDATE)
     UPDATE reponav.commits c SET state = 'ready', schema_version = $3, size_bytes = $4, sha256 = $5, location = $6,
       built_at = now(), built_by = $7, build_ms = $8, parsed_files = $9, broken_reason = NULL
     FROM old WHERE c.repo = $1 AND c.commit = $2 AND (c.state <> 'ready' OR c.schema_version <> $3 OR $10)
       AND NOT EXISTS (SELECT 1 FROM reponav.purged_commits p WHERE p.repo = $1 AND p.commit = $2)
     RETURNING old.location AS old`,
    [shard.repo, shard.commit, shard.schemaVersion, shard.sizeBytes, shard.sha256, shard.location, shard.builtBy, shard.buildMs, shard.parsedFiles, replace],
  );
  if ((result.rowCount ?? 0) === 0) return { won: false, replaced: null };
  await db.query('SELECT pg_notify($1, $2)', [SHARD_READY_CHANNEL, shard.repo]);
  const old = result.rows[0].old;
  return { won: true, replaced: old && old !== shard.location ? old : null };
}

/** The ready shard of `commit` (a full id), or null. */
export async function readyShard(db: Queryable, repo: string, commit: string, schemaVersion: number): Promise<ShardRecord | null> {
  const rows = await db.query<ShardRecord>(
    `SELECT ${SHARD_COLUMNS} FROM reponav.commits WHERE repo = $1 AND commit = $2 AND state = 'ready' AND schema_version = $3 AND ${NOT_PURGED}`,
    [repo, commit, schemaVersion],
  );
  return rows.rows[0] ?? null;
}

/** The ready shards whose commit starts with `prefix` (at most 2: enough to tell an ambiguous prefix). */
/** Seen commits of `repo` whose id starts with `prefix` (lower-case hex), at most `limit` (two tell a unique prefix from an ambiguous one). */
export async function seenCommitsByPrefix(db: Queryable, repo: string, prefix: string, limit = 2): Promise<string[]> {
  const rows = (await db.query<{ commit: string }>("SELECT commit FROM reponav.commits WHERE repo = $1 AND commit LIKE $2 || '%' LIMIT $3", [repo, prefix, limit])).rows;
  return rows.map((row) => row.commit);
}

export async function readyShardsByPrefix(db: Queryable, repo: string, prefix: string, schemaVersion: number): Promise<ShardRecord[]> {
  const rows = await db.query<ShardRecord>(
    `SELECT ${SHARD_COLUMNS} FROM reponav.commits
     WHERE repo = $1 AND state = 'ready' AND schema_version = $3 AND commit LIKE $2 || '%' AND ${NOT_PURGED} ORDER BY seq DESC LIMIT 2`,
    [repo, prefix, schemaVersion],
  );
  return rows.rows;
}

/**
 * The shard a server answers from by default: of the ready commits on the
 * branch — the head itself or one the head contains (ON_BRANCH) — the one
 * git named the branch head most recently, or null. A commit force-pushed
 * away is no longer on the branch and stops answering as soon as the new head
 * is recorded; a commit only ever reported late is never promoted over a newer head.
 */
export async function newestReadyShard(db: Queryable, repo: string, schemaVersion: number): Promise<ShardRecord | null> {
  const rows = await db.query<ShardRecord>(
    `SELECT ${SHARD_COLUMNS} FROM reponav.commits c WHERE c.repo = $1 AND c.state = 'ready' AND c.schema_version = $2 AND ${ON_BRANCH}
     ORDER BY c.head_at DESC, c.seq DESC LIMIT 1`,
    [repo, schemaVersion],
  );
  return rows.rows[0] ?? null;
}

/** Freshness of one repository: what is served, what git says the branch head is, and how far behind. */
export interface RepoFreshness {
  repo: string;
  branch: string;
  servedCommit: string | null;
  servedBuiltAt: Date | null;
  /** The branch head by git's last answer (ls-remote), or null before the first successful check. */
  headCommit: string | null;
  headCheckedAt: Date | null;
  /** Why the last check of the branch head failed (null when it succeeded). */
  headError: string | null;
  headErrorAt: Date | null;
  /** The head commit's row: queued (not built yet, or failed), ready, broken (its shard was lost). */
  headState: 'queued' | 'ready' | 'broken' | null;
  /** The state of the newest build job of the head (null when none was queued). */
  headJobState: JobRow['state'] | null;
  /**
   * The last error, as fleet list, index_status and /api/info all give it:
   * the head unreadable (`branch head unreadable: …`, at the failed check),
   * else its newest build job failing (pg-boss's error, at the failure); null
   * when neither, or when the head is served.
   */
  lastError: { message: string; at: Date | null } | null;
  /** Branch heads git reported after the served one and still on the branch (the head, or in it); 0 when the head is served. */
  lagCommits: number;
  /**
   * Seconds since git first named a head after the served one that is still
   * on the branch (0 when none): from the first time, not the latest check, so
   * a head that stays unserved shows its whole wait (never counted from before
   * the served commit was last the head, nor from a head force-pushed away).
   */
  lagSeconds: number;
}

/**
 * SQL condition on a row `c` of reponav.commits inside freshness(), where `r`
 * is its repository: the commit is the current branch head or one the head
 * contains (by a worker's reading). Lag counts only those heads: a head
 * force-pushed away is no longer waited for (while the head's history is
 * unread, only the head itself counts).
 */
const STILL_ON_BRANCH = `(c.commit = r.head_commit
  OR EXISTS (SELECT 1 FROM reponav.commit_ancestors a WHERE a.repo = r.name AND a.commit = r.head_commit AND a.ancestor = c.commit))`;

/** Freshness of each named repository (in the order given; unknown names are left out). */
export async function freshness(db: Queryable, repos: readonly string[], schemaVersion: number): Promise<RepoFreshness[]> {
  if (repos.length === 0) return [];
  const rows = await db.query<Omit<RepoFreshness, 'lastError'> & { headJobError: string | null; headJobErrorAt: Date | null }>(
    `WITH served AS (
       SELECT DISTINCT ON (c.repo) c.repo, c.commit, c.head_at, c.built_at FROM reponav.commits c
       WHERE c.repo = ANY($1) AND c.state = 'ready' AND c.schema_version = $2 AND ${ON_BRANCH} ORDER BY c.repo, c.head_at DESC, c.seq DESC
     )
     SELECT r.name AS repo, r.branch, s.commit AS "servedCommit", s.built_at AS "servedBuiltAt",
            r.head_commit AS "headCommit", r.head_checked_at AS "headCheckedAt", r.head_error AS "headError", r.head_error_at AS "headErrorAt",
            h.state AS "headState", b.state AS "headJobState", b.error AS "headJobError", b.at AS "headJobErrorAt",
            (SELECT count(*)::int FROM reponav.commits c WHERE c.repo = r.name AND c.head_at > COALESCE(s.head_at, '-infinity') AND ${STILL_ON_BRANCH}) AS "lagCommits",
            COALESCE((SELECT extract(epoch FROM now() - GREATEST(min(c.head_first_at), s.head_at))::float8 FROM reponav.commits c
                      WHERE c.repo = r.name AND c.head_at > COALESCE(s.head_at, '-infinity') AND ${STILL_ON_BRANCH}), 0) AS "lagSeconds"
     FROM reponav.repos r LEFT JOIN served s ON s.repo = r.name LEFT JOIN reponav.commits h ON h.repo = r.name AND h.commit = r.head_commit
     -- The head's newest build job (its singleton key is buildKey's REPO@COMMIT).
     LEFT JOIN LATERAL (
       SELECT j.state::text AS state, CASE WHEN j.state IN ('retry', 'failed') THEN COALESCE(j.output->>'message', j.output->'value'->>'message', j.output::text) END AS error,
              COALESCE(j.completed_on, j.start_after) AS at
       FROM ${QUEUE_SCHEMA}.job j WHERE j.name = $3 AND j.singleton_key = r.name || '@' || r.head_commit ORDER BY j.created_on DESC LIMIT 1
     ) b ON true
     WHERE r.name = ANY($1)`,
    [repos, schemaVersion, INDEX_QUEUE],
  );
  const byName = new Map(
    rows.rows.map(({ headJobError, headJobErrorAt, ...r }) => {
      const served = !!r.headCommit && r.servedCommit === r.headCommit;
      const lastError = r.headError
        ? { message: `branch head unreadable: ${r.headError}`, at: r.headErrorAt }
        : headJobError && !served
          ? { message: headJobError, at: headJobErrorAt }
          : null;
      return [r.repo, { ...r, lastError }];
    }),
  );
  return repos.flatMap((name) => (byName.has(name) ? [byName.get(name)!] : []));
}

/** What the head's build is doing, for index_status: from its newest job, with the error of a failing one. */
function headBuildText(r: RepoFreshness): string {
  if (r.headState === 'broken') return 'its shard was lost, rebuild queued';
  if (!r.headCommit) return '';
  const error = r.lastError ? `: ${r.lastError.message}` : '';
  switch (r.headJobState) {
    case 'created':
      return "the head's build is queued";
    case 'active':
      return 'the head is being built';
    case 'retry':
      return `the head's build failed and will be retried${error}`;
    case 'failed':
      return `the head's build failed, retries spent; the next poll queues it again${error}`;
    case 'completed':
    case 'cancelled':
    case null:
      return 'the head is not built yet';
  }
}

/** One line of a repository's freshness: `served X; branch head Y; up to date` (or the lag, or why the head is unknown). */
export function freshnessText(r: RepoFreshness): string {
  const served = r.servedCommit ? `served ${r.servedCommit.slice(0, 12)}` : 'not indexed yet';
  if (r.headError) return `${served}; error: the branch head could not be read (${r.headError})`;
  const head = r.headCommit ? `branch head ${r.headCommit.slice(0, 12)}` : 'branch head not read yet';
  if (r.headCommit && r.servedCommit === r.headCommit) return `${served}; ${head}; up to date`;
  const lag = r.lagCommits > 0 ? `lag ${r.lagCommits} commit${r.lagCommits === 1 ? '' : 's'}, ${Math.round(r.lagSeconds)} s` : 'behind';
  const building = headBuildText(r);
  return `${served}; ${head}; ${lag}${building ? ` (${building})` : ''}`;
}
