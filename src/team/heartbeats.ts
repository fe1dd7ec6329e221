/**
 * Heartbeats of workers and servers: each process upserts its row every few
 * seconds, so `fleet list` shows who is alive and what they do. A node that
 * has not beaten for DEAD_AFTER_SECONDS is listed as dead; its row is deleted
 * FORGET_AFTER_SECONDS after its last beat (by any live node's beat, or by the
 * listing itself), so a dead node is shown as dead until then and not forever.
 */
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { Queryable } from './pg-database.js';

/** How often a node beats. */
export const BEAT_SECONDS = 5;
/** A node is dead after this long without a beat (three missed beats). */
export const DEAD_AFTER_SECONDS = 15;
/** A dead node's row is deleted this long after its last beat. */
export const FORGET_AFTER_SECONDS = 600;

/** A node's row. */
export interface NodeBeat {
  id: string;
  kind: 'worker' | 'server';
  host: string;
  pid: number;
  beatAt: Date;
  /** False once the node has not beaten for DEAD_AFTER_SECONDS. */
  alive: boolean;
  info: Record<string, unknown>;
}

/** A running heartbeat. */
export interface Heartbeat {
  /**
   * Runs `work` with no beat in between, giving it `write(via)`, which writes
   * this node's row (with `info()` as it is then) through `via` — a
   * transaction's client, so the row changes together with what `work` does
   * in that transaction (a job taken or ended).
   */
  exclusive<T>(work: (write: (via: Queryable) => Promise<void>) => Promise<T>): Promise<T>;
  /** Stops beating and deletes the row. */
  stop(): Promise<void>;
}

/** Beats every `intervalMs` until stopped; `info()` is sent with each beat. A failed beat is logged and retried next time. */
export function startHeartbeat(
  db: Queryable,
  node: { id: string; kind: 'worker' | 'server' },
  info: () => Record<string, unknown>,
  logger: Logger,
  intervalMs = BEAT_SECONDS * 1000,
): Heartbeat {
  const write = async (via: Queryable) => {
    await via.query(
      `INSERT INTO reponav.nodes(id, kind, host, pid, info) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET beat_at = now(), info = excluded.info`,
      [node.id, node.kind, hostname(), process.pid, JSON.stringify(info())],
    );
  };
  // Beats and exclusive work run one at a time: a beat that read info() before a job was taken cannot land after it.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const beat = () =>
    serial(async () => {
      await write(db);
      await forgetDead(db);
    }).catch((error: Error) => logger.debug(`heartbeat: ${error.message}`));
  void beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return {
    exclusive: (work) => serial(() => work(write)),
    async stop() {
      clearInterval(timer);
      await serial(() => db.query('DELETE FROM reponav.nodes WHERE id = $1', [node.id])).catch(() => undefined);
    },
  };
}

/** Deletes the rows of nodes dead for FORGET_AFTER_SECONDS. */
async function forgetDead(db: Queryable): Promise<void> {
  await db.query('DELETE FROM reponav.nodes WHERE beat_at < now() - make_interval(secs => $1)', [FORGET_AFTER_SECONDS]);
}

/** Every node with a row, live ones and those dead for less than FORGET_AFTER_SECONDS (`alive` says which), by kind and id. */
export async function listNodes(db: Queryable): Promise<NodeBeat[]> {
  await forgetDead(db);
  const rows = await db.query<NodeBeat>(
    `SELECT id, kind, host, pid, beat_at AS "beatAt", beat_at > now() - make_interval(secs => $1) AS alive, info FROM reponav.nodes ORDER BY kind, id`,
    [DEAD_AFTER_SECONDS],
  );
  return rows.rows;
}
