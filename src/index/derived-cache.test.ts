import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDerivedCaches } from './derived-cache-files.js';
import { indexFilesFingerprint, readDerivedCache, writeDerivedCache } from './derived-cache.js';
import { IndexStore } from './index-store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('derived cache', () => {
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
