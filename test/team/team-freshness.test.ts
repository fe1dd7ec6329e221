/**
 * What is served follows git's answer about the tracked branch, never the
 * order events arrive in: a late webhook for an older commit and a force-push
 * never put an older commit in front of the head; a build that fails is shown
 * with its error and retried (by a later poll after a backoff, at once by
 * `fleet sync`); `fleet rebuild` builds a commit again on demand. Separate
 * processes (one worker without polling, one server with the webhook) on the
 * shared PostgreSQL.
 */
import { createHmac } from 'node:crypto';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, git, mcpClient, spawnServer, spawnWorker, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const SECRET = 'freshness-webhook-secret-0123456789';
const temp = tempDir('reponav-team-fresh-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let server: Awaited<ReturnType<typeof spawnServer>>;
let token = '';
let repo = '';
const store = () => `${temp.dir}/store`;

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  repo = fixtureRepo(temp.dir, 'shop', { 'shop/cart.py': 'def add_item(cart, item):\n    return cart + [item]\n' });
  expect((await fleetCli(['fleet', 'add', 'shop', repo, '--groups', 'g', '--no-sync', '--pg', db.url])).status).toBe(0);
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  writeFileSync(`${temp.dir}/secret`, SECRET);
  server = await spawnServer(db.url, store(), `${temp.dir}/cache`, ['--webhook-secret-file', `${temp.dir}/secret`]);
  procs.push(server);
  procs.push(spawnWorker(db.url, store(), `${temp.dir}/w1`, ['--poll', '0']));
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

async function push(commit: string): Promise<any> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit, repository: { name: 'shop', clone_url: repo } });
  const res = await fetch(`${server.base}/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` },
    body,
  });
  expect(res.status).toBe(202);
  return res.json();
}

const fleetList = async () => JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories[0];
const status = async () => (await call(await mcpClient(server.mcpUrl, token), 'index_status', {})).text;
const served = async () => (await call(await mcpClient(server.mcpUrl, token), 'find_function', { repo: 'shop', name: 'add_item' })).text;

