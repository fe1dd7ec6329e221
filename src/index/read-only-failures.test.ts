/**
 * An index in a folder that cannot be written is used read-only while it
 * matches the tree. Files whose parse failed are part of what it holds (they
 * cannot be tried again without a write), not a sign that it no longer
 * matches: before, one failed parse made every command say the index "no
 * longer matches" the unchanged tree. A real change still fails closed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, gitInit, put } from '../../test/cli/harness.js';
import { brokenGrammars } from '../../test/helpers/broken-grammars.js';
import { RepositoryIndex } from './repository-index.js';

vi.mock('../parse/grammar-loader.js', async (original) => (await import('../../test/helpers/broken-grammars.js')).withBrokenGrammars(original));

/** The index folders the test declares read-only. */
const readOnly = vi.hoisted(() => new Set<string>());
vi.mock('./store/read-only-location.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./store/read-only-location.js')>();
  return { ...real, unwritableFolder: (indexPath: string) => ([...readOnly].some((folder) => indexPath.startsWith(folder)) ? 'the folder is on a read-only file system' : real.unwritableFolder(indexPath)) };
});

afterAll(cleanupTempDirs);
afterEach(() => {
  brokenGrammars.clear();
  readOnly.clear();
});

describe('a read-only index with failed parses', () => {
  it('answers from the unchanged tree, and fails closed once the tree changes', async () => {
    const fixture = copyIndexFixture();
    gitInit(fixture.root);
    commitAll(fixture.root, 'init');
    brokenGrammars.add('typescript');
    const writer = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    expect((await writer.refresh({ workers: 0 })).failed).toBe(2);
    writer.close();

    readOnly.add(join(fixture.indexPath, '..'));
    const reader = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    try {
      const report = await reader.refresh();
      expect(report).toMatchObject({ parsed: 0, failed: 2 });
      expect(reader.store.symbolsOf('inventory/pricing.py').length).toBeGreaterThan(0);

      put(fixture.root, 'inventory/stock.py', readFileSync(join(fixture.root, 'inventory/stock.py'), 'utf8') + '\ndef restock():\n    return 1\n');
      await expect(reader.refresh()).rejects.toMatchObject({ code: 'INDEX_UNAVAILABLE' });
    } finally {
      reader.close();
    }
  });
});
