#!/usr/bin/env node
// Team-server benchmark (#18): N = 1, 2, 4 `reponav worker` processes on a
// synthetic catalog of small repositories plus a few real ones (bare mirrors),
// one `reponav serve`. Measures jobs per minute, push-to-served time, query
// p50/p95 with a cold and a warm shard cache, and PostgreSQL connections.
// Figures are printed, not asserted. Each N gets a fresh database
// (reponav_bench_<random>) on --pg's cluster, dropped afterwards.
//
// Usage: node bench/team-bench.mjs [--pg postgres://postgres@127.0.0.1:5432] [--synthetic 200]
//          [--real $MIRRORS/pallets+flask/repo,$MIRRORS/py-pdf+pypdf/repo] [--workers 1,2,4] [--queries 40] [--json out.json]
// Needs `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { clearInterval, setInterval } from 'node:timers';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { syntheticRepos } from './synthetic-repos.mjs';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const { values: opt } = parseBenchArgs({
  usage: `usage: node bench/team-bench.mjs [--pg postgres://postgres@127.0.0.1:5432] [--synthetic 200]
         [--real MIRROR,MIRROR] [--workers 1,2,4] [--queries 40] [--json out.json]`,
  options: { pg: { type: 'string' }, synthetic: { type: 'string' }, real: { type: 'string' }, workers: { type: 'string' }, queries: { type: 'string' }, json: { type: 'string' } },
});
const arg = (name, fallback) => opt[name] ?? fallback;
const PG = arg('pg', 'postgres://postgres@127.0.0.1:5432');
const SYNTHETIC = Number(arg('synthetic', '200'));
const REAL = (arg('real', '') || '').split(',').filter(Boolean);
const WORKERS = arg('workers', '1,2,4').split(',').map(Number);
const QUERIES = Number(arg('queries', '40'));
const JSON_OUT = arg('json', null);

const team = await import(pathToFileURL(join(PROJECT, 'dist/team/index.js')).href);
const { default: pg } = await import('pg');
const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const git = (cwd, ...args) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
/** A mirror at $MIRRORS/owner+name/repo is catalogued as owner/name. */
const realName = (path) => basename(dirname(path)).replace('+', '/');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : null;
};

