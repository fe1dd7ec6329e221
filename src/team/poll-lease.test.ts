/**
 * The poll pass lease on a real PostgreSQL (REPONAV_TEST_PG, default the
 * local one; a database created and dropped here): one holder at a time, the
 * next pass only an interval after the last ended, a dead holder's pass taken
 * over once its lease ran out (the lease moved back in the database, not
 * waited for), and a stopped pass released at once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { migrate } from './migrations.js';
import { TeamDatabase } from './pg-database.js';
import { endPass, renewPass, startPass, type HeldPass } from './poll-lease.js';

const SERVER = process.env.REPONAV_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const NAME = `reponav_lease_${randomBytes(5).toString('hex')}`;
let db: TeamDatabase;

async function admin(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${NAME}`);
  db = new TeamDatabase(`${SERVER}/${NAME}`, silentLogger, { retryMs: 5_000 });
  await migrate(db);
});

afterAll(async () => {
  await db?.close();
  await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
});

const held = (attempt: Awaited<ReturnType<typeof startPass>>): HeldPass => {
  if (!attempt.started) throw new Error(`not started (retry in ${attempt.retryInSeconds} s)`);
  return attempt.started;
};

describe('poll pass lease', () => {
  it('one holder at a time; a dead holder is taken over after its lease; the next pass waits the interval', async () => {
    const a = held(await startPass(db, 'worker-a', 60));
    // Held: another worker waits, at most until the lease ends.
    const refused = await startPass(db, 'worker-b', 60);
    expect(refused.started).toBeNull();
    expect(refused.started === null && refused.retryInSeconds).toBeGreaterThan(0);
    expect(refused.started === null && refused.retryInSeconds).toBeLessThanOrEqual(30);
    expect(await renewPass(db, a)).toBe(true);

    // worker-a dies: its lease runs out and worker-b takes the pass over.
    await db.query("UPDATE reponav.poll_pass SET lease_until = now() - interval '1 second'");
    const b = held(await startPass(db, 'worker-b', 60));
    expect(await renewPass(db, a)).toBe(false);
    // The late holder's end changes nothing of the new pass.
    await endPass(db, a, true);
    expect((await db.query('SELECT holder, passes::int AS passes FROM reponav.poll_pass')).rows[0]).toEqual({ holder: 'worker-b', passes: 0 });

    await endPass(db, b, true);
    // Finished: counted, and the next pass waits the interval from its end.
    expect((await db.query('SELECT holder, passes::int AS passes FROM reponav.poll_pass')).rows[0]).toEqual({ holder: null, passes: 1 });
    const early = await startPass(db, 'worker-a', 60);
    expect(early.started).toBeNull();
    expect(early.started === null && early.retryInSeconds).toBeGreaterThan(50);
    await db.query("UPDATE reponav.poll_pass SET ended_at = now() - interval '61 seconds'");
    const c = held(await startPass(db, 'worker-a', 60));

    // Stopped mid-pass: released at once, not counted, and the next may start without waiting the interval.
    await endPass(db, c, false);
    expect((await db.query('SELECT holder, passes::int AS passes FROM reponav.poll_pass')).rows[0]).toEqual({ holder: null, passes: 1 });
    held(await startPass(db, 'worker-b', 60));
  });
});
