/**
 * The lease on the cluster's poll pass (reponav.poll_pass, one row): a worker
 * starts a pass only when no pass runs and the last one ended at least one
 * poll interval ago, and holds it by renewing a short lease while it runs. So
 * a pass that outlasts the interval delays the next instead of overlapping
 * it, and the number of `git ls-remote` calls per minute is the same with 1,
 * 2 or 4 workers. A holder that dies stops renewing: its lease runs out and
 * the next worker takes the pass over.
 */
import { randomBytes } from 'node:crypto';
import type { Queryable } from './pg-database.js';

/** How long a pass's lease lasts without renewal (renewed every third of it): a dead holder delays polling by at most this. */
export const POLL_LEASE_SECONDS = 30;

/** A pass this worker holds. */
export interface HeldPass {
  passId: string;
  holder: string;
}

/** What trying to start a pass found. */
export type PassAttempt = { started: HeldPass } | { started: null; /** Seconds until a pass may start (another runs, or the interval since the last has not passed). */ retryInSeconds: number };

/**
 * Starts a pass for `holder` when none runs (or the running one's lease ran
 * out) and the last ended at least `intervalSeconds` ago; else says when to
 * try again.
 */
export async function startPass(db: Queryable, holder: string, intervalSeconds: number, leaseSeconds = POLL_LEASE_SECONDS): Promise<PassAttempt> {
  const passId = randomBytes(8).toString('hex');
  const taken = await db.query(
    `UPDATE reponav.poll_pass SET holder = $1, pass_id = $2, started_at = now(), lease_until = now() + make_interval(secs => $3)
     WHERE (holder IS NULL OR lease_until < now()) AND (ended_at IS NULL OR ended_at <= now() - make_interval(secs => $4))
     RETURNING pass_id`,
    [holder, passId, leaseSeconds, intervalSeconds],
  );
  if ((taken.rowCount ?? 0) > 0) return { started: { passId, holder } };
  const row = (
    await db.query<{ wait: number | null }>(
      `SELECT EXTRACT(EPOCH FROM GREATEST(
         CASE WHEN holder IS NOT NULL THEN lease_until - now() END,
         ended_at + make_interval(secs => $1) - now()))::float8 AS wait
       FROM reponav.poll_pass`,
      [intervalSeconds],
    )
  ).rows[0];
  return { started: null, retryInSeconds: Math.max(0, row?.wait ?? intervalSeconds) };
}

/** Extends a held pass's lease; false when it is no longer this holder's (its lease ran out and another worker took over). */
export async function renewPass(db: Queryable, pass: HeldPass, leaseSeconds = POLL_LEASE_SECONDS): Promise<boolean> {
  const result = await db.query(`UPDATE reponav.poll_pass SET lease_until = now() + make_interval(secs => $3) WHERE pass_id = $1 AND holder = $2`, [pass.passId, pass.holder, leaseSeconds]);
  return (result.rowCount ?? 0) > 0;
}

/**
 * Ends a held pass. A finished pass counts and starts the interval before the
 * next; an interrupted one (the worker stops) is released at once so another
 * worker takes the pass over without waiting.
 */
export async function endPass(db: Queryable, pass: HeldPass, finished: boolean): Promise<void> {
  await db.query(
    finished
      ? `UPDATE reponav.poll_pass SET holder = NULL, pass_id = NULL, lease_until = NULL, ended_at = now(), passes = passes + 1 WHERE pass_id = $1 AND holder = $2`
      : `UPDATE reponav.poll_pass SET holder = NULL, pass_id = NULL, lease_until = NULL WHERE pass_id = $1 AND holder = $2`,
    [pass.passId, pass.holder],
  );
}
