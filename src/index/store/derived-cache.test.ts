import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDerivedCaches } from './derived-cache-files.js';
import { indexFilesFingerprint, readDerivedCache, writeDerivedCache } from './derived-cache.js';
import { indexConnection, IndexStore } from './index-store.js';
import { SCHEMA_VERSION } from './index-schema.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The fingerprint's definition, row by row in JavaScript. */
function fingerprintByRows(store: IndexStore): string {
  const hash = createHash('sha256');
  hash.update(`schema ${SCHEMA_VERSION}\n`);
  const rows = indexConnection(store).prepare('SELECT id, path, blob_id, language, status, indexed_at FROM files ORDER BY id').raw().all() as unknown[][];
  for (const row of rows) hash.update(`${row.join('\u0000')}\n`);
  return hash.digest('hex');
}

describe('derived cache', () => {
  it('fingerprints every files row as its definition says (SQLite builds the text)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-derived-'));
    dirs.push(dir);
    const store = IndexStore.open(join(dir, 'index.db'));
    const empty = indexFilesFingerprint(store);
    expect(empty).toBe(fingerprintByRows(store));
    const insert = indexConnection(store).prepare(
      `INSERT INTO files(id, path, blob_id, size, mtime_ms, language, status, error_count, decoded_with_replacement, line_count, indexed_at)
       VALUES (?, ?, ?, 1, NULL, ?, 'ok', 0, 0, 1, ?)`,
    );
    // Inserted out of id order, with non-ASCII and an id above 2^31.
    insert.run(3_000_000_000, 'b/ü.py', 'b'.repeat(40), 'python', 1_764_556_000_123);
    insert.run(7, 'a/main.ts', 'a'.repeat(40), 'typescript', 1_764_556_000_000);
    const two = indexFilesFingerprint(store);
    expect(two).toBe(fingerprintByRows(store));
    expect(two).not.toBe(empty);
    indexConnection(store).prepare("UPDATE files SET status = 'partial' WHERE id = 7").run();
    expect(indexFilesFingerprint(store)).toBe(fingerprintByRows(store));
    expect(indexFilesFingerprint(store)).not.toBe(two);
    store.close();
  });

  it('returns what was written for the same fingerprint only; an unwritable folder is no cache, not an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-derived-'));
    dirs.push(dir);
    const store = IndexStore.open(join(dir, 'index.db'));
    const fingerprint = indexFilesFingerprint(store);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(readDerivedCache(store, 'thing', fingerprint)).toBeNull();
    writeDerivedCache(store, 'thing', fingerprint, 'payload\nwith lines');
    expect(readDerivedCache(store, 'thing', fingerprint)?.toString()).toBe('payload\nwith lines');
    expect(readDerivedCache(store, 'thing', 'another')).toBeNull();
    expect(readDerivedCache(store, 'other', fingerprint)).toBeNull();
    // A cache path that cannot be replaced (here a folder in its place; a read-only shard folder alike).
    mkdirSync(join(dir, 'index.db.locked.cache', 'inside'), { recursive: true });
    expect(() => writeDerivedCache(store, 'locked', fingerprint, 'x')).not.toThrow();
    expect(readDerivedCache(store, 'locked', fingerprint)).toBeNull();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    store.close();
    writeFileSync(join(dir, 'index.db.x.tmp'), '');
    writeFileSync(join(dir, 'other.db.thing.cache'), '');
    removeDerivedCaches(join(dir, 'index.db'));
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache') || f.endsWith('.tmp'))).toEqual(['other.db.thing.cache']);
    expect(readdirSync(dir)).toContain('index.db');
  });
});
