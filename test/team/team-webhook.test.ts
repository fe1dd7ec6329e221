/**
 * The team server's push webhook: a GitHub-style push event signed with the
 * shared secret records the tracked branch's new head and enqueues its build
 * (once, like the poller); a bad signature, an untracked branch and an
 * unknown repository change nothing.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, fixtureRepo, sql } from './team-harness.js';
import { startInProcessTeam, type InProcessTeam } from './team-inprocess.js';

const SECRET = 'webhook-secret-for-tests-0123456789';
let team: InProcessTeam;
let repoPath = '';

beforeAll(async () => {
  team = await startInProcessTeam(
    (dir) => {
      repoPath = fixtureRepo(dir, 'hooked', { 'a.py': 'def a():\n    return 1\n' });
      return { 'acme/hooked': { path: repoPath, group: 'g' } };
    },
    { build: false, server: { webhook: { secret: SECRET } } },
  );
});

afterAll(async () => {
  await team?.close();
});

function push(body: object, options: { secret?: string; event?: string } = {}): Promise<Response> {
  const text = JSON.stringify(body);
  const signature = `sha256=${createHmac('sha256', options.secret ?? SECRET).update(text).digest('hex')}`;
  return fetch(`${team.server.url}/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature, 'X-GitHub-Event': options.event ?? 'push' },
    body: text,
  });
}

const seen = async () => (await sql<{ commit: string }>(team.dbUrl, "SELECT commit FROM reponav.commits WHERE repo = 'acme/hooked' ORDER BY seq")).map((r) => r.commit);
const queued = async () => (await team.queue.counts()).created;

describe('push webhook', () => {
  it('records a pushed head of the tracked branch and enqueues its build once', async () => {
    const commit = commitFiles(repoPath, { 'b.py': 'def b():\n    return 2\n' }, 'push');
    const first = await push({ ref: 'refs/heads/main', after: commit, repository: { full_name: 'acme/hooked', clone_url: 'https://example.invalid/acme/hooked.git' } });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ commit, queued: ['acme/hooked'], alreadySeen: [] });
    expect(await seen()).toEqual([commit]);
    expect(await queued()).toBe(1);
    // A redelivery (or the poller seeing the same head) queues nothing more.
    const again = await push({ ref: 'refs/heads/main', after: commit, repository: { clone_url: repoPath } });
    expect(await again.json()).toEqual({ commit, queued: [], alreadySeen: ['acme/hooked'] });
    expect(await queued()).toBe(1);
  });

  it('refuses a missing or wrong signature with 401 and changes nothing', async () => {
    const commit = commitFiles(repoPath, { 'c.py': 'def c():\n    return 3\n' }, 'unsigned');
    const before = await seen();
    const event = { ref: 'refs/heads/main', after: commit, repository: { full_name: 'acme/hooked' } };
    expect((await push(event, { secret: 'not-the-secret' })).status).toBe(401);
    const unsigned = await fetch(`${team.server.url}/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(401);
    expect(await seen()).toEqual(before);
    expect(await queued()).toBe(1);
  });

  it('ignores a push to a branch that is not tracked, and answers ping', async () => {
    const before = await seen();
    const other = await push({ ref: 'refs/heads/feature', after: 'a'.repeat(40), repository: { full_name: 'acme/hooked' } });
    expect(other.status).toBe(202);
    expect(await other.json()).toEqual({ ignored: 'refs/heads/feature is not a tracked branch', repos: ['acme/hooked'] });
    const deleted = await push({ ref: 'refs/heads/main', after: '0'.repeat(40), repository: { full_name: 'acme/hooked' } });
    expect((await deleted.json()).ignored).toBe('the branch was deleted');
    expect((await push({ zen: 'hi' }, { event: 'ping' })).status).toBe(200);
    expect(await seen()).toEqual(before);
    expect(await queued()).toBe(1);
  });

  it('answers 404 for a repository that is not in the catalog, and 400 for a body that is not a push', async () => {
    const unknown = await push({ ref: 'refs/heads/main', after: 'b'.repeat(40), repository: { full_name: 'acme/other', clone_url: 'https://example.invalid/acme/other.git' } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/^No catalog repository matches this push/);
    expect((await push({ ref: 'refs/heads/main', after: 'nope', repository: {} })).status).toBe(400);
    expect(await queued()).toBe(1);
  });
});
