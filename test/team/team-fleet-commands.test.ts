/**
 * The fleet commands' smaller promises, as separate processes on the shared
 * PostgreSQL: the output blocks of docs/team-server.md's run (`fleet migrate`,
 * `fleet add`, the served tool list) are what this version prints; `fleet add`
 * takes several repositories in one process (NAME URL pairs and `--from
 * FILE`); a repository whose head build waits for a worker is `queued`, not
 * `building`; 413 replies of `/login`, `/webhook` and uploads state the
 * route's real limit.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, createDatabase, git, mcpClient, PROJECT_ROOT, spawnServer, tempDir, type Proc } from './team-harness.js';

const SECRET = 'fleet-commands-webhook-secret-0123';
const temp = tempDir('reponav-team-fleet-');
let db: Awaited<ReturnType<typeof createDatabase>>;
const procs: Proc[] = [];
let server: Awaited<ReturnType<typeof spawnServer>>;
const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'team-server.md'), 'utf8');

/** What the doc shows a command printing: the lines after `$ COMMAND` in an output block, up to the next `$ ` line or the block's end. */
function docOutput(command: string): string {
  const at = doc.indexOf(`\n$ ${command}\n`);
  expect(at, `docs/team-server.md shows no run of '${command}'`).toBeGreaterThan(-1);
  const lines: string[] = [];
  for (const line of doc.slice(at + command.length + 4).split('\n')) {
    if (line.startsWith('$ ') || line.startsWith('```')) break;
    lines.push(line);
  }
  return lines.join('\n');
}

/** Commit ids (12 or 40 hex digits) as placeholders: the doc's come from its run. */
const ids = (text: string) => text.replace(/\b[0-9a-f]{40}\b|\b[0-9a-f]{12}\b/g, '<commit>');

/** A bookshop repository like the doc's `$REPOS/bookshop` (sample/bookshop committed on main). */
function bookshop(name: string): string {
  const dir = join(temp.dir, 'repos', name);
  cpSync(join(PROJECT_ROOT, 'sample', 'bookshop'), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'bookshop');
  return dir;
}

beforeAll(async () => {
  db = await createDatabase();
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await db?.drop();
  temp.remove();
});

const fleet = (...args: string[]) => cli(['fleet', ...args, '--pg', db.url]);

describe('fleet commands print what the docs show', () => {
  it('fleet migrate: the doc block, then up to date', () => {
    const first = fleet('migrate');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trimEnd()).toBe(docOutput('reponav fleet migrate'));
    const again = fleet('migrate').stdout.trim();
    expect(doc).toContain(`Another \`fleet migrate\` says \`${again}\``);
  });

  it('fleet add of one repository: the doc block (commit ids aside)', () => {
    const added = fleet('add', 'bookshop', bookshop('bookshop'), '--branch', 'main', '--groups', 'shop');
    expect(added.status, added.stderr).toBe(0);
    expect(ids(added.stdout.trimEnd())).toBe(ids(docOutput('reponav fleet add bookshop $REPOS/bookshop --branch main --groups shop')));
  });

  it('serve offers the tools the doc lists, and no git tool', async () => {
    const token = fleet('token', 'create', 'alice', '--groups', 'shop').stdout.trim();
    expect(token).toMatch(/^rnv_[A-Za-z0-9_-]{32}$/);
    writeFileSync(join(temp.dir, 'secret'), SECRET);
    server = await spawnServer(db.url, join(temp.dir, 'store'), join(temp.dir, 'cache'), ['--webhook-secret-file', join(temp.dir, 'secret')]);
    procs.push(server);
    const client = await mcpClient(server.mcpUrl, token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    await client.close();
    const listed = /^tools: (.+)$/m.exec(doc);
    expect(listed, 'docs/team-server.md has no tools: line').not.toBeNull();
    expect(names.join(',')).toBe(listed![1]);
    for (const gitTool of ['changed_files', 'diff', 'file_history', 'blame_lines']) expect(names).not.toContain(gitTool);
  });
});

describe('fleet add of many repositories, and queued before building', () => {
  it('adds NAME URL pairs and the lines of --from FILE in one process, reads every head once, and lists each as queued while no worker runs', () => {
    const urls = ['one', 'two', 'three', 'four'].map((n) => bookshop(n));
    const list = join(temp.dir, 'repos.txt');
    writeFileSync(list, `# name url [branch [groups]]\nthree ${urls[2]}\nfour ${urls[3]} main shop,ops   # ops may see it too\n\n`);
    const added = fleet('add', 'one', urls[0], 'two', urls[1], '--from', list, '--groups', 'shop');
    expect(added.status, added.stderr).toBe(0);
    const head = (i: number) => git(urls[i], 'rev-parse', 'HEAD').slice(0, 12);
    expect(added.stdout).toBe(
      [
        'added one (main; groups shop)',
        'added two (main; groups shop)',
        'added three (main; groups shop)',
        'added four (main; groups shop, ops)',
        ...['four', 'one', 'three', 'two'].map((n) => `queued ${n}@${head(['one', 'two', 'three', 'four'].indexOf(n))}`),
        'checked 4, queued 4',
        '',
      ].join('\n'),
    );
    // No worker runs: each head's job waits in the queue. Before, fleet list called that "building".
    const rows = JSON.parse(fleet('list', '--json').stdout).repositories as any[];
    for (const name of ['one', 'two', 'three', 'four', 'bookshop']) expect(rows.find((r) => r.name === name), name).toMatchObject({ state: 'queued', job: { state: 'created' } });
    expect(fleet('list').stdout).toMatch(/^four {2}main {2}queued {2}groups=ops,shop {2}served=- {2}head=[0-9a-f]{12} {2}lag=1 \(\d+ s\) {2}retries left 3$/m);
  });

  it('checks every entry before writing any: one bad name adds nothing', () => {
    const bad = fleet('add', 'five', bookshop('five'), 'a/../b', bookshop('six'), '--groups', 'shop');
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('Invalid name (argument 3): a repository name is a logical name, not a path');
    expect(JSON.parse(fleet('list', '--json').stdout).repositories.map((r: { name: string }) => r.name)).not.toContain('five');
  });
});

/** POSTs a body declaring `size` bytes (only a few are sent: the declared length is refused first); resolves with status and body. */
function postDeclared(url: string, size: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(size) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write('x');
  });
}

describe('413 replies state the real limit', () => {
  it('/login (16 KiB), /webhook (5 MiB) and an upload on the team server (64 MiB, nothing about paths)', async () => {
    const login = await postDeclared(`${server.base}/login`, 16 * 1024 + 1, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(login).toEqual({ status: 413, body: JSON.stringify({ error: 'The body of POST /login is larger than its 16 KiB limit.', code: 'TOO_LARGE' }) });
    const webhook = await postDeclared(`${server.base}/webhook`, 5 * 1024 * 1024 + 1, { 'Content-Type': 'application/json', 'X-GitHub-Event': 'push' });
    expect(webhook).toEqual({ status: 413, body: JSON.stringify({ error: 'The body of POST /webhook is larger than its 5 MiB limit.', code: 'TOO_LARGE' }) });
    const token = fleet('token', 'create', 'uploader', '--groups', 'shop').stdout.trim();
    const upload = await postDeclared(`${server.base}/api/trace`, 64 * 1024 * 1024 + 1, { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });
    expect(upload.status).toBe(413);
    expect(JSON.parse(upload.body).error).toBe('The body of POST /api/trace is larger than its 64 MiB limit.');
  });
});
