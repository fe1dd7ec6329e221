/**
 * PostgreSQL restarted mid-run, on a private instance this test starts
 * (initdb into a temp folder, its own port and socket folder), never the
 * shared cluster. One worker and one server keep running across the restart,
 * with shards stored in PostgreSQL itself: connections are re-established,
 * every commit pushed around the restart is built exactly once (one ready
 * shard, no failed job), and the server answers afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, havePrivatePostgres, mcpClient, pythonModules, readyCommits, sleep, spawnServer, spawnWorker, sql, startPrivatePostgres, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-restart-');
let instance: Awaited<ReturnType<typeof startPrivatePostgres>> | undefined;
let url = '';
const procs: Proc[] = [];

beforeAll(async () => {
  if (!havePrivatePostgres()) throw new Error('PostgreSQL 15 binaries are missing (/usr/lib/postgresql/15/bin); the restart test needs them.');
  instance = await startPrivatePostgres();
  url = (await createDatabase(instance.url)).url;
  expect((await fleetCli(['fleet', 'migrate', '--pg', url])).status).toBe(0);
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  instance?.destroy();
  temp.remove();
});

describe('PostgreSQL restart', () => {
  it('is survived by a worker and a server: no job lost or built twice, answers continue', async () => {
    const one = fixtureRepo(temp.dir, 'one', pythonModules('one', 60));
    const two = fixtureRepo(temp.dir, 'two', pythonModules('two', 60));
    for (const [name, path] of [['one', one], ['two', two]]) {
      expect((await fleetCli(['fleet', 'add', name, path, '--groups', 'g', '--lease', '10', '--pg', url])).status).toBe(0);
    }
    const token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', url])).stdout.trim();
    const worker = spawnWorker(url, 'postgres', `${temp.dir}/w`);
    const server = await spawnServer(url, 'postgres', `${temp.dir}/s`);
    procs.push(worker, server);
    await waitFor(async () => (await readyCommits(url)).size === 2, 30_000, worker.log);
    const client = await mcpClient(server.mcpUrl, token);
    const before = await call(client, 'find_function', { repo: 'one', name: 'helper_7' });
    expect(before.isError).toBe(false);

    // New commits on both branches, then a restart while the worker polls and builds them.
    const heads = {
      one: commitFiles(one, { 'one/added.py': 'def added_before_restart():\n    return 1\n' }, 'c2'),
      two: commitFiles(two, { 'two/added.py': 'def added_before_restart():\n    return 2\n' }, 'c2'),
    };
    await sleep(1200);
    instance!.stop();
    await sleep(1500);
    instance!.start();

    await waitFor(
      async () => {
        const ready = await readyCommits(url).catch(() => new Map<string, string[]>());
        return ready.get('one')?.includes(heads.one) && ready.get('two')?.includes(heads.two);
      },
      90_000,
      () => `${worker.log()}\n---\n${server.log()}`,
    );
    // A process that died says why in its log (once seen in a full run: the worker exited with 1).
    expect(worker.child.exitCode, `worker exited:\n${worker.log()}`).toBeNull();
    expect(server.child.exitCode, `server exited:\n${server.log()}`).toBeNull();
    // Each commit seen is built once; no job failed for good; nothing is left queued.
    const commits = await sql(url, 'SELECT repo, commit, state FROM reponav.commits ORDER BY repo, seq');
    expect(commits.map((c) => c.state)).toEqual(['ready', 'ready', 'ready', 'ready']);
    const jobs = await sql(url, "SELECT data->>'repo' AS repo, data->>'commit' AS commit, state, output->>'result' AS result FROM reponav_queue.job WHERE name = 'reponav-build'");
    expect(jobs.filter((j) => j.state === 'failed')).toEqual([]);
    await waitFor(async () => (await sql(url, "SELECT 1 FROM reponav_queue.job WHERE state NOT IN ('completed')")).length === 0, 20_000);
    const perCommit = new Map<string, number>();
    for (const j of jobs) perCommit.set(`${j.repo}@${j.commit}`, (perCommit.get(`${j.repo}@${j.commit}`) ?? 0) + 1);
    expect([...perCommit.values()].every((n) => n === 1)).toBe(true);
    // The shards live in PostgreSQL (this test's store), and the server answers from the new commits.
    expect((await sql(url, 'SELECT count(DISTINCT location)::int AS n FROM reponav.shard_chunks'))[0].n).toBe(4);
    const after = await mcpClient(server.mcpUrl, token);
    const answer = await call(after, 'find_function', { repo: 'two', name: 'added_before_restart' });
    expect(answer.text).toContain('two/added.py');
    expect(answer.text).toContain(`[answered from two at commit ${heads.two}]`);
    expect(await call(after, 'find_function', { repo: 'one', name: 'helper_7' })).toEqual({ ...before, text: before.text.replace(/commit [0-9a-f]+/, `commit ${heads.one}`) });
  }, 150_000);
});
