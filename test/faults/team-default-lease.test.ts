/**
 * A team-server fault with the default job lease, part of `npm run stress`
 * (a minute or more of waiting by design): `kill -9` of a worker mid-job with
 * the default 60 s lease: `fleet jobs` marks the job of the worker that
 * stopped heart-beating, and another worker redoes it once the lease ends.
 * `npm test` covers the same fault with a short lease
 * (test/team/team-faults.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, createDatabase, fixtureRepo, git, pythonModules, spawnWorker, sql, tempDir, waitFor, type Proc } from '../team/team-harness.js';

const temp = tempDir('reponav-team-lease-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let big = '';

beforeAll(async () => {
  db = await createDatabase();
  expect(cli(['fleet', 'migrate', '--pg', db.url]).status).toBe(0);
  big = fixtureRepo(temp.dir, 'big', pythonModules('pkg', 250));
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

const store = () => `${temp.dir}/store`;

describe('team server faults with the default lease', () => {
  it('kill -9 with the default lease (60 s): fleet jobs marks the job of the silent worker, another worker redoes it within about a minute', async () => {
    const head = git(big, 'rev-parse', 'HEAD');
    const first = spawnWorker(db.url, store(), `${temp.dir}/w1`, ['--poll', '0']);
    procs.push(first);
    // No --lease: the default.
    expect(cli(['fleet', 'add', 'big', big, '--groups', 'g', '--pg', db.url]).status).toBe(0);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND state = 'active'")).length > 0, 20_000, first.log);
    first.kill9();
    const killedAt = Date.now();
    const second = spawnWorker(db.url, store(), `${temp.dir}/w2`, ['--poll', '0']);
    procs.push(second);
    // Heartbeats are 5 s apart; after 15 s without one the job's worker counts as gone.
    const jobs = await waitFor(() => {
      const out = cli(['fleet', 'jobs', '--pg', db.url]).stdout;
      return /active\s+big@\S+\s+try 1 of 4\s+worker stopped heart-beating; lease ends in \d+ s, then it is retried/.test(out) ? out : null;
    }, 30_000);
    expect(jobs).toContain(`big@${head.slice(0, 12)}`);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND state = 'completed' AND output->>'result' = 'built' AND singleton_key = $1 AND retry_count = 1 AND completed_on > now() - interval '30 seconds'", [`big@${head}`])).length > 0, 110_000, second.log);
    const recoveredMs = Date.now() - killedAt;
    expect(recoveredMs).toBeGreaterThan(40_000);
    expect(recoveredMs).toBeLessThan(100_000);
    await second.stop();
  }, 150_000);
});
