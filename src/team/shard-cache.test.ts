/**
 * The server's shard cache keeps its total size under the limit by closing and
 * deleting the least recently used idle shard; a shard a call is using is never
 * evicted, and two locations whose bytes happen to be equal keep separate files.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexFilesFingerprint, RepositoryIndex, snapshotIndex, writeDerivedCache } from '../index/index.js';
import { silentLogger } from '../logger.js';
import { FolderShardStore } from './folder-shard-store.js';
import { ShardCache } from './shard-cache.js';
import type { ShardRecord } from './shard-registry.js';

const temp = mkdtempSync(join(tmpdir(), 'reponav-shard-cache-'));
const store = new FolderShardStore(join(temp, 'store'));
const shards: Record<string, ShardRecord> = {};

/** Indexes a one-file repository, snapshots it and uploads it under `location`. */
async function shard(name: string, body: string, location = `${name}/c-1.db`): Promise<ShardRecord> {
  const root = join(temp, 'repos', name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'main.py'), body);
  const indexPath = join(temp, 'idx', `${name}.db`);
  const index = await RepositoryIndex.open(root, { indexPath });
  await index.refresh();
  index.close();
  const file = join(temp, 'snap', `${name}.db`);
  mkdirSync(join(temp, 'snap'), { recursive: true });
  snapshotIndex(indexPath, file);
  const stored = await store.put(file, location);
  return { repo: name, commit: 'c'.repeat(40), seq: 1, schemaVersion: 1, sizeBytes: stored.sizeBytes, sha256: stored.sha256, location, builtAt: new Date() };
}

beforeAll(async () => {
  for (const name of ['alpha', 'beta', 'gamma']) shards[name] = await shard(name, `def ${name}_handler():\n    return '${name}'\n`);
}, 60_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('ShardCache', () => {
  it('evicts the least recently used idle shard once the total passes the limit, never a pinned one', async () => {
    const { alpha, beta, gamma } = shards;
    const cache = new ShardCache(store, join(temp, 'cache-lru'), alpha.sizeBytes + beta.sizeBytes, silentLogger);
    (await cache.acquire(alpha)).release();
    const pinned = await cache.acquire(beta);
    (await cache.acquire(gamma)).release();
    // alpha was used least recently and is idle; beta is in use.
    expect(cache.has(alpha.location)).toBe(false);
    expect(cache.has(beta.location)).toBe(true);
    expect(cache.has(gamma.location)).toBe(true);
    expect(cache.stats()).toMatchObject({ entries: 2, downloads: 3, evictions: 1 });
    expect(pinned.handle.index.store.fileCounts().files).toBe(1);
    pinned.release();
    // Using alpha again downloads it again and evicts the now least recently used (beta).
    const again = await cache.acquire(alpha);
    expect(again.downloaded).toBe(true);
    again.release();
    expect(cache.has(beta.location)).toBe(false);
    expect(cache.stats().bytes).toBeLessThanOrEqual(alpha.sizeBytes + beta.sizeBytes);
    await cache.close();
  });

  it("deletes an evicted shard's derived cache files with it (they are not counted in the limit)", async () => {
    const { alpha, beta, gamma } = shards;
    const dir = join(temp, 'cache-derived');
    const cache = new ShardCache(store, dir, alpha.sizeBytes + beta.sizeBytes, silentLogger);
    const lease = await cache.acquire(alpha);
    const index = lease.handle.index.store;
    writeDerivedCache(index, 'file-identity-v1', indexFilesFingerprint(index), 'derived');
    const cacheFiles = () => readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.cache'));
    expect(cacheFiles()).toHaveLength(1);
    lease.release();
    (await cache.acquire(beta)).release();
    (await cache.acquire(gamma)).release();
    expect(cache.has(alpha.location)).toBe(false);
    await vi.waitFor(() => expect(cacheFiles()).toEqual([]));
    await cache.close();
  });

  it('keeps a file per location, so evicting one of two equal shards leaves the other readable', async () => {
    const one = await shard('twin', 'def twin():\n    return 1\n', 'twin/c-1.db');
    const two = { ...one, location: 'twin/c-2.db' };
    await store.put(join(temp, 'snap', 'twin.db'), two.location);
    const dir = join(temp, 'cache-twins');
    const cache = new ShardCache(store, dir, one.sizeBytes, silentLogger);
    const first = await cache.acquire(one);
    first.release();
    const second = await cache.acquire(two);
    // The eviction closes and deletes the first file after the acquire returns: wait for it, not for a fixed time.
    await vi.waitFor(() => expect(cache.has(one.location)).toBe(false));
    await vi.waitFor(() => expect(readdirSync(dir).filter((f) => f.endsWith('.db'))).toHaveLength(1));
    expect(second.handle.index.store.fileCounts().files).toBe(1);
    second.release();
    await cache.close();
    expect(existsSync(dir)).toBe(false);
  });
  it('drops purged shards: an idle one at once, one in use when its call releases it, and never hands either out again', async () => {
    const { alpha, beta, gamma } = shards;
    const dir = join(temp, 'cache-drop');
    const cache = new ShardCache(store, dir, 1 << 30, silentLogger);
    (await cache.acquire(alpha)).release();
    const inUse = await cache.acquire(beta);
    (await cache.acquire(gamma)).release();
    expect(cache.held().map((h) => h.repo).sort()).toEqual(['alpha', 'beta', 'gamma']);
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.db')).length;
    expect(files()).toBe(3);
    expect(cache.drop(new Set([`alpha@${alpha.commit}`, `beta@${beta.commit}`]))).toBe(2);
    expect(cache.has(alpha.location) || cache.has(beta.location)).toBe(false);
    await vi.waitFor(() => expect(files()).toBe(2));
    // The call using beta still reads it; its file goes when the call ends.
    expect(inUse.handle.name).toBe('beta');
    inUse.release();
    await vi.waitFor(() => expect(files()).toBe(1));
    expect(cache.held()).toEqual([{ repo: 'gamma', commit: gamma.commit }]);
    await cache.close();
  });
});
