/**
 * One cluster-wide poll schedule: however many workers poll, a pass over the
 * catalog costs one `git ls-remote` per repository (one worker at a time holds
 * the pass lease, poll-lease.ts). Counted with a `git` wrapper on
 * the workers' PATH that logs each ls-remote.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, fixtureRepo, fleetCli, spawnCli, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-poll-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
const REPOS = 4;

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  for (let i = 0; i < REPOS; i++) {
    const path = fixtureRepo(temp.dir, `r${i}`, { 'a.py': `def a${i}():\n    return ${i}\n` });
    expect((await fleetCli(['fleet', 'add', `r${i}`, path, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  }
  const real = '/usr/bin/git';
  writeFileSync(`${temp.dir}/git`, `#!/bin/sh\n[ "$1" = ls-remote ] && echo "$3" >> ${temp.dir}/ls-remote.log\nexec ${existsSync(real) ? real : 'git'} "$@"\n`);
  chmodSync(`${temp.dir}/git`, 0o755);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

describe('poll schedule', () => {
  it('three workers polling every second check each repository once per pass', async () => {
    const env = { PATH: `${temp.dir}:${process.env.PATH}` };
    for (let i = 0; i < 3; i++) {
      // The store is a file: builds fail at once (--retries 0), so the workers spend their time on polls.
      writeFileSync(`${temp.dir}/store-file`, '');
      const worker = spawnCli(['worker', '--pg', db.url, '--store', `${temp.dir}/store-file/x`, '--work-dir', `${temp.dir}/w${i}`, '--poll', '1', '--retries', '0', '--verbose'], env);
      procs.push(worker);
    }
    const passes = async () => (await sql(db.url, 'SELECT passes::int AS n FROM reponav.poll_pass'))[0].n as number;
    const calls = () => (existsSync(`${temp.dir}/ls-remote.log`) ? readFileSync(`${temp.dir}/ls-remote.log`, 'utf8').trim().split('\n') : []);
    // Measure once every worker runs: from the first finished pass on, until three more have finished.
    await waitFor(async () => (await passes()) > 0 && procs.every((p) => p.log().includes('reponav worker ')), 30_000, () => procs.map((p) => p.log()).join('\n'));
    const [passes0, calls0, started] = [await passes(), calls().length, Date.now()];
    await waitFor(async () => (await passes()) >= passes0 + 3, 60_000, () => procs.map((p) => p.log()).join('\n'));
    const [passes1, calls1, seconds] = [await passes(), calls(), (Date.now() - started) / 1000];
    await Promise.all(procs.map((p) => p.stop()));
    const ran = passes1 - passes0;
    const checked = calls1.length - calls0;
    expect(ran).toBeGreaterThanOrEqual(3);
    // At most one pass per 1 s interval, whatever the number of workers.
    expect(ran).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    // Each pass checks each repository once (a pass running at either end of the window may add part of one).
    expect(checked).toBeGreaterThanOrEqual((ran - 1) * REPOS);
    expect(checked).toBeLessThanOrEqual((ran + 1) * REPOS);
  }, 120_000);
});
