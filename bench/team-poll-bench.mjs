#!/usr/bin/env node
// Poll cost of the team server: N `reponav worker` processes, all polling
// every --poll seconds, over a catalog of --repos small git repositories.
// Counts `git ls-remote` calls (a `git` wrapper on the workers' PATH logs
// each, then sleeps --remote-delay seconds: a slow remote) and finished poll
// passes (reponav.poll_pass) over a window of --seconds, after every worker
// has started. References in the same run: what polling by every worker would
// cost, N × repos per interval, and the calls per minute of the first row
// (1 worker): passes never overlap, so the ratio N ÷ 1 should stay near 1.
// Figures are printed, not asserted. Builds fail at once (the store is a
// file, --retries 0) so the workers spend their time on polls.
//
// --compare DIST also runs the same worker counts with another build's dist/
// (e.g. the main branch's), printed as rows labelled with it; its passes are
// counted from pg-boss's 'reponav-poll' jobs when it has no poll_pass table.
//
// Usage: node bench/team-poll-bench.mjs [--pg postgres://postgres@127.0.0.1:5432] [--repos 200] [--workers 1,2,4] [--poll 5] [--seconds 30] [--remote-delay 0] [--compare DIST]
// Needs `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const S = { type: 'string' };
const { values: opt } = parseBenchArgs({
  usage: 'usage: node bench/team-poll-bench.mjs [--pg postgres://postgres@127.0.0.1:5432] [--repos 200] [--workers 1,2,4] [--poll 5] [--seconds 30] [--remote-delay 0] [--compare DIST]',
  options: { pg: S, repos: S, workers: S, poll: S, seconds: S, 'remote-delay': S, compare: S },
});
const arg = (name, fallback) => opt[name] ?? fallback;
const PG = arg('pg', 'postgres://postgres@127.0.0.1:5432');
const REPOS = Number(arg('repos', '200'));
const WORKERS = arg('workers', '1,2,4').split(',').map(Number);
const POLL = Number(arg('poll', '5'));
const SECONDS = Number(arg('seconds', '30'));
const REMOTE_DELAY = Number(arg('remote-delay', '0'));
const { default: pg } = await import('pg');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
const git = (cwd, ...args) => spawnSync('git', args, { cwd, env, encoding: 'utf8' });
async function sql(url, text, values = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}

const work = mkdtempSync(join(tmpdir(), 'reponav-poll-bench-'));
// One small repository, cloned (local, hard-linked) into REPOS catalog entries.
const seed = join(work, 'seed');
mkdirSync(seed);
git(seed, 'init', '-q', '-b', 'main');
writeFileSync(join(seed, 'a.py'), 'def a():\n    return 1\n');
git(seed, 'add', '-A');
git(seed, 'commit', '-q', '-m', 'seed');
for (let i = 0; i < REPOS; i++) git(work, 'clone', '-q', seed, `r${i}`);
const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
const log = join(work, 'ls-remote.log');
writeFileSync(join(work, 'git'), `#!/bin/sh\nif [ "$1" = ls-remote ]; then echo "$3" >> ${log}; sleep ${REMOTE_DELAY}; fi\nexec ${realGit} "$@"\n`);
chmodSync(join(work, 'git'), 0o755);
writeFileSync(join(work, 'store-file'), '');

console.log(`repos ${REPOS}, poll every ${POLL} s, window ${SECONDS} s, remote ${REMOTE_DELAY} s per ls-remote`);
console.log('| build | workers | passes | ls-remote calls | calls per minute | ratio to 1 worker | calls per pass per repo | calls if every worker polled (N × repos × intervals) | ratio to that | median pass (ms) | load |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
const builds = [{ label: 'this', cli: CLI }, ...(opt.compare ? [{ label: opt.compare, cli: join(resolve(opt.compare), 'cli/main.js') }] : [])];
for (const { label, cli: CLI } of builds) {
  let perMinuteOfOne = null;
  for (const n of WORKERS) {
    const name = `reponav_bench_${randomBytes(4).toString('hex')}`;
    await sql(`${PG}/postgres`, `CREATE DATABASE ${name}`);
    const url = `${PG}/${name}`;
    const procs = [];
    try {
      if (spawnSync(process.execPath, [CLI, 'fleet', 'migrate', '--pg', url]).status !== 0) throw new Error('fleet migrate failed');
      await sql(url, `INSERT INTO reponav.repos(name, url, branch, groups) SELECT 'r' || i, $1 || '/r' || i, 'main', '{g}' FROM generate_series(0, $2 - 1) i`, [work, REPOS]);
      rmSync(log, { force: true });
      for (let w = 0; w < n; w++) {
        const child = spawn(process.execPath, [CLI, 'worker', '--pg', url, '--store', join(work, 'store-file', 'x'), '--work-dir', join(work, `w${n}-${w}`), '--poll', String(POLL), '--retries', '0', '--verbose'], {
          env: { ...process.env, PATH: `${work}:${process.env.PATH}` },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let text = '';
        child.stderr.on('data', (d) => (text += d));
        procs.push({ child, log: () => text });
      }
      const leased = (await sql(url, "SELECT to_regclass('reponav.poll_pass') IS NOT NULL AS t"))[0].t;
      const passes = async () =>
        (await sql(url, leased ? 'SELECT passes::int AS n FROM reponav.poll_pass' : "SELECT count(*)::int AS n FROM reponav_queue.job WHERE name = 'reponav-poll' AND state = 'completed'"))[0].n;
      const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0);
      while ((await passes()) === 0 || !procs.every((p) => p.log().includes('reponav worker '))) await sleep(200);
      const [p0, c0, t0] = [await passes(), calls(), Date.now()];
      await sleep(SECONDS * 1000);
      const [p1, c1, t1] = [await passes(), calls(), Date.now()];
      const ran = p1 - p0;
      const checked = c1 - c0;
      const intervals = (t1 - t0) / 1000 / POLL;
      const reference = n * REPOS * intervals;
      const durations = procs.flatMap((p) => [...p.log().matchAll(/poll pass: \d+ checked, .* in (\d+) ms/g)].map((m) => Number(m[1]))).sort((a, b) => a - b);
      const median = durations.length ? durations[Math.floor(durations.length / 2)] : NaN;
      const perMinute = checked / ((t1 - t0) / 60_000);
      if (n === 1) perMinuteOfOne = perMinute;
      const ratio = perMinuteOfOne ? (perMinute / perMinuteOfOne).toFixed(2) : '-';
      console.log(`| ${label} | ${n} | ${ran} | ${checked} | ${perMinute.toFixed(1)} | ${ratio} | ${(checked / Math.max(1, ran) / REPOS).toFixed(2)} | ${Math.round(reference)} | ${(checked / reference).toFixed(2)} | ${median} | ${loadavg()[0].toFixed(1)} |`);
    } finally {
      for (const p of procs) p.child.kill('SIGTERM');
      await sleep(1500);
      for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      await sql(`${PG}/postgres`, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  }
}
rmSync(work, { recursive: true, force: true });
