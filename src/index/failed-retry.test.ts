/**
 * Files whose parse failed are tried again, but they must not cost every call:
 * git status and the watcher still answer the cheap freshness check, only the
 * failed paths are added to what they name (before, one failed file made every
 * later refresh list and stat the whole tree), and a parse a process has seen
 * fail the same way twice is not tried again by its later calls until its file
 * changes (before, every call took the writer lock to parse it again). A
 * failure seen once (a worker that crashed under load) gets its second try.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, gitInit, put } from '../../test/cli/harness.js';
import { brokenGrammars } from '../../test/helpers/broken-grammars.js';
import { RepositoryIndex } from './repository-index.js';
import { WorktreeSource } from './sources/worktree-source.js';

vi.mock('../parse/grammar-loader.js', async (original) => (await import('../../test/helpers/broken-grammars.js')).withBrokenGrammars(original));

afterAll(cleanupTempDirs);
afterEach(() => {
  brokenGrammars.clear();
});

/** A git repository made from the fixture whose TypeScript files failed to parse at the first index. */
async function repositoryWithFailures(watch: boolean) {
  const fixture = copyIndexFixture();
  gitInit(fixture.root);
  commitAll(fixture.root, 'init');
  brokenGrammars.add('typescript');
  const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch });
  const first = await repository.refresh({ workers: 0 });
  expect(first.failed).toBe(2);
  const fullListings = vi.spyOn(repository.source as WorktreeSource, 'list');
  return { ...fixture, repository, fullListings };
}

describe.each([false, true])('failed parses and the freshness fast path (watch: %s)', (watch) => {
  it('a refresh tries the failed files once more, then leaves them be until something changes, and lists nothing', async () => {
    const { root, indexPath, repository, fullListings } = await repositoryWithFailures(watch);
    try {
      // Still broken: the two failed files are tried again, nothing else is read; that is no change to index
      // (a call with a short index wait waits for it instead of saying "indexing").
      let indexing = 0;
      const onIndexing = () => indexing++;
      let report = await repository.refresh({ workers: 0, onIndexing });
      expect(report).toMatchObject({ parsed: 2, failed: 2, deleted: 0 });
      expect(indexing).toBe(0);
      // Failed the same way twice: this process's next calls do not parse them again.
      report = await repository.refresh({ workers: 0, onIndexing });
      expect(report).toMatchObject({ parsed: 0, failed: 2, deleted: 0 });
      expect(indexing).toBe(0);

      put(root, 'inventory/stock.py', readFileSync(join(root, 'inventory/stock.py'), 'utf8') + '\ndef restock():\n    return 1\n');
      report = await repository.refresh({ workers: 0, onIndexing });
      expect(report).toMatchObject({ parsed: 3, failed: 2 });
      expect(indexing).toBe(1);
      expect(repository.store.symbolsOf('inventory/stock.py').map((s) => s.name)).toContain('restock');
      expect(fullListings).not.toHaveBeenCalled();

      // Mended (a reinstall): the next process tries them again, they parse, and then it has nothing to do.
      brokenGrammars.clear();
      const next = await RepositoryIndex.open(root, { indexPath, watch });
      try {
        report = await next.refresh({ workers: 0 });
        expect(report).toMatchObject({ parsed: 2, failed: 0 });
        expect(next.store.symbolsOf('web/cart.ts').map((s) => s.name)).toContain('Cart');
        report = await next.refresh({ workers: 0 });
        expect(report).toMatchObject({ parsed: 0, failed: 0 });
      } finally {
        next.close();
      }
    } finally {
      repository.close();
    }
  });

  it('a failed file that changes is a change to index; tried again unchanged, it is not', async () => {
    const { root, repository } = await repositoryWithFailures(watch);
    try {
      let indexing = 0;
      const onIndexing = () => indexing++;
      await repository.refresh({ workers: 0, onIndexing });
      expect(indexing).toBe(0);
      put(root, 'web/cart.ts', readFileSync(join(root, 'web/cart.ts'), 'utf8') + '\nexport const touched = 1;\n');
      const report = await repository.refresh({ workers: 0, onIndexing });
      expect(report.failed).toBe(2);
      expect(indexing).toBe(1);
    } finally {
      repository.close();
    }
  });

  it('a failure seen once gets its second try in the same process', async () => {
    const { repository } = await repositoryWithFailures(watch);
    try {
      brokenGrammars.clear();
      const report = await repository.refresh({ workers: 0 });
      expect(report).toMatchObject({ parsed: 2, failed: 0 });
      expect(repository.store.symbolsOf('web/cart.ts').map((s) => s.name)).toContain('Cart');
    } finally {
      repository.close();
    }
  });
});
