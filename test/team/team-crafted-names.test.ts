/**
 * A catalog name is a logical name, never a path, and the served tools never
 * touch the serve host's disk: a `reponav worker` and a `reponav serve`
 * (separate processes, one PostgreSQL database) serve group alpha a
 * repository whose name is also the path of group beta's bare repository on
 * the same host, plus rows written before names were checked (an absolute
 * path, `../beta-secret`). Checks: `fleet add` refuses path-like names; the
 * git tools are not offered; every served tool, every HTTP route and the
 * webhook, given seeded crafted names, show a group-alpha token nothing of
 * group beta; the path-named repository answers from its own shard only.
 */
import { createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { silentLogger } from '../../src/logger.js';
import { createToken } from '../../src/team/access-tokens.js';
import { pollOnce } from '../../src/team/branch-poller.js';
import { addRepo } from '../../src/team/catalog.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { craftedNames, looksLikePath } from '../helpers/crafted-names.js';
import { call, createDatabase, fixtureRepo, fleetCli, git, mcpClient, readyCommits, spawnCli, spawnServer, sql, tempDir, type Proc, waitFor } from './team-harness.js';

const SECRET = 'crafted-names-webhook-secret-0123456789';
const SEED = Number(process.env.REPONAV_TEST_SEED ?? 44);
const temp = tempDir('reponav-team-crafted-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let server: Awaited<ReturnType<typeof spawnServer>>;
let alpha: Client;
let tokenA = '';
let alphaCommit = '';
let betaCommit = '';
/** Group beta's bare repository on this host, and the catalog name (of an alpha repository) that spells its path. */
let bare = '';
let pathName = '';
/** Rows written before names were checked: never served, polled or built. */
let legacy: string[] = [];

/** Anything of group beta: its file, its function, its text, its commit, its name. */
const BETA = () => new RegExp(`classified-beta|beta_secret_function|secret/plan\\.py|${betaCommit}|${betaCommit.slice(0, 12)}|beta-secret|other-team`);

/**
 * `text` without the echoes of what was asked (`name` and the call's
 * arguments: "Unknown repo '…'", "No function named '…'"), checked for
 * anything of beta.
 */
function leak(text: string, name: string, args: Record<string, unknown> = {}): string | null {
  let rest = text;
  const asked = Object.values(args).filter((v): v is string => typeof v === 'string');
  // The visible names are listed in every unknown-repo answer: the path-named one spells beta's folder, and is alpha's.
  for (const echo of [pathName, 'alpha-app', name, name.slice(0, 200), encodeURIComponent(name), JSON.stringify(name).slice(1, -1), ...asked]) if (echo) rest = rest.split(echo).join('');
  return BETA().exec(rest)?.[0] ?? null;
}

beforeAll(async () => {
  db = await createDatabase();
  const alphaRepo = fixtureRepo(temp.dir, 'alpha-app', { 'app/billing.py': 'class Invoice:\n    def total(self):\n        return 1\n' });
  const betaRepo = fixtureRepo(temp.dir, 'beta-src', { 'secret/plan.py': 'def beta_secret_function():\n    return "classified-beta"\n' });
  bare = `${temp.dir}/srv/git/other-team.git`;
  git(temp.dir, 'clone', '-q', '--bare', betaRepo, bare);
  alphaCommit = git(alphaRepo, 'rev-parse', 'HEAD');
  betaCommit = git(betaRepo, 'rev-parse', 'HEAD');
  pathName = bare.slice(1);
  legacy = [bare, '../beta-secret', `${pathName}/..`];
  const team = new TeamDatabase(db.url, silentLogger);
  try {
    await migrate(team);
    const queue = await JobQueue.open(team, silentLogger, { install: true });
    await addRepo(team, { name: 'alpha-app', url: alphaRepo, branch: 'main', groups: ['alpha'] });
    await addRepo(team, { name: 'beta-secret', url: bare, branch: 'main', groups: ['beta'] });
    // A valid logical name that also spells the path of beta's bare repository on this host, for an alpha repository.
    await addRepo(team, { name: pathName, url: alphaRepo, branch: 'main', groups: ['alpha'] });
    for (const name of legacy) await team.query('INSERT INTO reponav.repos(name, url, branch, groups) VALUES ($1, $2, $3, $4)', [name, bare, 'main', ['alpha']]);
    expect((await pollOnce(team, queue, { leaseSeconds: 8, logger: silentLogger })).enqueued.map((j) => j.repo).sort()).toEqual(['alpha-app', 'beta-secret', pathName].sort());
    tokenA = await createToken(team, 'team-a', ['alpha']);
    await queue.close();
  } finally {
    await team.close();
  }
  const store = `${temp.dir}/store`;
  procs.push(spawnCli(['worker', '--pg', db.url, '--store', store, '--work-dir', `${temp.dir}/w1`, '--poll', '1', '--verbose']));
  server = await spawnServer(db.url, store, `${temp.dir}/s1`, [], { REPONAV_WEBHOOK_SECRET: SECRET });
  procs.push(server);
  await waitFor(async () => (await readyCommits(db.url)).size === 3, 45_000, () => procs.map((p) => p.log()).join('\n---\n'));
  alpha = await mcpClient(server.mcpUrl, tokenA);
}, 90_000);

afterAll(async () => {
  await alpha?.close().catch(() => undefined);
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

/** Arguments for each served tool (besides repo); a tool without an entry fails the test, so a new tool is probed too. */
const TOOL_ARGS: Record<string, Record<string, unknown>> = {
  search: { query: 'classified plan secret' },
  snippet_search: { query: 'classified beta' },
  list_symbols: { file: 'secret/plan.py' },
  find_class: { name: 'Invoice' },
  find_function: { name: 'beta_secret_function' },
  find_references: { name: 'beta_secret_function' },
  find_code_snippet: { text: 'classified-beta' },
  regex_search: { pattern: 'classified' },
  view_code: { file: 'secret/plan.py' },
  list_files: { depth: 5 },
  repo_map: {},
  index_status: {},
};

/** The whole answer for a name the token cannot see: the echoed name, then only the visible repositories. */
function unknownAnswer(): RegExp {
  return new RegExp(`^Unknown repo '[^]*'; use one of ${visibleList().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`);
}

function visibleList(): string {
  return ['alpha-app', pathName].sort().map((n) => `'${n}'`).join(', ');
}

/** The generated names, the legacy rows and hand-made variants of the path-named repository. */
function probeNames(): string[] {
  const handMade = [bare, `/${pathName}`, `${pathName}/`, `${pathName}/.`, `${pathName}/../other-team.git`, `./${pathName}`, pathName.replace(/\//g, '%2f'), pathName.replace(/\//g, '\\'), '%2e%2e/beta-secret', 'alpha-app/../beta-secret', 'beta-secret'];
  return [...new Set([...craftedNames(SEED, 28, [bare, pathName, 'beta-secret']), ...legacy, ...handMade])];
}

describe('crafted repository names', () => {
  it('fleet add refuses a name that is a path, in one sentence, and writes no row', async () => {
    const names = [bare, '../beta-secret', 'a/./b', 'a%2fb', 'a\\b', ...craftedNames(SEED, 40).filter((n) => looksLikePath(n) && !n.includes('\0')).slice(0, 4)];
    for (const name of names) {
      const added = await fleetCli(['fleet', 'add', name, bare, '--groups', 'alpha', '--no-sync', '--pg', db.url]);
      expect(added.status, `seed ${SEED}: ${JSON.stringify(name)}`).toBe(1);
      expect(added.stderr.trim()).toMatch(/^error: Invalid name: a repository name is a logical name, not a path: .*\.$/);
      expect(added.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('serve offers no git tool: tools/list leaves them out and /api/changes says why', async () => {
    const names = (await alpha.listTools()).tools.map((t) => t.name);
    for (const gitTool of ['changed_files', 'diff', 'file_history', 'blame_lines']) expect(names).not.toContain(gitTool);
    expect(names.sort()).toEqual(Object.keys(TOOL_ARGS).sort());
    await expect(call(alpha, 'file_history', { repo: pathName, path: 'secret/plan.py' })).rejects.toThrow(/Tool file_history not found/);
    const changes = await fetch(`${server.base}/api/changes?repo=${encodeURIComponent(pathName)}`, { headers: { Authorization: `Bearer ${tokenA}` } });
    expect(changes.status).toBe(404);
    expect(await changes.json()).toMatchObject({ error: '/api/changes is not offered by the team server: a served index holds no git history, and the server runs no git.' });
  });

  it('the repository named like a host path answers from its own shard: never from the folder its name spells', async () => {
    const files = await call(alpha, 'list_files', { repo: pathName, depth: 5 });
    expect(files.isError, files.text).toBe(false);
    expect(files.text).toContain('billing.py');
    expect(files.text.endsWith(`[answered from ${pathName} at commit ${alphaCommit}]`)).toBe(true);
    for (const [tool, args] of Object.entries(TOOL_ARGS)) {
      const answer = await call(alpha, tool, { ...args, repo: pathName });
      expect(leak(answer.text, pathName, args), `${tool}: ${answer.text}`).toBeNull();
    }
    const view = await call(alpha, 'view_code', { repo: pathName, file: `${bare}/config` });
    expect(view.isError).toBe(true);
  });

  it('every served tool, given every crafted name, shows group alpha nothing of group beta', async () => {
    const served = new Set([pathName, 'alpha-app']);
    for (const name of probeNames()) {
      for (const [tool, args] of Object.entries(TOOL_ARGS)) {
        const answer = await call(alpha, tool, { ...args, repo: name });
        const why = `seed ${SEED}: ${tool} repo=${JSON.stringify(name)}: ${answer.text.slice(0, 300)}`;
        // An unknown name gets only the fixed answer naming the visible repositories (the name is echoed, nothing else).
        if (!served.has(name)) expect({ isError: answer.isError, text: answer.text }, why).toEqual({ isError: true, text: expect.stringMatching(unknownAnswer()) });
        else expect(leak(answer.text, name, args), why).toBeNull();
        // A pinned commit of beta's never answers either.
        const pinned = await call(alpha, tool, { ...args, repo: name, commit: betaCommit });
        if (!served.has(name)) expect(pinned.text, `${why} (commit pinned)`).toMatch(unknownAnswer());
        else expect(leak(pinned.text, name, { ...args, commit: betaCommit }), `${why} (commit pinned)`).toBeNull();
      }
    }
  }, 240_000);

  it('every HTTP route, given every crafted name (encoded and raw) or a crafted path, shows nothing of group beta', async () => {
    const routes = ['/api/info', '/api/repos', '/api/files', '/api/search?q=classified', '/api/code?path=secret/plan.py', '/api/symbols?path=secret/plan.py', '/api/map', '/api/changes', `/api/trace?path=${encodeURIComponent(`${bare}/config`)}`, `/api/report?path=${encodeURIComponent(`${bare}/HEAD`)}`];
    const headers = { Authorization: `Bearer ${tokenA}` };
    for (const name of probeNames().filter((n) => !n.includes('\0'))) {
      for (const route of routes) {
        for (const repo of [encodeURIComponent(name), name.replace(/[#&?\s]/g, encodeURIComponent)]) {
          const url = `${server.base}${route}${route.includes('?') ? '&' : '?'}repo=${repo}`;
          const response = await fetch(url, { headers });
          const body = await response.text();
          const why = `seed ${SEED}: ${url}: ${response.status} ${body.slice(0, 300)}`;
          // Routes about no one repository (and /api/changes, not offered) answer the same for every name; only their bodies are checked.
          // What the server reads (a raw name is %-decoded): a visible name is answered, from its own shard.
          const read = new URL(url).searchParams.get('repo')!.trim();
          if (!/^\/api\/(files|search|code|symbols|map)\b/.test(route) || read === pathName || read === 'alpha-app') {
            expect(leak(body, name, { q: 'classified', path: 'secret/plan.py', trace: `${bare}/config`, report: `${bare}/HEAD` }), why).toBeNull();
          } else {
            // A blank name (the page trims it) is no name: the fixed answer asking for one of the visible names.
            const blank = read === '';
            expect(response.status, why).toBe(blank ? 400 : 404);
            expect(JSON.parse(body), why).toEqual(blank ? { error: `Several repositories are served; pass repo as one of ${visibleList()}.`, code: 'BAD_INPUT' } : { error: expect.stringMatching(unknownAnswer()), code: 'UNKNOWN_REPO' });
          }
        }
      }
    }
    for (const path of ['/api/../api/files', '/api/files/..%2f..%2fsecret', '/%2e%2e/api/files', '/api/files%2f%2e%2e', `/api/files/${bare}`, `/${pathName}`, `/..%2f..${bare}/config`, '/api/%2e%2e/%2e%2e/etc/passwd']) {
      const response = await fetch(`${server.base}${path}`, { headers });
      const body = await response.text();
      expect(leak(body, ''), `${path}: ${response.status} ${body.slice(0, 300)}`).toBeNull();
    }
  }, 120_000);

  it('the webhook matches no crafted name and queues nothing for one', async () => {
    for (const name of [...legacy, ...craftedNames(SEED + 1, 10, [bare]).filter(looksLikePath)]) {
      const text = JSON.stringify({ ref: 'refs/heads/main', after: betaCommit, repository: { full_name: name, name } });
      const response = await fetch(`${server.base}/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(text).digest('hex')}`, 'X-GitHub-Event': 'push' },
        body: text,
      });
      expect(response.status, `seed ${SEED}: ${JSON.stringify(name)}`).toBe(404);
    }
    const queued = await sql<{ repo: string }>(db.url, "SELECT DISTINCT data->>'repo' AS repo FROM reponav_queue.job WHERE name = 'reponav-build'");
    expect(queued.map((r) => r.repo).sort()).toEqual(['alpha-app', 'beta-secret', pathName].sort());
  });

  it('nothing was built for the rows with path names, and the worker made no folder outside its own', async () => {
    expect([...(await readyCommits(db.url)).keys()].sort()).toEqual(['alpha-app', 'beta-secret', pathName].sort());
    expect(readdirSync(`${temp.dir}/w1/git`).sort()).toEqual(['alpha-app.git', 'beta-secret.git', `${pathName.replace(/\//g, '+')}.git`].sort());
    const listed = JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories as { name: string; state: string }[];
    for (const name of legacy) expect(listed.find((r) => r.name === name)?.state).toBe('invalid-name');
  });
});
