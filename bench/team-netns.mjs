#!/usr/bin/env node
// Team server on several "hosts" of one machine (#18): a `reponav worker` and a
// `reponav serve` each in its own Linux network namespace, joined to the root
// namespace by a veth pair. PostgreSQL (a private instance this script
// creates) and a git daemon listen in the root namespace on the veth
// addresses only; the worker and the server reach them across the links, and
// shards go through PostgreSQL (--store postgres), so every byte between the
// processes crosses a network link. The agent (an MCP client) talks to the
// server across its link too. Inside a namespace 127.0.0.1 is that
// namespace's own loopback, so nothing can reach the shared cluster there.
//
// Measures: catalog indexed (s), PostgreSQL round trip from each namespace vs
// the root namespace, query p50/p95 through the server (cold and warm shard
// cache), push→served through the signed webhook, and where PostgreSQL sees
// each connection coming from. Needs root (ip netns, veth, tc), the
// PostgreSQL 15 server binaries and `npm run build`. Opt-in: not in npm test.
//
// Usage: sudo node bench/team-netns.mjs [--repos 20] [--queries 20] [--delay-ms 0]
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchGit, syntheticRepos } from './synthetic-repos.mjs';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const PG_BIN = '/usr/lib/postgresql/15/bin';
const { values: opt } = parseBenchArgs({
  usage: 'usage: sudo node bench/team-netns.mjs [--repos 20] [--queries 20] [--delay-ms 0]',
  options: { repos: { type: 'string' }, queries: { type: 'string' }, 'delay-ms': { type: 'string' } },
});
const arg = (name, fallback) => opt[name] ?? fallback;
const REPOS = Number(arg('repos', '20'));
const QUERIES = Math.min(REPOS, Number(arg('queries', '20')));
const DELAY_MS = Number(arg('delay-ms', '0'));
const PORT = 25432 + Math.floor(Math.random() * 1000);
const SECRET = 'netns-bench-webhook-secret-0123456789';
const HOSTS = {
  worker: { ns: 'rnv-worker', root: 'rnv-w0', peer: 'rnv-w1', rootIp: '10.77.1.1', ip: '10.77.1.2' },
  server: { ns: 'rnv-server', root: 'rnv-s0', peer: 'rnv-s1', rootIp: '10.77.2.1', ip: '10.77.2.2' },
};

const { default: pg } = await import('pg');
const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
const team = await import(pathToFileURL(join(PROJECT, 'dist/team/index.js')).href);
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10 : null;
};
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...options });
  if (r.status !== 0 && !options.allowFail) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r;
}
const git = benchGit;

if (process.getuid?.() !== 0) {
  console.error('team-netns: needs root (ip netns add, veth pairs, tc); run it with sudo.');
  process.exit(2);
}

