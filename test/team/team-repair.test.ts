/**
 * Repairs without deleting anything from the catalog, as separate processes:
 * a shard deleted from the store or corrupted is reported in one sentence
 * naming the repository and commit, the previous ready commit answers
 * meanwhile, and the rebuild is queued and served; retention keeps the
 * newest commits and the pinned ones; `fleet remove` leaves no shard, row or
 * mirror behind.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, git, mcpClient, readyCommits, spawnServer, spawnWorker, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-repair-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let worker: Proc;
let token = '';
let repo = '';
const store = () => `${temp.dir}/store`;
const commits: string[] = [];

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  repo = fixtureRepo(temp.dir, 'lib', { 'lib/core.py': 'def parse_config(text):\n    return text.split()\n' });
  expect((await fleetCli(['fleet', 'add', 'lib', repo, '--groups', 'g', '--pg', db.url])).stdout).toContain('queued lib@');
  commits.push(git(repo, 'rev-parse', 'HEAD'));
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  worker = spawnWorker(db.url, store(), `${temp.dir}/w1`, ['--keep', '2']);
  procs.push(worker);
  await waitFor(async () => (await readyCommits(db.url)).get('lib')?.length === 1, 30_000, worker.log);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

/** Commits a change, syncs and waits until it is ready; returns the commit. */
async function pushAndBuild(name: string): Promise<string> {
  const commit = commitFiles(repo, { [`lib/${name}.py`]: `def ${name}():\n    return '${name}'\n` }, name);
  await fleetCli(['fleet', 'sync', '--pg', db.url]);
  await waitFor(async () => (await readyCommits(db.url)).get('lib')?.includes(commit), 30_000, worker.log);
  commits.push(commit);
  return commit;
}

const shardFile = async (commit: string) => (await sql(db.url, "SELECT location FROM reponav.commits WHERE repo = 'lib' AND commit = $1 AND state = 'ready'", [commit]))[0]?.location as string | undefined;

async function answer(server: { mcpUrl: string }, args: Record<string, unknown> = {}) {
  return call(await mcpClient(server.mcpUrl, token), 'find_function', { repo: 'lib', name: 'parse_config', ...args });
}

describe('lost and corrupt shards, retention, removal', () => {
  it('a deleted shard: reported naming repository and commit, the previous commit answers meanwhile, the rebuild is served', async () => {
    const b = await pushAndBuild('feature_b');
    const a = commits[0];
    const server = await spawnServer(db.url, store(), `${temp.dir}/s1`);
    procs.push(server);
    const location = (await shardFile(b))!;
    // Pinning A now keeps it through retention below.
    expect((await answer(server, { commit: a.slice(0, 10) })).text).toContain(`[answered from lib at commit ${a}]`);
    rmSync(`${store()}/${location}`);
    const first = await answer(server);
    expect(first.isError).toBe(false);
    expect(first.text).toContain(`[The index of lib at commit ${b.slice(0, 12)} is missing from the shard store; a rebuild is queued. Answered from the previous ready commit meanwhile.]`);
    expect(first.text).toContain(`[answered from lib at commit ${a}]`);
    await waitFor(async () => (await answer(server)).text.includes(`[answered from lib at commit ${b}]`), 30_000, worker.log);
    const status = await call(await mcpClient(server.mcpUrl, token), 'index_status', {});
    expect(status.text).toBe(`lib (main): served ${b.slice(0, 12)}; branch head ${b.slice(0, 12)}; up to date`);
    expect(server.log()).toContain(`The index of lib at commit ${b.slice(0, 12)} is missing`);
  });

  it('a corrupted shard fails its checksum: the same repair', async () => {
    const b = commits[1];
    const location = (await shardFile(b))!;
    writeFileSync(`${store()}/${location}`, 'not an index');
    // A server with a cold cache downloads it (the first server still holds its good copy).
    const server = await spawnServer(db.url, store(), `${temp.dir}/s2`);
    procs.push(server);
    const first = await answer(server);
    expect(first.text).toContain(`[The index of lib at commit ${b.slice(0, 12)} is corrupt (it failed its checksum); a rebuild is queued. Answered from the previous ready commit meanwhile.]`);
    expect(first.text).toContain(`[answered from lib at commit ${commits[0]}]`);
    await waitFor(async () => (await answer(server)).text.includes(`[answered from lib at commit ${b}]`), 30_000, worker.log);
  });

  it('retention keeps the newest 2 ready commits and the pinned one; their shards only', async () => {
    const c = await pushAndBuild('feature_c');
    const d = await pushAndBuild('feature_d');
    await waitFor(async () => (await readyCommits(db.url)).get('lib')?.length === 3, 20_000, worker.log);
    expect(new Set((await readyCommits(db.url)).get('lib'))).toEqual(new Set([commits[0], c, d]));
    const rows = await sql(db.url, "SELECT location FROM reponav.commits WHERE repo = 'lib' AND state = 'ready'");
    expect(readdirSync(`${store()}/lib`).sort()).toEqual(rows.map((r) => r.location.split('/')[1]).sort());
    expect(worker.log()).toMatch(/retention: lib: deleted 1 old shard/);
  });

  it('fleet remove deletes the shards, the registry rows and the worker mirror', async () => {
    expect(existsSync(`${temp.dir}/w1/git/lib.git`)).toBe(true);
    const removed = await fleetCli(['fleet', 'remove', 'lib', '--store', store(), '--pg', db.url]);
    expect(removed.stdout).toBe(`removed lib: 3 shards deleted from folder:${store()}, 0 jobs cancelled\n`);
    expect(existsSync(`${store()}/lib`)).toBe(false);
    expect(await sql(db.url, "SELECT 1 FROM reponav.commits WHERE repo = 'lib'")).toEqual([]);
    await waitFor(() => !existsSync(`${temp.dir}/w1/git/lib.git`) && !existsSync(`${temp.dir}/w1/index/lib.db`), 15_000, worker.log);
  });
});
