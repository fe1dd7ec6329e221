/**
 * Lag is counted from when git first named the unserved head, not from its
 * latest check: a head first seen an hour ago (by the database's clock) and
 * checked again since shows an hour, the same in `index_status`, `/api/info`
 * and `fleet list` (a separate process); an unreadable head shows no lag and
 * the error, in all three. Check times are given explicitly, an hour in the
 * past, so no assertion depends on how long the run takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { SCHEMA_VERSION } from '../../src/index/index.js';
import { silentLogger } from '../../src/logger.js';
import { createToken } from '../../src/team/access-tokens.js';
import { addRepo } from '../../src/team/catalog.js';
import { FolderShardStore } from '../../src/team/folder-shard-store.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { recordHistory } from '../../src/team/commit-history.js';
import { markReady, recordHead, recordHeadError } from '../../src/team/shard-registry.js';
import { startTeamServer, type RunningTeamServer } from '../../src/team/team-server.js';
import { createDatabase, fleetCli, mcpClient, tempDir } from './team-harness.js';

const temp = tempDir('reponav-team-lag-');
let db: Awaited<ReturnType<typeof createDatabase>>;
let team: TeamDatabase;
let queue: JobQueue;
let server: RunningTeamServer;
let client: Client;
let token = '';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);

/** The database's time `seconds` ago. */
async function ago(seconds: number): Promise<Date> {
  return (await team.query<{ at: Date }>('SELECT now() - make_interval(secs => $1) AS at', [seconds])).rows[0].at;
}

beforeAll(async () => {
  db = await createDatabase();
  team = new TeamDatabase(db.url, silentLogger);
  await migrate(team);
  queue = await JobQueue.open(team, silentLogger, { install: true });
  await addRepo(team, { name: 'shop', url: `${temp.dir}/nowhere`, branch: 'main', groups: ['g'] });
  await addRepo(team, { name: 'lost', url: `${temp.dir}/nowhere`, branch: 'main', groups: ['g'] });
  token = await createToken(team, 't', ['g']);
  // shop: A was the head two hours ago and got built; B has been the head for an hour, checked again a minute and 5 s ago.
  await recordHead(team, 'shop', A, await ago(7200));
  await markReady(team, { repo: 'shop', commit: A, schemaVersion: SCHEMA_VERSION, sizeBytes: 1, sha256: '0'.repeat(64), location: 'shop/a.db', builtBy: 'test', buildMs: 1, parsedFiles: 1 });
  for (const seconds of [3600, 60, 5]) await recordHead(team, 'shop', B, await ago(seconds));
  // A worker read B's history: B contains A, so A answers while B is not built.
  await recordHistory(team, 'shop', B, [A], Number.MAX_SAFE_INTEGER);
  // moved: A served; B was the head an hour ago, then force-pushed away by C (first seen 10 min ago), whose history
  // a worker read: C contains A, not B. Lag counts C alone, from when C was first seen.
  await addRepo(team, { name: 'moved', url: `${temp.dir}/nowhere`, branch: 'main', groups: ['g'] });
  await recordHead(team, 'moved', A, await ago(7200));
  await markReady(team, { repo: 'moved', commit: A, schemaVersion: SCHEMA_VERSION, sizeBytes: 1, sha256: '0'.repeat(64), location: 'moved/a.db', builtBy: 'test', buildMs: 1, parsedFiles: 1 });
  await recordHistory(team, 'moved', B, [A], Number.MAX_SAFE_INTEGER);
  for (const seconds of [3600, 1800]) await recordHead(team, 'moved', B, await ago(seconds));
  for (const seconds of [600, 5]) await recordHead(team, 'moved', C, await ago(seconds));
  await recordHistory(team, 'moved', C, [A], Number.MAX_SAFE_INTEGER);
  // broken: A served; D, the head since 5 min ago, failed to build with its retries spent.
  await addRepo(team, { name: 'broken', url: `${temp.dir}/nowhere`, branch: 'main', groups: ['g'] });
  await recordHead(team, 'broken', A, await ago(7200));
  await markReady(team, { repo: 'broken', commit: A, schemaVersion: SCHEMA_VERSION, sizeBytes: 1, sha256: '0'.repeat(64), location: 'broken/a.db', builtBy: 'test', buildMs: 1, parsedFiles: 1 });
  await recordHead(team, 'broken', D, await ago(300));
  await recordHistory(team, 'broken', D, [A], Number.MAX_SAFE_INTEGER);
  await queue.enqueue({ repo: 'broken', commit: D }, { retryLimit: 0 });
  const job = (await queue.take())!;
  await queue.fail(job.id, new Error('No space left on device while uploading to folder:/store'));
  // lost: its head cannot be read.
  await recordHead(team, 'lost', A, await ago(7200));
  await recordHeadError(team, 'lost', 'git ls-remote failed: no such remote', await ago(1));
  server = await startTeamServer({ db: team, store: new FolderShardStore(`${temp.dir}/store`), cacheDir: `${temp.dir}/cache`, cacheBytes: 1 << 20, port: 0, host: '127.0.0.1', logger: silentLogger });
  client = await mcpClient(`${server.url}/mcp`, token);
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  await queue?.close();
  await team?.close();
  await db?.drop();
  temp.remove();
});

