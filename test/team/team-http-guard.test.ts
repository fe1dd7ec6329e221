/**
 * The team server applies the single-user MCP server's Host/Origin rules before
 * it looks at the token: a page on another site (or a DNS-rebound name) cannot
 * drive an agent's token through a browser. An allowed Origin (--allow-origin)
 * passes on to the token check.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { FolderShardStore } from '../../src/team/folder-shard-store.js';
import { migrate } from '../../src/team/migrations.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { startTeamServer, type RunningTeamServer } from '../../src/team/team-server.js';
import { createDatabase } from './team-harness.js';

const temp = mkdtempSync(join(tmpdir(), 'reponav-team-guard-'));
let created: Awaited<ReturnType<typeof createDatabase>>;
let db: TeamDatabase;
let server: RunningTeamServer;

beforeAll(async () => {
  created = await createDatabase();
  db = new TeamDatabase(created.url, silentLogger);
  await migrate(db);
  // As fleet migrate does: the server queues rebuilds of lost shards, so the queue's schema must exist.
  await (await JobQueue.open(db, silentLogger, { install: true })).close();
  server = await startTeamServer({
    db,
    store: new FolderShardStore(join(temp, 'store')),
    cacheDir: join(temp, 'cache'),
    cacheBytes: 1 << 20,
    port: 0,
    host: '127.0.0.1',
    allowedOrigins: ['https://tools.example.com'],
    logger: silentLogger,
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await db?.close();
  await created?.drop();
  rmSync(temp, { recursive: true, force: true });
});

const get = (headers: Record<string, string>) => fetch(`${server.url}/api/repos`, { headers });

describe('team server Host/Origin guard', () => {
  it('refuses a foreign Origin and a non-loopback Host with 403, before the token', async () => {
    const evil = await get({ Origin: 'http://evil.example', Authorization: 'Bearer rnv_whatever' });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error).toContain("Origin 'http://evil.example' is not allowed");
    // fetch cannot set Host (a forbidden header); node:http can, as a rebound browser would send it.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST', headers: { Host: 'attacker.example:7744', 'Content-Type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error).toContain("Host 'attacker.example:7744' is not allowed");
  });

  it('lets loopback and allowed Origins through to the token check (401 without a valid token)', async () => {
    for (const origin of [`http://localhost:${server.port}`, 'https://tools.example.com']) {
      const res = await get({ Origin: origin });
      expect(res.status, origin).toBe(401);
    }
    expect((await get({})).status).toBe(401);
  });
});
