/**
 * The shard stores (shared folder, PostgreSQL) are checksummed on write and
 * on read: a shard whose bytes changed after upload is refused, not served;
 * an upload is all there or absent. Migrations run once and say what to run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { FolderShardStore } from '../../src/team/folder-shard-store.js';
import { migrate, requireMigrated } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { PgShardStore } from '../../src/team/pg-shard-store.js';
import { fileDigest, type ShardStore } from '../../src/team/shard-store.js';
import { createDatabase, tempDir } from './team-harness.js';

const temp = tempDir('reponav-shard-stores-');
let created: Awaited<ReturnType<typeof createDatabase>>;
let db: TeamDatabase;
const source = join(temp.dir, 'shard.db');

beforeAll(async () => {
  created = await createDatabase();
  db = new TeamDatabase(created.url, silentLogger);
  // Three parts and a bit for the PostgreSQL store (1 MiB rows).
  writeFileSync(source, Buffer.alloc(3 * 1024 * 1024 + 17, 7));
});

afterAll(async () => {
  await db?.close();
  await created?.drop();
  temp.remove();
});

describe('migrations', () => {
  it('are refused until run, run once, and are idempotent', async () => {
    await expect(requireMigrated(db)).rejects.toThrow('The team database is at schema version 0, this reponav needs 5; run: reponav fleet migrate.');
    expect(await migrate(db)).toEqual([1, 2, 3, 4, 5]);
    expect(await migrate(db)).toEqual([]);
    await expect(requireMigrated(db)).resolves.toBeUndefined();
  });
});

describe.each([
  ['folder', () => new FolderShardStore(join(temp.dir, 'store'))],
  ['postgres', () => new PgShardStore(db)],
] as [string, () => ShardStore][])('%s shard store', (kind, make) => {
  it('round-trips a shard with its SHA-256, and refuses it once its bytes changed', async () => {
    const store = make();
    const location = `app/${kind}-abc.db`;
    const stored = await store.put(source, location);
    expect(stored).toEqual(await fileDigest(source));
    const out = join(temp.dir, `${kind}-out.db`);
    await store.get(location, stored.sha256, out);
    expect(readFileSync(out).equals(readFileSync(source))).toBe(true);
    // Flip one byte where the store keeps it.
    if (kind === 'folder') {
      const path = join(temp.dir, 'store', location);
      const bytes = readFileSync(path);
      bytes[100] ^= 1;
      writeFileSync(path, bytes);
    } else {
      await db.query("UPDATE reponav.shard_chunks SET bytes = overlay(bytes placing '\\x00'::bytea from 5 for 1) WHERE location = $1 AND part = 1", [location]);
    }
    const refused = join(temp.dir, `${kind}-refused.db`);
    await expect(store.get(location, stored.sha256, refused)).rejects.toThrow(/failed its checksum .* it was not used/);
    expect(() => readFileSync(refused)).toThrow();
    await store.delete(location);
    await expect(store.get(location, stored.sha256, refused)).rejects.toThrow(/is missing/);
  });

  it("deletes every shard of one commit (fleet purge), and no other commit's or repository's", async () => {
    const store = make();
    const x = '1'.repeat(40);
    const y = '2'.repeat(40);
    for (const location of [`lib/${x}-0001.db`, `lib/${x}-0002.db`, `lib/${y}-0001.db`, `lib2/${x}-0001.db`]) await store.put(source, location);
    expect(await store.deleteCommit('lib', x)).toBe(2);
    expect(await store.deleteCommit('lib', x)).toBe(0);
    const sha = (await fileDigest(source)).sha256;
    await expect(store.get(`lib/${x}-0001.db`, sha, join(temp.dir, `${kind}-x.db`))).rejects.toThrow(/is missing/);
    await store.get(`lib/${y}-0001.db`, sha, join(temp.dir, `${kind}-y.db`));
    await store.get(`lib2/${x}-0001.db`, sha, join(temp.dir, `${kind}-x2.db`));
  });
});
