import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, gitInit, put } from '../../../test/cli/harness.js';
import { indexConnection } from '../store/index-store.js';
import { RepositoryIndex } from '../repository-index.js';
import { WriterLock } from '../store/writer-lock.js';

afterAll(cleanupTempDirs);

/** Every file of the index's folder (database, WAL, lock, holder file) with its size and mtime, and the meta table. */
function indexState(repository: RepositoryIndex): { files: Record<string, string>; meta: unknown[] } {
  const folder = dirname(repository.store.path);
  const files = Object.fromEntries(
    readdirSync(folder).map((name) => {
      const info = statSync(join(folder, name));
      return [name, `${info.size}:${info.mtimeMs}`];
    }),
  );
  return { files, meta: indexConnection(repository.store).prepare('SELECT key, value FROM meta ORDER BY key').all() };
}

/** The fixture indexed once, as a git working tree (committed, optionally with an uncommitted edit) or a plain folder. */
async function indexed(options: { git: boolean; dirty?: boolean; watch?: boolean }) {
  const fixture = copyIndexFixture();
  if (options.git) {
    gitInit(fixture.root);
    commitAll(fixture.root, 'init');
  }
  if (options.dirty) put(fixture.root, 'inventory/stock.py', readFileSync(join(fixture.root, 'inventory/stock.py'), 'utf8') + '\n# edited\n');
  const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch: options.watch });
  await repository.refresh();
  // The lock file is made by the first writer; gone, a refresh that takes the lock makes it again.
  rmSync(`${fixture.indexPath}.lock`, { force: true });
  return { ...fixture, repository };
}

const cases = [
  { name: 'a git working tree', git: true },
  { name: 'a git working tree with an uncommitted edit', git: true, dirty: true },
  { name: 'a folder without git', git: false },
  { name: 'a watched git working tree', git: true, watch: true },
];

describe('a refresh that finds nothing changed', () => {
  for (const setup of cases) {
    it(`takes no lock and writes nothing, and the next change is still seen (${setup.name})`, async () => {
      const { root, indexPath, repository } = await indexed(setup);
      try {
        if (setup.watch) await repository.refresh(); // the first refresh after the full listing trusts the watcher
        rmSync(`${indexPath}.lock`, { force: true });
        const acquire = vi.spyOn(WriterLock.prototype, 'tryAcquire');
        const before = indexState(repository);
        const report = await repository.refresh();
        expect(report).toMatchObject({ parsed: 0, deleted: 0, reused: 0, unchanged: report.listed });
        expect(acquire).not.toHaveBeenCalled();
        expect(existsSync(`${indexPath}.lock`)).toBe(false);
        expect(indexState(repository)).toEqual(before);

        put(root, 'inventory/stock.py', readFileSync(join(root, 'inventory/stock.py'), 'utf8') + '\ndef restock_later():\n    return 2\n');
        const changed = await repository.refresh();
        expect(changed.parsed).toBe(1);
        expect(acquire).toHaveBeenCalled();
        expect(repository.store.symbolsOf('inventory/stock.py').map((s) => s.name)).toContain('restock_later');
        acquire.mockRestore();
      } finally {
        repository.close();
      }
    });
  }

  it('sees a deleted file and a new one', async () => {
    const { root, repository } = await indexed({ git: true, dirty: true });
    try {
      rmSync(join(root, 'tools/report.py'));
      expect((await repository.refresh()).deleted).toBe(1);
      put(root, 'tools/fresh.py', 'def fresh():\n    pass\n');
      expect((await repository.refresh()).parsed).toBe(1);
      expect(repository.store.file('tools/fresh.py')).not.toBeNull();
    } finally {
      repository.close();
    }
  });

  it('leaves a writer that died mid-run to the locked refresh (its integrity check)', async () => {
    const { indexPath, repository } = await indexed({ git: true });
    try {
      writeFileSync(`${indexPath}.writer`, JSON.stringify({ pid: 999_999, startedAt: Date.now(), done: 1, total: 5 }));
      const check = vi.spyOn(repository.store, 'integrityProblem');
      await repository.refresh();
      expect(check).toHaveBeenCalled();
      // The holder file is gone again: the locked run released the lock.
      expect(existsSync(`${indexPath}.writer`)).toBe(false);
      check.mockRestore();
    } finally {
      repository.close();
    }
  });

  it('runs the locked refresh when another reponav version wrote the index last', async () => {
    const { repository } = await indexed({ git: true });
    try {
      repository.store.setMeta('written_by', 'schema 0, SQLite 0, Node.js ABI 0');
      const acquire = vi.spyOn(WriterLock.prototype, 'tryAcquire');
      await repository.refresh();
      expect(acquire).toHaveBeenCalled();
      expect(repository.store.getMeta('written_by')).not.toBe('schema 0, SQLite 0, Node.js ABI 0');
      acquire.mockRestore();
    } finally {
      repository.close();
    }
  });
});
