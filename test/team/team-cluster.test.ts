/**
 * The team server as it runs: two `reponav worker` and two `reponav serve`
 * processes on one PostgreSQL database (created for this file and dropped),
 * fixture repositories in two access groups. Checks: every repository gets
 * indexed, both servers answer every tool identically and say which commit
 * answered, a token of group alpha sees nothing of group beta by any tool or
 * endpoint, and a push to a tracked branch is served within the poll interval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { silentLogger } from '../../src/logger.js';
import { createToken } from '../../src/team/access-tokens.js';
import { pollOnce } from '../../src/team/branch-poller.js';
import { addRepo } from '../../src/team/catalog.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { call, commitFiles, createDatabase, fixtureRepo, fleetCli, git, mcpClient, pythonModules, readyCommits, spawnServer, spawnWorker, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const temp = tempDir('reponav-team-cluster-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let servers: (Proc & { mcpUrl: string; base: string })[] = [];
let tokenA = '';
let tokenB = '';
const clients: Client[] = [];
const repos: Record<string, string> = {};

beforeAll(async () => {
  db = await createDatabase();
  // The catalog is set up in-process (the fleet commands themselves run as processes in team-faults and team-pg-restart):
  // one Node process per command cost ~8 s of this file's start-up on two busy cores.
  const team = new TeamDatabase(db.url, silentLogger);
  try {
    await migrate(team);
    const queue = await JobQueue.open(team, silentLogger, { install: true });
    repos['alpha-app'] = fixtureRepo(temp.dir, 'alpha-app', {
      ...pythonModules('app', 20),
      'app/billing.py': 'class Invoice:\n    def apply_discount(self, code):\n        return parse_code(code)\n\n\ndef parse_code(code):\n    """Parse a discount code."""\n    return code.upper()\n',
    });
    repos['alpha-lib'] = fixtureRepo(temp.dir, 'alpha-lib', { 'lib/util.py': 'def shared_helper(x):\n    return x + 1\n' });
    repos['beta-secret'] = fixtureRepo(temp.dir, 'beta-secret', { 'secret/plan.py': 'def beta_secret_function():\n    return "classified"\n' });
    for (const [name, path] of Object.entries(repos)) await addRepo(team, { name, url: path, branch: 'main', groups: [name.startsWith('alpha') ? 'alpha' : 'beta'] });
    expect((await pollOnce(team, queue, { leaseSeconds: 8, logger: silentLogger })).enqueued).toHaveLength(3);
    tokenA = await createToken(team, 'team-a', ['alpha']);
    tokenB = await createToken(team, 'team-b', ['beta']);
    await queue.close();
  } finally {
    await team.close();
  }
  const store = `${temp.dir}/store`;
  procs.push(spawnWorker(db.url, store, `${temp.dir}/w1`), spawnWorker(db.url, store, `${temp.dir}/w2`));
  servers = await Promise.all([spawnServer(db.url, store, `${temp.dir}/s1`), spawnServer(db.url, store, `${temp.dir}/s2`)]);
  procs.push(...servers);
  await waitFor(async () => (await readyCommits(db.url)).size === 3, 45_000, () => procs.map((p) => p.log()).join('\n---\n'));
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

async function clientOf(server: number, token: string): Promise<Client> {
  const client = await mcpClient(servers[server].mcpUrl, token);
  clients.push(client);
  return client;
}

describe('team server: two workers, two servers', () => {
  it('indexes every catalog repository and records each shard once, with its checksum', async () => {
    const rows = await sql(db.url, "SELECT repo, state, sha256, size_bytes FROM reponav.commits ORDER BY repo");
    expect(rows.map((r) => [r.repo, r.state])).toEqual([
      ['alpha-app', 'ready'],
      ['alpha-lib', 'ready'],
      ['beta-secret', 'ready'],
    ]);
    for (const r of rows) expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    const listed = await fleetCli(['fleet', 'list', '--pg', db.url]);
    expect(listed.stdout).toMatch(/alpha-app\s+main\s+ready\s+groups=alpha\s+served=([0-9a-f]{12})\s+head=\1\s+lag=0/);
    expect(listed.stdout).toMatch(/^worker .* \(beat/m);
    expect(listed.stdout).toMatch(/^server .* \(beat/m);
  });

  it('gives identical answers through either server, each naming the commit that answered', async () => {
    const [one, two] = [await clientOf(0, tokenA), await clientOf(1, tokenA)];
    const head = git(repos['alpha-app'], 'rev-parse', 'HEAD');
    const calls: [string, Record<string, unknown>][] = [
      ['search', { repo: 'alpha-app', query: 'discount code parsing on an invoice' }],
      ['snippet_search', { repo: 'alpha-app', query: 'parse discount code' }],
      ['list_symbols', { repo: 'alpha-app', file: 'app/billing.py' }],
      ['find_function', { repo: 'alpha-app', name: 'parse_code' }],
      ['find_class', { repo: 'alpha-app', name: 'Invoice' }],
      ['find_references', { repo: 'alpha-app', name: 'parse_code' }],
      ['find_code_snippet', { repo: 'alpha-app', text: 'return code.upper()' }],
      ['regex_search', { repo: 'alpha-app', pattern: 'def helper_1\\d' }],
      ['view_code', { repo: 'alpha-app', file: 'app/billing.py' }],
      ['index_status', {}],
    ];
    for (const [name, args] of calls) {
      const [a, b] = [await call(one, name, args), await call(two, name, args)];
      expect(a.isError, `${name}: ${a.text}`).toBe(false);
      expect(b).toEqual(a);
      if (name !== 'index_status') expect(a.text.endsWith(`[answered from alpha-app at commit ${head}]`)).toBe(true);
    }
    expect((await call(one, 'find_function', { repo: 'alpha-app', name: 'parse_code' })).text).toContain('app/billing.py');
  });

  it('never shows a token of group alpha anything of group beta: tools, errors, index_status, instructions, endpoints', async () => {
    const alpha = await clientOf(0, tokenA);
    const beta = await clientOf(1, tokenB);
    expect((await call(beta, 'find_function', { name: 'beta_secret_function' })).text).toContain('secret/plan.py');
    const betaCommit = git(repos['beta-secret'], 'rev-parse', 'HEAD');
    const probes: [string, Record<string, unknown>][] = [
      ['search', { query: 'classified plan' }],
      ['snippet_search', { query: 'beta secret' }],
      ['list_symbols', { file: 'secret/plan.py' }],
      ['find_function', { name: 'beta_secret_function' }],
      ['find_class', { name: 'Plan' }],
      ['find_references', { name: 'beta_secret_function' }],
      ['find_code_snippet', { text: 'classified' }],
      ['regex_search', { pattern: 'classified' }],
      ['view_code', { file: 'secret/plan.py' }],
      ['index_status', {}],
    ];
    for (const [name, args] of probes) {
      const hidden = await call(alpha, name, { ...args, repo: 'beta-secret' });
      const missing = await call(alpha, name, { ...args, repo: 'no-such-repo' });
      expect(hidden.isError, name).toBe(true);
      // The same answer as for a repository that does not exist, naming only visible ones.
      expect(hidden.text.replace('beta-secret', 'X')).toBe(missing.text.replace('no-such-repo', 'X'));
      expect(hidden.text).toMatch(/^Unknown repo 'beta-secret'; use one of 'alpha-app', 'alpha-lib'\.$/);
      // Without a repo, or in an alpha repository (also pinning beta's commit), nothing of beta shows.
      for (const repo of [undefined, 'alpha-app']) {
        for (const extra of [{}, { commit: betaCommit }]) {
          const answer = await call(alpha, name, { ...args, ...extra, ...(repo ? { repo } : {}) });
          // Queries are echoed ("No function named 'beta_secret_function'"); beta's repository name and its file's contents never are.
          expect(answer.text, `${name} ${repo} ${JSON.stringify(extra)}`).not.toMatch(/beta-secret|return "classified"|secret\/plan\.py:|\[FILE\] secret/);
        }
      }
    }
    const status = await call(alpha, 'index_status', {});
    expect(status.text.split('\n').map((l) => l.split(' ')[0])).toEqual(['alpha-app', 'alpha-lib']);
    expect(JSON.stringify(await alpha.listTools())).not.toMatch(/beta/);
    expect(alpha.getInstructions()).toMatch(/alpha-app, alpha-lib/);
    expect(alpha.getInstructions()).not.toMatch(/beta/);
    const api = await fetch(`${servers[0].base}/api/repos`, { headers: { Authorization: `Bearer ${tokenA}` } });
    const body = await api.text();
    expect(api.status).toBe(200);
    expect(JSON.parse(body).repositories.map((r: { repo: string }) => r.repo)).toEqual(['alpha-app', 'alpha-lib']);
    expect(body).not.toMatch(/beta/);
    for (const auth of [undefined, 'Bearer rnv_not-a-real-token', `Bearer ${tokenA}x`]) {
      const refused = await fetch(`${servers[1].base}/api/repos`, { headers: auth ? { Authorization: auth } : {} });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toMatch(/alpha|beta/);
      const mcp = await fetch(servers[1].mcpUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) }, body: '{}' });
      expect(mcp.status).toBe(401);
    }
    // Only the token's hash is stored.
    const stored = await sql(db.url, 'SELECT hash FROM reponav.tokens');
    expect(JSON.stringify(stored)).not.toContain(tokenA);
  });

  it('serves a commit pushed to a tracked branch once it is built, and still answers for the old commit when named', async () => {
    const client = await clientOf(1, tokenA);
    const before = git(repos['alpha-lib'], 'rev-parse', 'HEAD');
    const after = commitFiles(repos['alpha-lib'], { 'lib/fresh.py': 'def freshly_pushed():\n    return 42\n' }, 'push');
    const answer = await waitFor(
      async () => {
        const found = await call(client, 'find_function', { repo: 'alpha-lib', name: 'freshly_pushed' });
        return found.text.includes('lib/fresh.py') ? found : null;
      },
      20_000,
      () => procs.map((p) => p.log()).join('\n---\n'),
    );
    expect(answer.text).toContain(`[answered from alpha-lib at commit ${after}]`);
    const status = await call(client, 'index_status', { repo: 'alpha-lib' });
    expect(status.text).toBe(`alpha-lib (main): served ${after.slice(0, 12)}; branch head ${after.slice(0, 12)}; up to date`);
    const old = await call(client, 'find_function', { repo: 'alpha-lib', name: 'freshly_pushed', commit: before.slice(0, 10) });
    expect(old.text).toContain(`No function named 'freshly_pushed'`);
    expect(old.text).toContain(`[answered from alpha-lib at commit ${before}]`);
    const unknown = await call(client, 'search', { repo: 'alpha-lib', query: 'x', commit: 'deadbeef' });
    expect(unknown).toEqual({ isError: true, text: expect.stringMatching(/^Commit 'deadbeef' of 'alpha-lib' has no index/) });
  });
});
