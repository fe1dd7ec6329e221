/**
 * Faults on the team server, as separate processes: `kill -9` of a worker in
 * the middle of a job (its lease expires and another worker completes the
 * job; nothing half-built becomes visible); SIGTERM
 * of a worker mid-build (the job goes back to the queue at once); `kill -9` of
 * a server in the middle of a request (the client's retry is answered by the
 * other server, identically). The same `kill -9` with the default lease
 * waits out a minute-long lease: test/faults/team-default-lease.test.ts, in
 * `npm run stress`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, git, mcpClient, pythonModules, readyCommits, spawnServer, spawnWorker, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-faults-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let token = '';
let big = '';

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  big = fixtureRepo(temp.dir, 'big', pythonModules('pkg', 250));
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
});

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

const store = () => `${temp.dir}/store`;

describe('team server faults', () => {
  it('kill -9 of a worker mid-job: its lease expires, another worker completes the job, nothing half-built is visible', async () => {
    const first = spawnWorker(db.url, store(), `${temp.dir}/w1`, ['--poll', '0']);
    procs.push(first);
    // A 3 s lease, renewed while the build runs; expired leases are found every second (--maintenance 1).
    expect((await fleetCli(['fleet', 'add', 'big', big, '--groups', 'g', '--lease', '3', '--pg', db.url])).status).toBe(0);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND state = 'active'")).length > 0, 20_000, first.log);
    first.kill9();
    // It died mid-job: no shard is registered and the store holds no finished file.
    expect((await readyCommits(db.url)).size).toBe(0);
    const second = spawnWorker(db.url, store(), `${temp.dir}/w2`, ['--poll', '0']);
    procs.push(second);
    await waitFor(async () => (await readyCommits(db.url)).get('big')?.length === 1, 40_000, second.log);
    const [job] = await sql(db.url, "SELECT state, retry_count, output FROM reponav_queue.job WHERE name = 'reponav-build'");
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBeGreaterThanOrEqual(1);
    expect(job.output.result).toBe('built');
    const [row] = await sql(db.url, 'SELECT built_by FROM reponav.commits');
    expect(row.built_by).toContain(`-${second.child.pid}-`);
    await second.stop();
  });

  it('SIGTERM of a worker mid-build: it exits within seconds and its job goes back to the queue for another worker', async () => {
    // 250 new files: a build long enough to be interrupted.
    const head = commitFiles(big, pythonModules('more', 250), 'more modules');
    const first = spawnWorker(db.url, store(), `${temp.dir}/w3`, ['--poll', '0']);
    procs.push(first);
    expect((await fleetCli(['fleet', 'sync', '--pg', db.url])).status).toBe(0);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND state = 'active'")).length > 0, 20_000, first.log);
    first.child.kill('SIGTERM');
    // That it exits (code 0, before the test's time limit) is the check; no clock is read.
    const code = await new Promise((resolve) => first.child.once('exit', resolve));
    expect(code).toBe(0);
    expect(first.log()).toContain(`big@${head.slice(0, 12)} given back to the queue: the worker was stopped mid-build`);
    const [job] = await sql(db.url, "SELECT state, output->>'message' AS error FROM reponav_queue.job WHERE name = 'reponav-build' AND singleton_key = $1 AND state <> 'completed'", [`big@${head}`]);
    expect(job).toEqual({ state: 'retry', error: 'the worker was stopped mid-build' });
    const second = spawnWorker(db.url, store(), `${temp.dir}/w4`, ['--poll', '0']);
    procs.push(second);
    await waitFor(async () => (await sql(db.url, "SELECT 1 FROM reponav_queue.job WHERE name = 'reponav-build' AND state = 'completed' AND output->>'result' = 'built' AND created_on > now() - interval '2 minutes' AND singleton_key = $1 AND retry_count = 1", [`big@${head}`])).length > 0, 40_000, second.log);
    await second.stop();
  });

  it('kill -9 of a server mid-request: the retry through the other server gets the same answer', async () => {
    const servers = await Promise.all([spawnServer(db.url, store(), `${temp.dir}/s1`, ['--verbose']), spawnServer(db.url, store(), `${temp.dir}/s2`)]);
    procs.push(...servers);
    const args = { repo: 'big', query: 'render a widget of a given size' };
    const reference = await call(await mcpClient(servers[1].mcpUrl, token), 'search', args);
    expect(reference.isError).toBe(false);
    // The first call on server 1 downloads the shard (a cold cache); kill it the moment the download is logged.
    servers[0].child.stderr!.on('data', (d: Buffer) => {
      if (d.toString().includes('shard big@')) servers[0].kill9();
    });
    const client = await mcpClient(servers[0].mcpUrl, token);
    const interrupted = await call(client, 'search', args).then(
      (answer) => ({ answered: answer }),
      (error: Error) => ({ failed: error.message }),
    );
    expect(interrupted).toHaveProperty('failed');
    const retried = await call(await mcpClient(servers[1].mcpUrl, token), 'search', args);
    expect(retried).toEqual(reference);
    expect(retried.text).toContain(`[answered from big at commit ${git(big, 'rev-parse', 'HEAD')}]`);
  });
});
