/**
 * Page-level damage to an index met by an MCP server, over stdio (the built
 * CLI spawned) and Streamable HTTP: a read that meets "database disk image is
 * malformed" rebuilds the index and answers (not an "Internal error"), and
 * index_status, which probes for damage, repairs it before saying "up to date".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCliPath } from './built-cli.js';
import { call } from './mcp-client.js';
import { copyFixture, type FixtureCopy } from './fixture-repo.js';
import { serve, type Transport } from './serve-fixture.js';

/**
 * Indexes the copy with the built CLI (into the cache folder the stdio server
 * uses, or at `copy.indexPath` for the in-process HTTP server), then fills the
 * root page of b-tree `tree` with 0x5a bytes.
 */
function indexAndDamage(transport: Transport, copy: FixtureCopy, tree: string): void {
  const cacheDir = join(copy.dir, 'cache');
  const where = transport === 'http' ? ['--index-path', copy.indexPath] : [];
  const built = spawnSync(process.execPath, [builtCliPath(), 'index', copy.root, ...where, '-q'], { encoding: 'utf8', env: { ...process.env, REPONAV_CACHE_DIR: cacheDir } });
  expect(built.status, built.stderr).toBe(0);
  const file = transport === 'http' ? copy.indexPath : join(cacheDir, readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith('worktree.db'))!);
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(tree) as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(file);
  bytes.fill(0x5a, (rootpage - 1) * pageSize, rootpage * pageSize);
  writeFileSync(file, bytes);
}

describe.each<Transport>(['stdio', 'http'])('a damaged index over MCP (%s)', (transport) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('list_symbols over a damaged symbols page rebuilds the index and answers', async () => {
    const copy = copyFixture();
    cleanups.push(() => copy.cleanup());
    indexAndDamage(transport, copy, 'symbols');
    const server = await serve(transport, copy);
    cleanups.push(server.close);
    const answer = await call(server.connection.client, 'list_symbols', { file: 'shop/pricing.py' });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.text).toContain('PriceCalculator');
    expect(server.stderr()).toMatch(/is damaged \(SQLite: .*\); rebuilding it/);
  }, 60_000);

  it('index_status finds damage a quick freshness check does not read, repairs it, then says it is fresh', async () => {
    const copy = copyFixture();
    cleanups.push(() => copy.cleanup());
    indexAndDamage(transport, copy, 'chunks');
    const server = await serve(transport, copy);
    cleanups.push(server.close);
    const status = await call(server.connection.client, 'index_status', {});
    expect(status.isError, status.text).toBe(false);
    expect(server.stderr()).toMatch(/is damaged \(SQLite: .*\); rebuilding it/);
    expect(status.text).toContain('Fresh: the index matches the files on disk.');
    const search = await call(server.connection.client, 'search', { query: 'apply tax to the order total' });
    expect(search.text).toContain('[FILE] shop/pricing.py');
  }, 60_000);
});
