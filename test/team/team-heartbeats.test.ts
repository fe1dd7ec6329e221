/**
 * Heartbeats as `fleet jobs` and `fleet list` show them: a live worker's
 * active job always names its worker (never "stopped heart-beating" at a job's
 * start or end, however often one looks), a killed worker is listed as dead
 * until its row is forgotten (FORGET_AFTER_SECONDS after its last beat), and
 * then its row is gone. The dead worker's last beat is moved back in the
 * database instead of waiting for the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { DEAD_AFTER_SECONDS, FORGET_AFTER_SECONDS } from '../../src/team/heartbeats.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { runCliInProcess } from '../cli/in-process-cli.js';
import { createDatabase, fixtureRepo, fleetCli, pythonModules, readyCommits, spawnWorker, sql, tempDir, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-beats-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const REPOS = 4;

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  for (let i = 0; i < REPOS; i++) {
    const path = fixtureRepo(temp.dir, `b${i}`, pythonModules(`pkg${i}`, 60));
    expect((await fleetCli(['fleet', 'add', `b${i}`, path, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  }
}, 90_000);

afterAll(async () => {
  await db?.drop();
  temp.remove();
});

const fleet = async (...args: string[]) => {
  const result = await runCliInProcess(['fleet', ...args, '--pg', db.url], { cacheDir: temp.dir });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

describe('heartbeats', () => {
  it("a live worker's active jobs always name it, at every job start and end", async () => {
    const worker = spawnWorker(db.url, `${temp.dir}/store`, `${temp.dir}/w0`);
    // What fleet jobs reads (JobQueue.jobs), looked at every few milliseconds while the worker takes and ends jobs.
    const local = new TeamDatabase(db.url, silentLogger);
    const queue = await JobQueue.open(local, silentLogger);
    let activeSeen = 0;
    const orphaned: string[] = [];
    try {
      await waitFor(
        async () => {
          for (const j of (await queue.jobs(['active'], 200, DEAD_AFTER_SECONDS)).filter((j) => j.state === 'active')) {
            activeSeen++;
            if (j.worker === null) orphaned.push(`${j.repo}: ${JSON.stringify(j)}`);
          }
          return (await readyCommits(db.url)).size === REPOS;
        },
        120_000,
        () => worker.log(),
      );
    } finally {
      await queue.close();
      await local.close();
    }
    // Looked while builds ran (else the check below proves nothing).
    expect(activeSeen).toBeGreaterThan(0);
    expect(orphaned).toEqual([]);
    // fleet jobs words it from the same rows: no job shown without its worker.
    expect(await fleet('jobs')).not.toMatch(/stopped heart-beating/);
    const id = /reponav worker (\S+)/.exec(worker.log())![1];

    // Killed: its row stays, listed as dead, until FORGET_AFTER_SECONDS after its last beat.
    worker.kill9();
    await waitFor(() => worker.child.exitCode !== null || worker.child.signalCode !== null, 10_000);
    await sql(db.url, 'UPDATE reponav.nodes SET beat_at = now() - make_interval(secs => $2) WHERE id = $1', [id, DEAD_AFTER_SECONDS + 5]);
    const listed = JSON.parse(await fleet('list', '--json')) as { nodes: { id: string; alive: boolean }[] };
    expect(listed.nodes).toContainEqual(expect.objectContaining({ id, alive: false }));
    expect(await fleet('list')).toMatch(new RegExp(`worker ${id} DEAD \\(last beat`));

    await sql(db.url, 'UPDATE reponav.nodes SET beat_at = now() - make_interval(secs => $2) WHERE id = $1', [id, FORGET_AFTER_SECONDS + 5]);
    const after = JSON.parse(await fleet('list', '--json')) as { nodes: { id: string }[] };
    expect(after.nodes.map((n) => n.id)).not.toContain(id);
    expect(await sql(db.url, 'SELECT id FROM reponav.nodes WHERE id = $1', [id])).toEqual([]);
  }, 180_000);
});
