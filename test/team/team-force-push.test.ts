/**
 * A commit removed by force-push, as separate processes: `reset A; commit C;
 * push -f` removing B. The server stops serving B as soon as the new head is
 * recorded — it says there is no index for the new head while no commit on
 * the branch is known, then answers from A (ready, contained in C) while C's
 * build fails — and `fleet purge` deletes B's shard from the store, the
 * server's cache, the registry and its pins, and refuses it from then on (a
 * pin, a webhook, a poll of B pushed back, a rebuild).
 */
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, git, mcpClient, readyCommits, spawnServer, spawnWorker, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const SECRET = 'webhook-secret-for-force-push-0123456789';
const temp = tempDir('reponav-team-force-push-');
let db: Awaited<ReturnType<typeof createDatabase>>;
let repo = '';
let token = '';
let server: Proc & { mcpUrl: string; base: string };
let worker: Proc;
const store = () => `${temp.dir}/store`;
const cacheDir = () => `${temp.dir}/cache`;
let a = '';
let b = '';
let c = '';

beforeAll(async () => {
  db = await createDatabase();
  expect((await fleetCli(['fleet', 'migrate', '--pg', db.url])).status).toBe(0);
  repo = fixtureRepo(temp.dir, 'app', { 'app/core.py': 'def parse_config(text):\n    return text.split()\n' });
  a = git(repo, 'rev-parse', 'HEAD');
  expect((await fleetCli(['fleet', 'add', 'app', repo, '--groups', 'g', '--pg', db.url])).status).toBe(0);
  token = (await fleetCli(['fleet', 'token', 'create', 't', '--groups', 'g', '--pg', db.url])).stdout.trim();
  worker = spawnWorker(db.url, store(), `${temp.dir}/w1`);
  await waitFor(async () => (await readyCommits(db.url)).get('app')?.includes(a), 30_000, worker.log);
  server = await spawnServer(db.url, store(), cacheDir(), [], { REPONAV_WEBHOOK_SECRET: SECRET });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await worker?.stop();
  await db?.drop();
  temp.remove();
});

async function ask(name: string, args: Record<string, unknown> = {}) {
  return call(await mcpClient(server.mcpUrl, token), 'find_function', { repo: 'app', name, ...args });
}

