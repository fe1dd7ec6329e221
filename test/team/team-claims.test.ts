/**
 * Processes on one host share the default folders without wiping each other,
 * as separate processes with one cache root (`REPONAV_CACHE_DIR`): two
 * `reponav serve` without `--cache-dir` take two folders, and neither a
 * second server nor its restart touches the first one's cached shards; a
 * server started after `kill -9` of another takes over the dead one's folder.
 * A worker killed with `kill -9` and restarted keeps its folder and its git
 * mirror (not cloned again), and its index's lock file outlives its polls.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDatabase, fixtureRepo, fleetCli, mcpClient, readyCommits, spawnCli, spawnServer, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-claims-');
const env = { REPONAV_CACHE_DIR: `${temp.dir}/cache` };
const serveBase = `${temp.dir}/cache/team-serve-${hostname()}`;
const workBase = `${temp.dir}/cache/team-worker-${hostname()}`;
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let token = '';
const store = () => `${temp.dir}/store`;

/** The pid a folder's claim names. */
const owner = (dir: string) => Number(readFileSync(join(dir, 'owner.pid'), 'utf8').trim().split(/\s+/)[0]);
const shardFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.db'));

function startWorker(): Proc {
  const worker = spawnCli(['worker', '--pg', db.url, '--store', store(), '--poll', '1', '--verbose'], env);
  procs.push(worker);
  return worker;
}

async function startServer(): Promise<Awaited<ReturnType<typeof spawnServer>>> {
  const server = await spawnServer(db.url, store(), null, [], env);
  procs.push(server);
  return server;
}

/** One tool call through `server` (so its cache holds the shard). */
async function ask(server: { mcpUrl: string }): Promise<string> {
  const client = await mcpClient(server.mcpUrl, token);
  try {
    const answer = await call(client, 'find_function', { name: 'checkout' });
    expect(answer.isError, answer.text).toBe(false);
    return answer.text;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  fixtureRepo(temp.dir, 'shop', { 'shop/cart.py': 'def checkout(cart):\n    return sum(cart)\n' });
  expect((await fleetCli(['fleet', 'add', 'shop', `${temp.dir}/shop`, '--groups', 'g', '--pg', db.url])).status).toBe(0);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

describe('claims on one host', () => {
  it('a worker killed with kill -9 and restarted keeps its folder and mirror; its index lock outlives its polls', async () => {
    const first = startWorker();
    await waitFor(async () => (await readyCommits(db.url)).get('shop')?.length === 1, 45_000, first.log);
    expect(owner(workBase)).toBe(first.child.pid);
    const mirror = statSync(join(workBase, 'git', 'shop.git'));
    const lock = join(workBase, 'index', 'shop.db.lock');
    expect(statSync(lock).isFile()).toBe(true);
    // Several sweeps (one per poll interval): the lock of a catalog repository stays, the same file.
    const lockInode = statSync(lock).ino;
    const sweeps = () => first.log().match(/swept .*: nothing to remove/g)?.length ?? 0;
    const before = sweeps();
    await waitFor(() => sweeps() >= before + 3, 30_000, first.log);
    expect(statSync(lock).ino).toBe(lockInode);
    expect(first.log()).not.toMatch(/removed the local mirrors/);
    first.kill9();
    await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, 10_000);
    const second = startWorker();
    await waitFor(() => /work folder (\S+)/.exec(second.log()), 20_000, second.log);
    expect(/work folder (\S+)/.exec(second.log())![1]).toBe(workBase);
    expect(owner(workBase)).toBe(second.child.pid);
    expect(statSync(join(workBase, 'git', 'shop.git')).ino).toBe(mirror.ino);
    expect(statSync(lock).isFile()).toBe(true);
    // A second live worker on the host takes the next folder.
    const third = startWorker();
    await waitFor(() => /work folder (\S+)/.exec(third.log()), 20_000, third.log);
    expect(/work folder (\S+)/.exec(third.log())![1]).toBe(`${workBase}-2`);
    expect(owner(workBase)).toBe(second.child.pid);
    await third.stop();
  });

  it('two servers without --cache-dir take two folders; a restart of one leaves the shards of the other; kill -9 frees a folder', async () => {
    const one = await startServer();
    await ask(one);
    expect(owner(serveBase)).toBe(one.child.pid);
    const cached = shardFiles(serveBase);
    expect(cached).toHaveLength(1);
    const inode = statSync(join(serveBase, cached[0])).ino;
    const two = await startServer();
    await ask(two);
    expect(owner(`${serveBase}-2`)).toBe(two.child.pid);
    await two.stop();
    const again = await startServer();
    await ask(again);
    expect(owner(`${serveBase}-2`)).toBe(again.child.pid);
    // The first server's claim and cached shard were never touched, and it still answers.
    expect(owner(serveBase)).toBe(one.child.pid);
    expect(shardFiles(serveBase)).toEqual(cached);
    expect(statSync(join(serveBase, cached[0])).ino).toBe(inode);
    await ask(one);
    one.kill9();
    await waitFor(() => one.child.exitCode !== null || one.child.signalCode !== null, 10_000);
    const third = await startServer();
    // The dead server's folder is taken over and emptied (its files are not trusted), then filled again.
    expect(owner(serveBase)).toBe(third.child.pid);
    expect(shardFiles(serveBase)).toEqual([]);
    await ask(third);
    expect(shardFiles(serveBase)).toHaveLength(1);
    expect(owner(`${serveBase}-2`)).toBe(again.child.pid);
  });
});