describe('lag', () => {
  it('counts from when the unserved head was first seen, the same in index_status, /api/info and fleet list, with the error', async () => {
    const status = (await client.callTool({ name: 'index_status', arguments: {} })) as { content: { text: string }[] };
    const info = (await (await fetch(`${server.url}/api/info`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { team: { repositories: any[] } };
    const listed = JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories as any[];
    // index_status gives its numbers in its text.
    const said = /^shop \(main\): served aaaaaaaaaaaa; branch head bbbbbbbbbbbb; lag (\d+) commits?, (\d+) s \(the head is not built yet\)$/m.exec(status.content[0].text);
    expect(said, status.content[0].text).not.toBeNull();
    const shop = [{ lagCommits: Number(said![1]), lagSeconds: Number(said![2]) }, info.team.repositories.find((r) => r.name === 'shop'), listed.find((r) => r.name === 'shop')];
    for (const row of shop) {
      expect(row.lagCommits).toBe(1);
      // An hour at least (before, the latest check's 5 s); the three were read moments apart, so they agree to within a minute.
      expect(row.lagSeconds).toBeGreaterThanOrEqual(3600);
      expect(row.lagSeconds).toBeLessThan(shop[0].lagSeconds + 60);
    }
    const lost = [info.team.repositories.find((r) => r.name === 'lost'), listed.find((r) => r.name === 'lost')];
    expect(lost[0]).toMatchObject({ lagCommits: null, lagSeconds: null, headError: 'git ls-remote failed: no such remote' });
    expect(lost[1]).toMatchObject({ lagCommits: null, lagSeconds: null, lastError: { message: 'branch head unreadable: git ls-remote failed: no such remote' } });
    expect(status.content[0].text).toMatch(/^lost \(main\): not indexed yet; error: the branch head could not be read \(git ls-remote failed: no such remote\)$/m);
  });

  it("shows a failing head build's error, the same in index_status, /api/info and fleet list", async () => {
    const status = (await client.callTool({ name: 'index_status', arguments: {} })) as { content: { text: string }[] };
    const info = (await (await fetch(`${server.url}/api/info`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { team: { repositories: any[] } };
    const listed = JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories as any[];
    const message = 'No space left on device while uploading to folder:/store';
    // Before, index_status said "(the head is being built)" and /api/info had no error.
    expect(status.content[0].text).toMatch(
      /^broken \(main\): served aaaaaaaaaaaa; branch head dddddddddddd; lag 1 commit, \d+ s \(the head's build failed, retries spent; the next poll queues it again: No space left on device while uploading to folder:\/store\)$/m,
    );
    expect(info.team.repositories.find((r) => r.name === 'broken')).toMatchObject({ lagCommits: 1, headError: null, lastError: { message } });
    expect(listed.find((r) => r.name === 'broken')).toMatchObject({ state: 'failed', lagCommits: 1, lastError: { message } });
    expect(info.team.repositories.find((r) => r.name === 'shop').lastError).toBeNull();
  });

  it('does not count a head force-pushed away: only the current head, from when it was first seen', async () => {
    const status = (await client.callTool({ name: 'index_status', arguments: {} })) as { content: { text: string }[] };
    const info = (await (await fetch(`${server.url}/api/info`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { team: { repositories: any[] } };
    const listed = JSON.parse((await fleetCli(['fleet', 'list', '--json', '--pg', db.url])).stdout).repositories as any[];
    const said = /^moved \(main\): served aaaaaaaaaaaa; branch head cccccccccccc; lag (\d+) commits?, (\d+) s \(the head is not built yet\)$/m.exec(status.content[0].text);
    expect(said, status.content[0].text).not.toBeNull();
    const moved = [{ lagCommits: Number(said![1]), lagSeconds: Number(said![2]) }, info.team.repositories.find((r) => r.name === 'moved'), listed.find((r) => r.name === 'moved')];
    for (const row of moved) {
      // Before, B (removed) was counted too: lag 2, an hour.
      expect(row.lagCommits).toBe(1);
      expect(row.lagSeconds).toBeGreaterThanOrEqual(600);
      expect(row.lagSeconds).toBeLessThan(moved[0].lagSeconds + 60);
      expect(row.lagSeconds).toBeLessThan(1800);
    }
  });
});