async function admin(text) {
  const c = new pg.Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

/** Small synthetic repositories: 6 Python files each, one function name unique per repository. */
function makeSynthetic(dir) {
  return syntheticRepos(dir, SYNTHETIC);
}

function spawnCli(args) {
  const child = spawn('nice', ['-n', '10', process.execPath, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  return { child, log: () => log };
}

async function mcp(url, token) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function timedCall(client, name, args) {
  const t = performance.now();
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
  return { ms: performance.now() - t, text: r.content[0].text };
}

async function runOnce(workers, temp, synthetic) {
  const dbName = `reponav_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const url = `${PG}/${dbName}`;
  const db = new team.TeamDatabase(url, silent);
  const store = join(temp, `store-${workers}`);
  const procs = [];
  let maxConnections = 0;
  const sampler = setInterval(async () => {
    const [row] = (await db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [dbName]).catch(() => ({ rows: [{ n: 0 }] }))).rows;
    maxConnections = Math.max(maxConnections, row.n);
  }, 500);
  try {
    await team.migrate(db);
    await (await team.JobQueue.open(db, silent, { install: true })).close();
    const all = [...synthetic, ...REAL.map((path) => ({ name: realName(path), url: path, branch: git(path, 'symbolic-ref', '--short', 'HEAD') }))];
    for (const repo of all) await team.addRepo(db, { ...repo, groups: ['bench'] });
    const token = await team.createToken(db, 'bench', ['bench']);
    const queue = await team.JobQueue.open(db, silent);
    const started = performance.now();
    await team.pollOnce(db, queue, { logger: silent, leaseSeconds: 120 });
    await queue.close();
    for (let w = 0; w < workers; w++) procs.push(spawnCli(['worker', '--pg', url, '--store', store, '--work-dir', join(temp, `w${workers}-${w}`), '--poll', '1', '--maintenance', '5']));
    let ready = 0;
    let syntheticDoneMs = null;
    while (ready < all.length) {
      await sleep(500);
      const rows = (await db.query("SELECT repo FROM reponav.commits WHERE state = 'ready'")).rows;
      ready = rows.length;
      if (syntheticDoneMs === null && rows.filter((r) => r.repo.startsWith('syn-')).length === synthetic.length) syntheticDoneMs = performance.now() - started;
    }
    const allMs = performance.now() - started;
    const buildStats = (await db.query("SELECT repo, build_ms, size_bytes FROM reponav.commits WHERE state = 'ready'")).rows;

    const server = spawnCli(['serve', '--pg', url, '--store', store, '--port', '0', '--cache-dir', join(temp, `s${workers}`)]);
    procs.push(server);
    while (!/MCP at (http:\/\/\S+?\/mcp)/.test(server.log())) await sleep(100);
    const mcpUrl = /MCP at (http:\/\/\S+?\/mcp)/.exec(server.log())[1];
    const client = await mcp(mcpUrl, token);
    const sample = synthetic.slice(0, QUERIES).map((r, i) => ({ repo: r.name, query: `validate request ${i % 6} of the service` }));
    const cold = [];
    const warm = [];
    for (const q of sample) cold.push((await timedCall(client, 'search', q)).ms);
    for (const q of sample) warm.push((await timedCall(client, 'search', q)).ms);
    const realCold = [];
    const realWarm = [];
    for (const r of REAL) {
      const q = { repo: realName(r), query: 'parse the configuration and raise an error on invalid input' };
      realCold.push((await timedCall(client, 'search', q)).ms);
      for (let i = 0; i < 5; i++) realWarm.push((await timedCall(client, 'search', q)).ms);
    }

    // Push to served: a commit on one synthetic repository, picked up by the workers' 1 s poll.
    const target = synthetic[synthetic.length - 1];
    // A name of this run only: the synthetic repositories are reused by the next N.
    const pushedName = `pushed_for_bench_${workers}`;
    writeFileSync(join(target.url, 'pkg', `${pushedName}.py`), `def ${pushedName}():\n    return 1\n`);
    git(target.url, 'add', '-A');
    git(target.url, 'commit', '-q', '-m', 'push');
    const pushed = performance.now();
    for (;;) {
      const r = await client.callTool({ name: 'find_function', arguments: { repo: target.name, name: pushedName } });
      if (r.content[0].text.includes(`pkg/${pushedName}.py`)) break;
      await sleep(200);
    }
    const pushToServedMs = performance.now() - pushed;
    await client.close();
    const syntheticBuilds = buildStats.filter((b) => b.repo.startsWith('syn-')).map((b) => b.build_ms);
    return {
      workers,
      repositories: all.length,
      allIndexedSeconds: +(allMs / 1000).toFixed(1),
      syntheticJobsPerMinute: +((synthetic.length / syntheticDoneMs) * 60_000).toFixed(1),
      allJobsPerMinute: +((all.length / allMs) * 60_000).toFixed(1),
      syntheticBuildMsP50: pct(syntheticBuilds, 50),
      realBuildMs: Object.fromEntries(buildStats.filter((b) => !b.repo.startsWith('syn-')).map((b) => [b.repo, b.build_ms])),
      pushToServedSeconds: +(pushToServedMs / 1000).toFixed(2),
      queryMs: {
        syntheticCold: { p50: +pct(cold, 50).toFixed(1), p95: +pct(cold, 95).toFixed(1) },
        syntheticWarm: { p50: +pct(warm, 50).toFixed(1), p95: +pct(warm, 95).toFixed(1) },
        realCold: realCold.map((x) => +x.toFixed(1)),
        realWarm: { p50: realWarm.length ? +pct(realWarm, 50).toFixed(1) : null, p95: realWarm.length ? +pct(realWarm, 95).toFixed(1) : null },
      },
      maxPgConnections: maxConnections,
      loadAverage1m: +loadavg()[0].toFixed(1),
    };
  } finally {
    clearInterval(sampler);
    for (const p of procs) p.child.kill('SIGTERM');
    await sleep(1500);
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await db.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

const temp = mkdtempSync(join(tmpdir(), 'reponav-team-bench-'));
try {
  const synthetic = makeSynthetic(temp);
  const results = [];
  for (const n of WORKERS) {
    // Synthetic repositories get a fresh clone per run (the workers' work dirs are per run too).
    const result = await runOnce(n, temp, synthetic);
    results.push(result);
    process.stderr.write(`${JSON.stringify(result)}\n`);
  }
  const out = { synthetic: SYNTHETIC, real: REAL.map((r) => realName(r)), results };
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(out, null, 2));
  console.log('| workers | repos | all indexed (s) | synthetic jobs/min | all jobs/min | push→served (s) | cold p50/p95 (ms) | warm p50/p95 (ms) | real cold (ms) | real warm p50/p95 (ms) | max PG conns | load |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const q = r.queryMs;
    console.log(`| ${r.workers} | ${r.repositories} | ${r.allIndexedSeconds} | ${r.syntheticJobsPerMinute} | ${r.allJobsPerMinute} | ${r.pushToServedSeconds} | ${q.syntheticCold.p50}/${q.syntheticCold.p95} | ${q.syntheticWarm.p50}/${q.syntheticWarm.p95} | ${q.realCold.join(', ')} | ${q.realWarm.p50}/${q.realWarm.p95} | ${r.maxPgConnections} | ${r.loadAverage1m} |`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
