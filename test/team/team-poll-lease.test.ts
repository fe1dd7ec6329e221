/**
 * A poll pass never starts while the previous one runs, across workers: with
 * a remote slow enough that a pass outlasts --poll, two workers must not run
 * overlapping passes (which multiplied the `git ls-remote` calls per minute
 * by the number of workers). Checked without clocks: a `git` wrapper logs the
 * start of each ls-remote; while passes do not overlap, every repository has
 * been checked k or k+1 times at any point of the log (a pass checks each
 * repository once), whereas an overlapping pass checks the first repositories
 * a second time before the last ones once. SIGTERM to the worker holding
 * the pass, mid-check, ends its pass and releases it before its pool closes.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, fixtureRepo, fleetCli, spawnCli, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-poll-lease-');
let db: Awaited<ReturnType<typeof createDatabase>>;
/** More repositories than a pass checks at once (8), so a pass takes two rounds of the slow remote. */
const REPOS = 12;

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  for (let i = 0; i < REPOS; i++) {
    const path = fixtureRepo(temp.dir, `r${String(i).padStart(2, '0')}`, { 'a.py': `def a${i}():\n    return ${i}\n` });
    expect((await fleetCli(['fleet', 'add', `r${String(i).padStart(2, '0')}`, path, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  }
  const real = existsSync('/usr/bin/git') ? '/usr/bin/git' : 'git';
  // A slow remote: each ls-remote logs its repository, then takes 1.5 s (longer than --poll 1 with two rounds per pass).
  writeFileSync(`${temp.dir}/git`, `#!/bin/sh\nif [ "$1" = ls-remote ]; then echo "$3" >> ${temp.dir}/ls-remote.log; sleep 1.5; fi\nexec ${real} "$@"\n`);
  chmodSync(`${temp.dir}/git`, 0o755);
  writeFileSync(`${temp.dir}/store-file`, '');
}, 90_000);

afterAll(async () => {
  await db?.drop();
  temp.remove();
});

/** The largest difference, at any point of the call log, between the most- and least-checked repositories. */
function largestSpread(calls: readonly string[]): number {
  const counts = new Map<string, number>();
  let spread = 0;
  for (const url of calls) {
    counts.set(url, (counts.get(url) ?? 0) + 1);
    const values = [...counts.values(), ...Array.from({ length: REPOS - counts.size }, () => 0)];
    spread = Math.max(spread, Math.max(...values) - Math.min(...values));
  }
  return spread;
}

describe('poll pass lease', () => {
  it('two workers with a remote slower than --poll run one pass at a time, each checking every repository once', async () => {
    const env = { PATH: `${temp.dir}:${process.env.PATH}` };
    const procs: Proc[] = [];
    for (let i = 0; i < 2; i++) {
      // Builds fail at once (the store is a file, --retries 0): the workers spend their time on polls.
      procs.push(spawnCli(['worker', '--pg', db.url, '--store', `${temp.dir}/store-file/x`, '--work-dir', `${temp.dir}/w${i}`, '--poll', '1', '--retries', '0', '--verbose'], env));
    }
    const calls = () => (existsSync(`${temp.dir}/ls-remote.log`) ? readFileSync(`${temp.dir}/ls-remote.log`, 'utf8').trim().split('\n') : []);
    // Four passes' worth of checks: before the lease, the second worker's pass started a slot later, while the first still ran.
    await waitFor(() => calls().length >= 4 * REPOS, 90_000, () => `${calls().length} calls\n${procs.map((p) => p.log()).join('\n')}`);
    // SIGTERM to the pass's holder while one of its checks runs (a new ls-remote was just logged; it lasts 1.5 s, so the pass is mid-way).
    const holderId = async () => (await sql(db.url, 'SELECT holder FROM reponav.poll_pass'))[0].holder as string | null;
    const seen = calls().length;
    const holder = await waitFor(async () => calls().length > seen && (await holderId()), 30_000, () => 'no pass started');
    const stopped = procs.find((p) => p.log().includes(`reponav worker ${holder} `))!;
    expect(stopped, `holder ${holder}`).toBeDefined();
    // The order is judged up to here: the pass interrupted below is started over by the other worker.
    const log = calls();
    await stopped.stop();
    expect(stopped.child.exitCode, stopped.log()).toBe(0);
    expect(stopped.log()).toMatch(/poll pass: \d+ checked, .* \(interrupted\)/);
    // Released at once: the pass is not left to its lease.
    expect(await holderId()).not.toBe(holder);
    await Promise.all(procs.map((p) => p.stop()));
    expect(new Set(log).size).toBe(REPOS);
    expect(largestSpread(log), `ls-remote order:\n${log.join('\n')}`).toBeLessThanOrEqual(1);
    const [row] = await sql(db.url, 'SELECT passes::int AS passes, holder FROM reponav.poll_pass');
    expect(row.passes).toBeGreaterThanOrEqual(3);
    // Both workers stopped: none holds the pass.
    expect(row.holder).toBeNull();
    // Stopping ends the poll before the pool: no statement meets a closed pool.
    for (const p of procs) expect(p.log()).not.toMatch(/Cannot use a pool after calling end/);
  }, 150_000);
});