describe('freshness by git, not by arrival order', () => {
  it('a late webhook for an older commit never replaces the head', async () => {
    const a = commitFiles(repo, { 'shop/a.py': 'def feature_a():\n    return 1\n' }, 'A');
    const b = commitFiles(repo, { 'shop/b.py': 'def feature_b():\n    return 2\n' }, 'B');
    expect(await push(b)).toMatchObject({ commit: b, queued: ['shop'] });
    await waitFor(async () => (await served()).includes(`at commit ${b}`), 30_000, () => server.log());
    // The delivery for A arrives late: the server asks git, which says the head is B.
    expect(await push(a)).toEqual({ commit: a, queued: [], alreadySeen: [], notHead: [{ repo: 'shop', head: b }] });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await served()).toContain(`at commit ${b}`);
    expect(await status()).toBe(`shop (main): served ${b.slice(0, 12)}; branch head ${b.slice(0, 12)}; up to date`);
    expect(await fleetList()).toMatchObject({ state: 'ready', servedCommit: b, headCommit: b, lagCommits: 0 });
  });

  it('a force-push: the new head is built and served, the commit pushed away is never promoted', async () => {
    const before = git(repo, 'rev-parse', 'HEAD');
    git(repo, 'reset', '-q', '--hard', 'HEAD~1');
    const c = commitFiles(repo, { 'shop/c.py': 'def feature_c():\n    return 3\n' }, 'C (rewritten history)');
    // A redelivery of the old head first: it is no longer the head, nothing changes.
    expect((await push(before)).notHead).toEqual([{ repo: 'shop', head: c }]);
    await waitFor(async () => (await served()).includes(`at commit ${c}`), 30_000, () => server.log());
    expect(await status()).toBe(`shop (main): served ${c.slice(0, 12)}; branch head ${c.slice(0, 12)}; up to date`);
    expect(await fleetList()).toMatchObject({ state: 'ready', servedCommit: c, headCommit: c });
  });

  it('a failing build is shown with its error, a later poll queues it after a backoff, and fleet sync queues it now', async () => {
    // The store cannot take this repository's shards: its folder is a file.
    rmSync(`${store()}/shop`, { recursive: true, force: true });
    writeFileSync(`${store()}/shop`, 'not a folder');
    const d = commitFiles(repo, { 'shop/d.py': 'def feature_d():\n    return 4\n' }, 'D');
    expect((await fleetCli(['fleet', 'sync', 'shop', '--retries', '0', '--pg', db.url])).stdout).toContain(`queued shop@${d.slice(0, 12)}`);
    let last: unknown;
    await waitFor(async () => ((last = await fleetList()) as { state: string }).state === 'failed', 30_000, () => JSON.stringify(last));
    const listed = await fleetList();
    expect(listed).toMatchObject({ servedCommit: git(repo, 'rev-parse', 'HEAD~1'), headCommit: d, retriesLeft: 0 });
    expect(listed.lastError.message).toMatch(/ENOTDIR|EEXIST|not a directory|file already exists/i);
    const jobs = (await fleetCli(['fleet', 'jobs', '--pg', db.url])).stdout;
    expect(jobs).toMatch(new RegExp(`failed\\s+shop@${d.slice(0, 12)}.*error: `));
    // The worker's poller (a second worker, polling every second) queues it again, delayed by the backoff (1 min after one failure).
    const poller = spawnWorker(db.url, store(), `${temp.dir}/w2`, ['--poll', '1']);
    procs.push(poller);
    const [delayed] = await waitFor(
      async () => sql(db.url, "SELECT extract(epoch FROM start_after - now())::float8 AS wait FROM reponav_queue.job WHERE name = 'reponav-build' AND singleton_key = $1 AND state = 'created'", [`shop@${d}`]).then((r) => (r.length ? r : null)),
      20_000,
      poller.log,
    );
    expect(delayed.wait).toBeGreaterThan(40);
    await poller.stop();
    // Space is back (here: the folder); fleet sync queues the failed head now instead of after its backoff
    // (the delayed job is cancelled and queued again).
    rmSync(`${store()}/shop`, { force: true });
    expect((await fleetCli(['fleet', 'sync', '--pg', db.url])).stdout).toContain(`queued shop@${d.slice(0, 12)}`);
    await waitFor(async () => (await served()).includes(`at commit ${d}`), 30_000, () => server.log());
    expect(await fleetList()).toMatchObject({ state: 'ready', servedCommit: d, headCommit: d, lastError: null });
    // D is built now: its failed job is history, listed only with --all (before, fleet jobs kept listing it).
    expect((await fleetCli(['fleet', 'jobs', '--pg', db.url])).stdout).not.toContain(`shop@${d.slice(0, 12)}`);
    expect((await fleetCli(['fleet', 'jobs', '--all', '--pg', db.url])).stdout).toMatch(new RegExp(`failed\\s+shop@${d.slice(0, 12)}.*error: `));
  });

  it('fleet rebuild builds the head again (and a named commit), replacing its shard', async () => {
    const head = git(repo, 'rev-parse', 'HEAD');
    const shardFiles = () => readdirSync(`${store()}/shop`).filter((f) => f.startsWith(head));
    const [before] = shardFiles();
    expect((await fleetCli(['fleet', 'rebuild', 'shop', '--pg', db.url])).stdout).toBe(`queued a rebuild of shop@${head.slice(0, 12)}\n`);
    await waitFor(() => shardFiles().length === 1 && shardFiles()[0] !== before, 30_000, () => server.log());
    const older = git(repo, 'rev-parse', 'HEAD~1');
    expect((await fleetCli(['fleet', 'rebuild', 'shop', '--commit', older.slice(0, 9), '--pg', db.url])).stdout).toBe(`queued a rebuild of shop@${older.slice(0, 12)}\n`);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND singleton_key = $1 AND state = 'completed'", [`shop@${older}`])).length > 0, 30_000);
    // Still serving the head: a rebuilt older commit is not promoted.
    expect(await served()).toContain(`at commit ${head}`);
    const bad = await fleetCli(['fleet', 'rebuild', 'shop', '--commit', 'zz12', '--pg', db.url]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