const temp = mkdtempSync(join(tmpdir(), 'reponav-netns-'));
const procs = [];
const cleanups = [];
async function main() {
  // 1. Two namespaces, each with a veth pair to the root namespace (optionally with netem delay on both ends).
  for (const h of Object.values(HOSTS)) {
    run('ip', ['netns', 'add', h.ns]);
    cleanups.push(() => run('ip', ['netns', 'del', h.ns], { allowFail: true }));
    run('ip', ['link', 'add', h.root, 'type', 'veth', 'peer', 'name', h.peer]);
    run('ip', ['link', 'set', h.peer, 'netns', h.ns]);
    run('ip', ['addr', 'add', `${h.rootIp}/24`, 'dev', h.root]);
    run('ip', ['link', 'set', h.root, 'up']);
    run('ip', ['netns', 'exec', h.ns, 'ip', 'addr', 'add', `${h.ip}/24`, 'dev', h.peer]);
    run('ip', ['netns', 'exec', h.ns, 'ip', 'link', 'set', h.peer, 'up']);
    run('ip', ['netns', 'exec', h.ns, 'ip', 'link', 'set', 'lo', 'up']);
    if (DELAY_MS > 0) {
      if (run('tc', ['qdisc', 'add', 'dev', h.root, 'root', 'netem', 'delay', '0ms'], { allowFail: true }).status !== 0) {
        throw new Error('--delay-ms needs tc netem (the sch_netem kernel module), which this kernel does not offer.');
      }
      run('tc', ['qdisc', 'del', 'dev', h.root, 'root']);
      run('tc', ['qdisc', 'add', 'dev', h.root, 'root', 'netem', 'delay', `${DELAY_MS}ms`]);
      run('ip', ['netns', 'exec', h.ns, 'tc', 'qdisc', 'add', 'dev', h.peer, 'root', 'netem', 'delay', `${DELAY_MS}ms`]);
    }
  }
  // The shared cluster on 127.0.0.1:5432 is out of reach inside a namespace (its loopback is its own).
  const cheat = run('ip', ['netns', 'exec', HOSTS.worker.ns, 'bash', '-c', 'exec 3<>/dev/tcp/127.0.0.1/5432'], { allowFail: true });
  console.log(`worker namespace → 127.0.0.1:5432: ${cheat.status === 0 ? 'REACHABLE (the check is void)' : 'unreachable, as it should be'}`);

  // 2. A private PostgreSQL listening on the two root-side veth addresses (and loopback for this script).
  const pgDir = mkdtempSync(join(tmpdir(), 'reponav-netns-pg-'));
  cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
  const uid = Number(run('id', ['-u', 'postgres']).stdout.trim());
  const gid = Number(run('id', ['-g', 'postgres']).stdout.trim());
  chownSync(pgDir, uid, gid);
  const asPostgres = (command) => run('su', ['postgres', '-s', '/bin/sh', '-c', command]);
  asPostgres(`${PG_BIN}/initdb -D ${pgDir}/data -A trust -U postgres --no-sync -E UTF8 > ${pgDir}/initdb.log`);
  appendFileSync(join(pgDir, 'data', 'pg_hba.conf'), 'host all all 10.77.0.0/16 trust\n');
  const listen = `127.0.0.1,${HOSTS.worker.rootIp},${HOSTS.server.rootIp}`;
  asPostgres(`${PG_BIN}/pg_ctl -D ${pgDir}/data -o "-p ${PORT} -k ${pgDir} -c listen_addresses='${listen}' -c fsync=off" -l ${pgDir}/log -w start > /dev/null`);
  cleanups.push(() => asPostgres(`${PG_BIN}/pg_ctl -D ${pgDir}/data -m fast -w stop > /dev/null`));
  const adminUrl = `postgres://postgres@127.0.0.1:${PORT}`;
  const a = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await a.connect();
  await a.query('CREATE DATABASE reponav');
  await a.end();
  const url = `${adminUrl}/reponav`;

  // 3. Repositories served by a git daemon on the worker link: the worker fetches across it.
  const reposDir = join(temp, 'repos');
  mkdirSync(reposDir);
  syntheticRepos(reposDir, REPOS);
  const daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${reposDir}`, `--listen=${HOSTS.worker.rootIp}`, '--port=9418', reposDir], { stdio: 'ignore' });
  procs.push(daemon);

  // 4. Catalog and token from the root namespace (the operator's machine).
  const db = new team.TeamDatabase(url, silent);
  await team.migrate(db);
  const queue = await team.JobQueue.open(db, silent, { install: true });
  for (let r = 0; r < REPOS; r++) await team.addRepo(db, { name: `syn-${r}`, url: `git://${HOSTS.worker.rootIp}/syn-${r}`, branch: 'main', groups: ['g'] });
  const token = await team.createToken(db, 'bench', ['g']);
  await sleep(300); // the git daemon's start-up
  const t0 = performance.now();
  const polled = await team.pollOnce(db, queue, { logger: silent });
  if (polled.failed.length) throw new Error(`ls-remote over git:// failed: ${JSON.stringify(polled.failed[0])}`);

  // 5. The worker and the server, each in its namespace, reaching PostgreSQL by its veth address.
  const inNs = (h, args, env = {}) => {
    const child = spawn('ip', ['netns', 'exec', h.ns, 'nice', '-n', '10', process.execPath, CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    procs.push(child);
    return { child, log: () => log };
  };
  const worker = inNs(HOSTS.worker, ['worker', '--pg', `postgres://postgres@${HOSTS.worker.rootIp}:${PORT}/reponav`, '--store', 'postgres', '--work-dir', join(temp, 'worker'), '--poll', '0']);
  const server = inNs(HOSTS.server, ['serve', '--pg', `postgres://postgres@${HOSTS.server.rootIp}:${PORT}/reponav`, '--store', 'postgres', '--host', HOSTS.server.ip, '--port', '7744', '--cache-dir', join(temp, 'cache')], {
    REPONAV_WEBHOOK_SECRET: SECRET,
  });
  const ready = async () => Number((await db.query("SELECT count(*)::int AS n FROM reponav.commits WHERE state = 'ready'")).rows[0].n);
  while ((await ready()) < REPOS) {
    if (performance.now() - t0 > 600_000) throw new Error(`not indexed after 10 min:\n${worker.log()}`);
    await sleep(250);
  }
  const indexedS = (performance.now() - t0) / 1000;
  const base = `http://${HOSTS.server.ip}:7744`;
  while (!/MCP at/.test(server.log())) await sleep(100);

  // 6. Where PostgreSQL sees the processes (client_addr) and round trips from each namespace.
  const conns = (await db.query("SELECT application_name, host(client_addr) AS addr, count(*)::int AS n FROM pg_stat_activity WHERE datname = 'reponav' GROUP BY 1, 2 ORDER BY 1, 2")).rows;
  const rtt = (ns, host) => {
    const script = `import pg from 'pg'; const c = new pg.Client({ connectionString: 'postgres://postgres@${host}:${PORT}/reponav' }); await c.connect(); const xs = []; for (let i = 0; i < 200; i++) { const t = performance.now(); await c.query('SELECT 1'); xs.push(performance.now() - t); } await c.end(); xs.sort((a, b) => a - b); console.log(xs[100].toFixed(3));`;
    const args = ['--input-type=module', '-e', script];
    const r = ns ? run('ip', ['netns', 'exec', ns, process.execPath, ...args], { cwd: PROJECT }) : run(process.execPath, args, { cwd: PROJECT });
    return Number(r.stdout.trim());
  };
  const rttRoot = rtt(null, '127.0.0.1');
  const rttWorker = rtt(HOSTS.worker.ns, HOSTS.worker.rootIp);
  const rttServer = rtt(HOSTS.server.ns, HOSTS.server.rootIp);

  // 7. Queries from the root namespace through the server: a cold pass (download from PostgreSQL, checksum, open), then warm.
  const client = new Client({ name: 'netns-bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const timed = async (name, args) => {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
    return { ms: performance.now() - t, text: r.content[0].text };
  };
  const cold = [];
  const warm = [];
  for (let r = 0; r < QUERIES; r++) cold.push((await timed('search', { repo: `syn-${r}`, query: `validate request ${r}` })).ms);
  for (let r = 0; r < QUERIES; r++) warm.push((await timed('search', { repo: `syn-${r}`, query: `validate request ${r}` })).ms);

  // 8. Push → served through the webhook (the worker does not poll): commit, deliver the signed event, ask until answered.
  const pushes = [];
  for (let i = 0; i < 3; i++) {
    const repo = `syn-${i}`;
    const fn = `freshly_pushed_${i}`;
    writeFileSync(join(reposDir, repo, 'pkg', 'fresh.py'), `def ${fn}():\n    return ${i}\n`);
    git(join(reposDir, repo), 'add', '-A');
    git(join(reposDir, repo), 'commit', '-q', '-m', 'push');
    const after = git(join(reposDir, repo), 'rev-parse', 'HEAD');
    const t = performance.now();
    const body = JSON.stringify({ ref: 'refs/heads/main', after, repository: { name: repo, clone_url: `git://${HOSTS.worker.rootIp}/${repo}` } });
    const res = await globalThis.fetch(`${base}/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
      body,
    });
    if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    for (;;) {
      const found = await timed('find_function', { repo, name: fn });
      if (found.text.includes('pkg/fresh.py') && found.text.includes(after)) break;
      if (performance.now() - t > 120_000) throw new Error(`push not served in 2 min:\n${worker.log()}`);
      await sleep(100);
    }
    pushes.push((performance.now() - t) / 1000);
  }
  await client.close();
  await queue.close();
  await db.close();

  const result = {
    repos: REPOS,
    addedRoundTripMs: DELAY_MS * 2,
    indexedS: Math.round(indexedS * 10) / 10,
    pgRoundTripMs: { rootLoopback: rttRoot, workerNamespace: rttWorker, serverNamespace: rttServer },
    searchMs: { coldP50: pct(cold, 50), coldP95: pct(cold, 95), warmP50: pct(warm, 50), warmP95: pct(warm, 95), n: QUERIES },
    webhookPushToServedS: pushes.map((s) => Math.round(s * 100) / 100),
    connections: conns,
    load: Math.round(loadavg()[0] * 10) / 10,
  };
  console.log(JSON.stringify(result, null, 2));
}

try {
  await main();
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await sleep(1500);
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const c of cleanups.reverse()) {
    try {
      c();
    } catch (error) {
      console.error(`cleanup: ${error.message}`);
    }
  }
  rmSync(temp, { recursive: true, force: true });
}
