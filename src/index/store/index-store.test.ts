import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, FIXTURE_FILES, tempDir } from '../../../test/cli/harness.js';
import type { Logger } from '../../logger.js';
import { SCHEMA_VERSION } from './index-schema.js';
import { indexConnection, IndexStore } from './index-store.js';
import { RepositoryIndex } from '../repository-index.js';

afterAll(cleanupTempDirs);

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, error() {}, warn: (m: string) => warnings.push(m) };
}

/** Overwrites with zeros the root page of `table` in a checkpointed index file. */
function zeroTablePage(path: string, table: string): void {
  const db = new Database(path, { readonly: true });
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(path);
  bytes.fill(0, (rootpage - 1) * pageSize, rootpage * pageSize);
  writeFileSync(path, bytes);
}

/** Indexes a fixture copy at `indexPath` and returns its root. */
async function buildIndex(indexPath: string): Promise<string> {
  const { root } = copyIndexFixture();
  const repository = await RepositoryIndex.open(root, { indexPath });
  try {
    await repository.refresh();
    expect(repository.store.files()).toHaveLength(FIXTURE_FILES.length);
  } finally {
    repository.close();
  }
  return root;
}

describe('IndexStore schema checks', () => {
  it('creates a fresh index with the current schema version, silently', () => {
    const logger = recordingLogger();
    const path = join(tempDir(), 'deep', 'er', 'index.db');
    const store = IndexStore.open(path, logger);
    try {
      expect(store.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
      expect(store.files()).toEqual([]);
      expect(logger.warnings).toEqual([]);
      expect(String(indexConnection(store).pragma('journal_mode', { simple: true }))).toBe('wal');
    } finally {
      store.close();
    }
  });

  it('reopens a current index as is', async () => {
    const path = join(tempDir(), 'index.db');
    await buildIndex(path);
    const logger = recordingLogger();
    const store = IndexStore.open(path, logger);
    try {
      expect(store.files()).toHaveLength(FIXTURE_FILES.length);
      expect(logger.warnings).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('rebuilds an index with another schema version, with a warning, and never trusts its rows', async () => {
    const path = join(tempDir(), 'index.db');
    const root = await buildIndex(path);
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
    db.close();

    const logger = recordingLogger();
    const repository = await RepositoryIndex.open(root, { indexPath: path, logger });
    try {
      expect(logger.warnings).toHaveLength(1);
      expect(logger.warnings[0]).toMatch(new RegExp(`schema version ${SCHEMA_VERSION - 1}.*rebuilding`));
      expect(repository.store.files()).toEqual([]);
      expect(repository.store.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
      const report = await repository.refresh();
      expect(report).toMatchObject({ parsed: FIXTURE_FILES.length, unchanged: 0 });
    } finally {
      repository.close();
    }
  });

  it('refuses a newer-schema index and leaves it as it is (only older ones are rebuilt)', async () => {
    const path = join(tempDir(), 'index.db');
    await buildIndex(path);
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
    db.close();
    const before = readFileSync(path);
    const logger = recordingLogger();
    expect(() => IndexStore.open(path, logger, { owned: true })).toThrowError(
      expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringMatching(/newer reponav.*upgrade reponav/) }),
    );
    expect(readFileSync(path)).toEqual(before);
    expect(logger.warnings).toEqual([]);
  });

  it('refuses a garbage file at a path the user gave, leaving it as it was', () => {
    const path = join(tempDir(), 'notes.txt');
    const content = Buffer.from('this is not a database at all, just some bytes\n'.repeat(200));
    writeFileSync(path, content);
    const logger = recordingLogger();
    expect(() => IndexStore.open(path, logger)).toThrowError(
      expect.objectContaining({ code: 'BAD_INPUT', message: expect.stringMatching(/notes\.txt is not a reponav index.*refusing to overwrite it/) }),
    );
    expect(readFileSync(path)).toEqual(content);
    expect(logger.warnings).toEqual([]);
  });

  it('rebuilds a garbage file at a path reponav owns (its cache), with a warning', () => {
    const path = join(tempDir(), 'index.db');
    writeFileSync(path, Buffer.from('this is not a database at all, just some bytes\n'.repeat(200)));
    const logger = recordingLogger();
    const store = IndexStore.open(path, logger, { owned: true });
    try {
      expect(logger.warnings).toHaveLength(1);
      expect(logger.warnings[0]).toMatch(/rebuilding/);
      expect(store.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
      expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
    } finally {
      store.close();
    }
  });

  it("refuses another program's SQLite file at a user path, and rebuilds one without a schema version", () => {
    const other = join(tempDir(), 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    db.prepare('INSERT INTO notes(body) VALUES (?)').run('keep me');
    db.close();
    expect(() => IndexStore.open(other)).toThrowError(/other\.db is not a reponav index \(a SQLite database with tables notes\)/);
    const kept = new Database(other, { readonly: true });
    expect(kept.prepare('SELECT body FROM notes').pluck().get()).toBe('keep me');
    kept.close();
    const logger = recordingLogger();
    IndexStore.open(other, logger, { owned: true }).close();
    expect(logger.warnings[0]).toMatch(/tables notes; rebuilding/);

    const noVersion = join(tempDir(), 'noversion.db');
    const store = IndexStore.open(noVersion);
    indexConnection(store).prepare("DELETE FROM meta WHERE key = 'schema_version'").run();
    store.close();
    const logger2 = recordingLogger();
    IndexStore.open(noVersion, logger2).close();
    expect(logger2.warnings[0]).toMatch(/no schema version.*rebuilding/);
  });

  it("rebuilds an index whose full-text index's configuration page is damaged (found when its statements are compiled), and a read-only open says so and touches nothing", async () => {
    const path = join(tempDir(), 'index.db');
    const root = await buildIndex(path);
    zeroTablePage(path, 'chunks_fts_config');
    const damaged = readFileSync(path);
    expect(() => IndexStore.open(path, recordingLogger(), { readonly: true })).toThrow(
      expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringMatching(/is damaged.*run `reponav index` to rebuild it/) }),
    );
    expect(readFileSync(path)).toEqual(damaged);
    const logger = recordingLogger();
    const repository = await RepositoryIndex.open(root, { indexPath: path, logger });
    try {
      expect(logger.warnings.join('\n')).toMatch(/is damaged \(SQLite: vtable constructor failed: chunks_fts\); rebuilding it/);
      const report = await repository.refresh();
      expect(report.parsed).toBe(FIXTURE_FILES.length);
      expect(repository.store.integrityProblem('full')).toBeNull();
    } finally {
      repository.close();
    }
  });

  it('rebuilds an index whose pages were damaged when a check finds it (index --check), and reindexes', async () => {
    const path = join(tempDir(), 'index.db');
    const root = await buildIndex(path);
    // Checkpointed by close; overwrite a stretch in the middle of the file.
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(16 * 4096);
    for (let i = 8 * 4096; i < 12 * 4096; i++) bytes[i] = 0xa5;
    writeFileSync(path, bytes);
    const logger = recordingLogger();
    const repository = await RepositoryIndex.open(root, { indexPath: path, logger });
    try {
      const report = await repository.refresh({ check: true });
      expect(logger.warnings.join('\n')).toMatch(/(failed its integrity check|is damaged).*rebuilding/);
      expect(report.parsed).toBe(FIXTURE_FILES.length);
      expect(repository.store.integrityProblem('full')).toBeNull();
    } finally {
      repository.close();
    }
    expect(existsSync(path)).toBe(true);
  });
});

describe('IndexStore symbol counts', () => {
  it('symbolCountOf equals the number of rows symbolsOf reads, from the cache or not, and is 0 for a path not indexed', async () => {
    const path = join(tempDir(), 'index.db');
    await buildIndex(path);
    const store = IndexStore.open(path, recordingLogger());
    try {
      const paths = store.files().map((f) => f.path);
      // Counted before the rows are read (no cache), then after (from the cache).
      const before = paths.map((p) => store.symbolCountOf(p));
      const rows = paths.map((p) => store.symbolsOf(p).length);
      expect(before).toEqual(rows);
      expect(paths.map((p) => store.symbolCountOf(p))).toEqual(rows);
      expect(rows.some((n) => n > 0)).toBe(true);
      expect(store.symbolCountOf('no/such/file.py')).toBe(0);
    } finally {
      store.close();
    }
  });
});
