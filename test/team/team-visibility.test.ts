/**
 * Failures are visible from the CLI and the endpoints, as separate processes:
 * an unreadable repository is `error` (not `lag=0`), a full shard store names
 * its path per repository and recovers with `fleet sync`, `/healthz` says
 * what is wrong, a bad cookie is 400, `fleet list | …` survives a closed
 * pipe, tokens are validated and listed, "no index yet" says the build is
 * queued, workers log each job at the default level and say when they wait
 * for PostgreSQL.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, CLI, createDatabase, fixtureRepo, fleetCli, havePrivatePostgres, mcpClient, readyCommits, spawnCli, spawnServer, sql, startPrivatePostgres, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-vis-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let server: Awaited<ReturnType<typeof spawnServer>>;
let token = '';
const store = () => `${temp.dir}/store`;
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  server = await spawnServer(db.url, store(), `${temp.dir}/cache`);
  procs.push(server);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  spawnSync('umount', [`${temp.dir}/small`]);
  await db?.drop();
  temp.remove();
});

const listed = async (name: string) => (JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories as any[]).find((r) => r.name === name);

describe('failures are visible', () => {
  it('an unreadable repository is error with its reason, not lag=0', async () => {
    const sync = await fleetCli(['fleet', 'add', 'ghost', `${temp.dir}/no-such-repo`, '--groups', 'g', '--pg', db.url]);
    expect(sync.stdout).toMatch(/could not read ghost: git ls-remote failed: .*no-such-repo/);
    const row = await listed('ghost');
    expect(row).toMatchObject({ state: 'error', lagCommits: null, servedCommit: null });
    expect(row.lastError.message).toMatch(/^branch head unreadable: git ls-remote failed/);
    expect((await fleetCli(['fleet', 'list', '--pg', db.url])).stdout).toMatch(/ghost\s+main\s+error\s+.*lag=\?.*error: branch head unreadable: git ls-remote failed/);
    expect((await fleetCli(['fleet', 'remove', 'ghost', '--store', store(), '--pg', db.url])).status).toBe(0);
  });

  it('says the build is queued when a repository has no index yet', async () => {
    fixtureRepo(temp.dir, 'fresh', { 'f.py': 'def f():\n    return 1\n' });
    expect((await fleetCli(['fleet', 'add', 'fresh', `${temp.dir}/fresh`, '--groups', 'g', '--pg', db.url])).status).toBe(0);
    const answer = await call(await mcpClient(server.mcpUrl, token), 'find_function', { repo: 'fresh', name: 'f' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^Repository 'fresh' has no index yet: the build of its branch head [0-9a-f]{12} is queued\. Call index_status to follow it\.$/);
  });

  it('a worker logs one line per job at the default level', async () => {
    const worker = spawnCli(['worker', '--pg', db.url, '--store', store(), '--work-dir', `${temp.dir}/w1`, '--poll', '0']);
    procs.push(worker);
    await waitFor(async () => (await readyCommits(db.url)).get('fresh')?.length === 1, 30_000, worker.log);
    await waitFor(() => /fresh@[0-9a-f]{12}: built in \d+ ms/.test(worker.log()), 5_000, worker.log);
    await worker.stop();
  });

  it.runIf(isRoot)('a full shard store: the error names where, per repository; fleet sync recovers once space is freed', async () => {
    const small = `${temp.dir}/small`;
    mkdirSync(small);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', small]).status).toBe(0);
    // Leave almost no space.
    spawnSync('dd', ['if=/dev/zero', `of=${small}/filler`, 'bs=4k', 'count=1000'], { stdio: 'ignore' });
    fixtureRepo(temp.dir, 'tight', { 'big.py': 'def big():\n    return 1\n' });
    expect((await fleetCli(['fleet', 'add', 'tight', `${temp.dir}/tight`, '--groups', 'g', '--retries', '0', '--pg', db.url])).status).toBe(0);
    const worker = spawnCli(['worker', '--pg', db.url, '--store', small, '--work-dir', `${temp.dir}/w2`, '--poll', '0']);
    procs.push(worker);
    await waitFor(async () => (await listed('tight'))?.state === 'failed', 30_000, worker.log);
    expect((await listed('tight')).lastError.message).toBe(`No space left on device while uploading to folder:${small}; free space there, then run reponav fleet sync.`);
    rmSync(`${small}/filler`);
    expect((await fleetCli(['fleet', 'sync', '--pg', db.url])).stdout).toContain('queued tight@');
    await waitFor(async () => (await listed('tight'))?.state === 'ready', 30_000, worker.log);
    await worker.stop();
  });

  it('/healthz says what is wrong with the shard store', async () => {
    writeFileSync(`${temp.dir}/not-a-folder`, '');
    const broken = await spawnServer(db.url, `${temp.dir}/not-a-folder/store`, `${temp.dir}/cache2`);
    procs.push(broken);
    const res = await fetch(`${broken.base}/healthz`);
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.problems).toHaveLength(1);
    expect(body.problems[0]).toMatch(/^shard store folder:.*not-a-folder\/store: .* cannot be read and written \(ENOTDIR\)$/);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    await broken.stop();
  });

  it('/healthz is 503 when the shard store has less free space than --store-min-free', async () => {
    // No file system here has 100,000 GiB free: the threshold is crossed without filling a disk.
    const short = await spawnServer(db.url, store(), `${temp.dir}/cache4`, ['--store-min-free', '100000g']);
    procs.push(short);
    const res = await fetch(`${short.base}/healthz`);
    expect(res.status).toBe(503);
    expect((await res.json()).problems).toEqual([expect.stringMatching(/^shard store folder:.*\/store: \d+ MiB free, less than the 102400000 MiB threshold \(--store-min-free\)$/)]);
    // The default threshold (1 GiB) holds on this machine's temporary folder.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    await short.stop();
  });

  it.runIf(havePrivatePostgres())('/healthz with PostgreSQL stopped is 503 naming PostgreSQL', async () => {
    const pg = await startPrivatePostgres();
    try {
      const url = `${pg.url}/postgres`;
      expect((await fleetCli(['fleet', 'migrate', '--pg', url])).status).toBe(0);
      const own = await spawnServer(url, store(), `${temp.dir}/cache3`);
      procs.push(own);
      expect((await fetch(`${own.base}/healthz`)).status).toBe(200);
      pg.stop();
      const res = await fetch(`${own.base}/healthz`);
      expect(res.status).toBe(503);
      expect((await res.json()).problems[0]).toMatch(/^PostgreSQL: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres is unreachable/);
      await own.stop();
    } finally {
      pg.destroy();
    }
  });

  it('a cookie with bad %-escaping is 400 in one sentence, without a stack trace', async () => {
    const res = await fetch(`${server.base}/api/info`, { headers: { Cookie: 'reponav_token=%E0%A4%A' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('The reponav_token cookie is not valid %-encoding; sign in again at /login.');
    expect(server.log()).not.toContain('URIError');
  });

  it('fleet list into a closed pipe ends quietly', () => {
    const result = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" fleet list --pg '${db.url}' | true`], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('token names and groups are validated like the catalog, and tokens are listed', async () => {
    const badGroup = await fleetCli(['fleet', 'token', 'create', 'mallory', '--groups', "alpha'--", '--pg', db.url]);
    expect(badGroup.status).not.toBe(0);
    expect(badGroup.stderr.trim()).toMatch(/^(error: )?Invalid token groups: a group is letters, digits and \. _ - \(at most 64\)\.$/);
    const noName = await fleetCli(['fleet', 'token', 'create', '', '--groups', 'g', '--pg', db.url]);
    expect(noName.status).not.toBe(0);
    expect(noName.stderr.trim()).toMatch(/Invalid token name: a token needs a name\.$/);
    await fleetCli(['fleet', 'token', 'revoke', 't', '--pg', db.url]);
    const list = (await fleetCli(['fleet', 'token', 'list', '--pg', db.url])).stdout;
    // Times are printed as UTC minutes, so nothing here depends on how long the run took.
    const at = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ';
    expect(list).toMatch(new RegExp(`^t {2}groups=g {2}created ${at} {2}expires ${at} {2}(?:last used ${at}|never used) {2}revoked ${at}\\n0 active token\\(s\\), 0 expired, 1 revoked\\n$`));
    expect(list).not.toContain('rnv_');
  });

  it('token names are unique among active tokens; --expires and its default; an expired token is refused; last use is listed', async () => {
    const first = await fleetCli(['fleet', 'token', 'create', 'tok-alpha', '--groups', 'g', '--pg', db.url]);
    expect(first.status).toBe(0);
    const twice = await fleetCli(['fleet', 'token', 'create', 'tok-alpha', '--groups', 'gamma', '--pg', db.url]);
    expect(twice.status).toBe(1);
    expect(twice.stderr.trim()).toMatch(/^(error: )?A token named 'tok-alpha' exists; revoke it first \(reponav fleet token revoke\) or pick another name\.$/);
    const badExpiry = await fleetCli(['fleet', 'token', 'create', 'tok-b', '--groups', 'g', '--expires', '5 days', '--pg', db.url]);
    expect(badExpiry.status).not.toBe(0);
    expect(badExpiry.stderr).toMatch(/Give a time such as 90d, 12h or 2w \(hours, days, weeks\), or 'never'\./);
    expect((await fleetCli(['fleet', 'token', 'create', 'tok-never', '--groups', 'g', '--expires', 'never', '--pg', db.url])).status).toBe(0);
    expect((await fleetCli(['fleet', 'token', 'create', 'tok-day', '--groups', 'g', '--expires', '1d', '--pg', db.url])).status).toBe(0);
    // The expiry is set by the database from its own clock: compare it with the creation time, not with this machine's.
    const rows = await sql<{ name: string; days: number | null }>(db.url, "SELECT name, extract(epoch FROM expires_at - created_at)::float8 / 86400 AS days FROM reponav.tokens WHERE name LIKE 'tok-%' AND revoked_at IS NULL ORDER BY id");
    expect(rows).toEqual([
      { name: 'tok-alpha', days: 90 },
      { name: 'tok-never', days: null },
      { name: 'tok-day', days: 1 },
    ]);
    const token = first.stdout.trim();
    const asked = await fetch(`${server.base}/api/repos`, { headers: { Authorization: `Bearer ${token}` } });
    expect(asked.status).toBe(200);
    const listed = (await fleetCli(['fleet', 'token', 'list', '--pg', db.url])).stdout;
    expect(listed).toMatch(/^tok-alpha {2}groups=g {2}created \S+ \S+ {2}expires \S+ \S+ {2}last used \S+ \S+$/m);
    expect(listed).toMatch(/^tok-never {2}groups=g {2}created \S+ \S+ {2}expires never {2}never used$/m);
    await sql(db.url, "UPDATE reponav.tokens SET expires_at = now() - interval '1 second' WHERE name = 'tok-alpha'");
    const refused = await fetch(`${server.base}/api/repos`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    expect((await fleetCli(['fleet', 'token', 'list', '--pg', db.url])).stdout).toMatch(/^tok-alpha {2}groups=g {2}created \S+ \S+ {2}expired \S+ \S+ {2}last used \S+ \S+\n(.*\n)*2 active token\(s\), 1 expired, 1 revoked\n$/m);
    // Revoking frees the name; one revoke hits one token.
    expect((await fleetCli(['fleet', 'token', 'revoke', 'tok-alpha', '--pg', db.url])).stdout.trim()).toBe('revoked 1 token(s)');
    expect((await fleetCli(['fleet', 'token', 'create', 'tok-alpha', '--groups', 'gamma', '--pg', db.url])).status).toBe(0);
  });

  it('a worker waiting for its database says so every few seconds', async () => {
    const worker = spawnCli(['worker', '--pg', 'postgres://postgres@127.0.0.1:1/nowhere', '--store', store(), '--work-dir', `${temp.dir}/w3`]);
    procs.push(worker);
    await waitFor(() => /waiting for PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere \(\d+ s so far\)/.test(worker.log()), 20_000, worker.log);
    await worker.stop();
  });
});