function webhook(commit: string): Promise<Response> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: commit, repository: { name: 'app', clone_url: repo } });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return fetch(`${server.base}/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature, 'X-GitHub-Event': 'push' }, body });
}

describe('a commit removed by force-push', () => {
  it('B (with a secret) is built and served', async () => {
    b = commitFiles(repo, { 'app/secret.py': 'API_KEY = "sk-live-7f3a"\n\n\ndef leaked_key():\n    return API_KEY\n' }, 'B: add a key');
    expect((await fleetCli(['fleet', 'sync', '--pg', db.url])).status).toBe(0);
    await waitFor(async () => (await readyCommits(db.url)).get('app')?.includes(b), 30_000, worker.log);
    const answer = await ask('leaked_key');
    expect(answer.text).toContain('app/secret.py:4-5 leaked_key');
    expect(answer.text).toContain(`[answered from app at commit ${b}]`);
  });

  it('reset A; commit C; push -f: B stops answering at once; "no index" until C is read, then A while C builds', async () => {
    await worker.stop();
    git(repo, 'reset', '-q', '--hard', a);
    c = commitFiles(repo, { 'app/other.py': 'def other_thing():\n    return 1\n' }, 'C');
    // Read by the CLI (no mirror here): C is recorded, its history unknown until a worker reads it.
    expect((await fleetCli(['fleet', 'sync', '--pg', db.url])).stdout).toContain(`queued app@${c.slice(0, 12)}`);
    const blind = await ask('leaked_key');
    expect(blind.isError).toBe(true);
    expect(blind.text).toBe(`Repository 'app' has no index yet: the build of its branch head ${c.slice(0, 12)} is queued. Call index_status to follow it.`);

    // A worker whose uploads fail (its store holds a file where the repository's folder goes): C's history is read, C is not built.
    mkdirSync(`${temp.dir}/store2`, { recursive: true });
    writeFileSync(`${temp.dir}/store2/app`, 'not a folder');
    worker = spawnWorker(db.url, `${temp.dir}/store2`, `${temp.dir}/w2`);
    await waitFor(async () => (await sql(db.url, 'SELECT 1 FROM reponav.commit_ancestors WHERE repo = $1 AND commit = $2 AND ancestor = $3', ['app', c, a])).length === 1, 30_000, worker.log);
    const fallback = await ask('parse_config');
    expect(fallback.isError).toBe(false);
    expect(fallback.text).toContain(`[answered from app at commit ${a}]`);
    const gone = await ask('leaked_key');
    expect(gone.text).not.toContain('app/secret.py');
    expect(gone.text).toContain(`[answered from app at commit ${a}]`);
    const status = await call(await mcpClient(server.mcpUrl, token), 'index_status', {});
    expect(status.text).toContain(`served ${a.slice(0, 12)}; branch head ${c.slice(0, 12)}`);
    await waitFor(() => /app@\w+ failed \(try 1\)/.test(worker.log()), 30_000, worker.log);
    expect((await readyCommits(db.url)).get('app')).not.toContain(c);
  });

  it('fleet purge deletes B from the store, the server cache, the registry and its pins, and refuses it from then on', async () => {
    // A pin still reaches B before the purge (it is ready), and holds it in the server's cache.
    expect((await ask('leaked_key', { commit: b.slice(0, 10) })).text).toContain('app/secret.py:4-5 leaked_key');
    const location = (await sql(db.url, 'SELECT location FROM reponav.commits WHERE repo = $1 AND commit = $2', ['app', b]))[0].location as string;
    const cached = `${cacheDir()}/${createHash('sha256').update(location).digest('hex').slice(0, 32)}.db`;
    expect(existsSync(cached)).toBe(true);

    const purged = await fleetCli(['fleet', 'purge', 'app', '--commit', b.slice(0, 10), '--store', store(), '--json', '--pg', db.url]);
    expect(purged.status).toBe(0);
    expect(JSON.parse(purged.stdout)).toEqual({ repo: 'app', commit: b, alreadyPurged: false, registryRows: 1, shards: 1, jobs: 0, store: `folder:${store()}` });
    expect(readdirSync(`${store()}/app`).filter((f) => f.startsWith(b))).toEqual([]);
    expect(await sql(db.url, 'SELECT 1 FROM reponav.commits WHERE repo = $1 AND commit = $2', ['app', b])).toEqual([]);
    expect(await sql(db.url, 'SELECT 1 FROM reponav.commit_ancestors WHERE ancestor = $1', [b])).toEqual([]);
    await waitFor(() => !existsSync(cached), 10_000, server.log);

    const refused = `Commit ${b.slice(0, 12)} of 'app' was purged (reponav fleet purge) and is never indexed or served again.`;
    const pin = await ask('leaked_key', { commit: b });
    expect(pin).toEqual({ isError: true, text: refused });
    // The pin renewed nothing: B has no row to keep.
    expect(await sql(db.url, 'SELECT 1 FROM reponav.commits WHERE commit = $1', [b])).toEqual([]);

    const hook = await webhook(b);
    expect(hook.status).toBe(409);
    expect(await hook.json()).toEqual({ error: refused });

    const rebuild = await fleetCli(['fleet', 'rebuild', 'app', '--commit', b, '--pg', db.url]);
    expect(rebuild.status).toBe(1);
    expect(rebuild.stderr).toBe(`error: ${refused}\n`);

    // B pushed back: the poll refuses it, nothing is queued, A still answers.
    git(repo, 'reset', '-q', '--hard', b);
    const sync = await fleetCli(['fleet', 'sync', '--pg', db.url]);
    expect(sync.stdout).toBe(`could not read app: ${refused.replace(/\.$/, '')}; force-push it away\nchecked 1, queued 0\n`);
    expect((await ask('parse_config')).text).toContain(`[answered from app at commit ${a}]`);
    git(repo, 'reset', '-q', '--hard', c);

    const again = await fleetCli(['fleet', 'purge', 'app', '--commit', b, '--store', store(), '--pg', db.url]);
    expect(again.stdout).toBe(
      `purged app@${b.slice(0, 12)} (purged before): 0 shards deleted from folder:${store()}, 0 registry rows dropped, 0 jobs cancelled; servers drop it from their caches and refuse it from now on\n`,
    );
  });

  it('C builds and answers; fleet purge --help, and one sentence for a bad name or commit', async () => {
    await worker.stop();
    worker = spawnWorker(db.url, store(), `${temp.dir}/w1`);
    // Only a nudge: the worker's own poll queues C too.
    await fleetCli(['fleet', 'sync', '--pg', db.url]);
    await waitFor(async () => (await ask('other_thing')).text.includes(`[answered from app at commit ${c}]`), 40_000, worker.log);

    const help = await fleetCli(['fleet', 'purge', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--commit <sha>');
    const unknown = await fleetCli(['fleet', 'purge', 'nope', '--commit', b, '--pg', db.url]);
    expect([unknown.status, unknown.stderr]).toEqual([1, "error: No repository 'nope' in the catalog; see reponav fleet list.\n"]);
    const bad = await fleetCli(['fleet', 'purge', 'app', '--commit', 'xyz', '--pg', db.url]);
    expect([bad.status, bad.stderr]).toEqual([1, "error: --commit must be 7 to 40 hex digits, not 'xyz'.\n"]);
    const missing = await fleetCli(['fleet', 'purge', 'app', '--pg', db.url]);
    expect(missing.status).toBe(2);
  });
});
