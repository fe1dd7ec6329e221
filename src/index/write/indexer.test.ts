import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, FIXTURE_FILES, put, tempDir } from '../../../test/cli/harness.js';
import { indexConnection, IndexStore } from '../store/index-store.js';
import { gitBlobId, updateIndex } from './indexer.js';
import { RepositoryIndex } from '../repository-index.js';
import { WorktreeSource } from '../sources/worktree-source.js';

afterAll(cleanupTempDirs);

const N = FIXTURE_FILES.length;

async function openFixture() {
  const fixture = copyIndexFixture();
  const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
  return { ...fixture, repository };
}

/** Moves a file's mtime forward by `seconds` (so the change is visible whatever the clock granularity). */
function bumpMtime(file: string, seconds = 10): void {
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(file, later, later);
}

describe('incremental indexing of a working tree', () => {
  it('indexes everything once, then nothing when nothing changed', async () => {
    const { repository } = await openFixture();
    try {
      const first = await repository.refresh();
      expect(first).toMatchObject({ mode: 'worktree', commit: null, listed: N, parsed: N, unchanged: 0, reused: 0, deleted: 0 });
      const second = await repository.refresh();
      expect(second).toMatchObject({ listed: N, parsed: 0, unchanged: N, deleted: 0 });
      // Blob ids are git's, so a working tree and a commit index agree.
      const stock = repository.store.file('inventory/stock.py')!;
      expect(stock.blobId).toBe(gitBlobId(readFileSync(join(repository.root, 'inventory/stock.py'))));
    } finally {
      repository.close();
    }
  });

  it('indexes only the paths of a focused run, deletes nothing, leaves the index incomplete; the next refresh does the rest', async () => {
    const { repository } = await openFixture();
    try {
      const focused = await repository.indexFocused(['inventory/stock.py', 'tools/report.py', 'not/listed.py']);
      expect(focused).toMatchObject({ listed: 2, parsed: 2, deleted: 0 });
      expect(repository.store.filePaths()).toEqual(['inventory/stock.py', 'tools/report.py']);
      expect(repository.store.getMeta('indexed')).toBeNull();
      expect(repository.store.getMeta('complete')).toBe('0');
      // A second focused run over other files keeps the first one's.
      await repository.indexFocused(['inventory/pricing.py']);
      expect(repository.store.filePaths()).toHaveLength(3);
      const whole = await repository.refresh();
      expect(whole).toMatchObject({ listed: N, parsed: N - 3, unchanged: 3, deleted: 0 });
      expect(repository.store.getMeta('indexed')).not.toBeNull();
      // The import edges are the whole tree's: report.py imports the package, indexed after it.
      expect(repository.store.importsOf('tools/report.py')).toEqual(['inventory/__init__.py']);
    } finally {
      repository.close();
    }
  });

  it('re-parses exactly one edited file; a touch re-parses nothing; a deletion removes the file and its symbols', async () => {
    const { root, repository } = await openFixture();
    try {
      await repository.refresh();
      expect(repository.store.symbolsOf('inventory/pricing.py').map((s) => s.name)).toContain('round_cents');

      // Edit: new content and a new mtime.
      const pricing = join(root, 'inventory/pricing.py');
      writeFileSync(pricing, readFileSync(pricing, 'utf8') + '\n\ndef tax_for(region):\n    return 0.2\n');
      bumpMtime(pricing, 5);
      const edited = await repository.refresh();
      expect(edited).toMatchObject({ parsed: 1, unchanged: N - 1, deleted: 0, reused: 0 });
      expect(repository.store.symbolsOf('inventory/pricing.py').map((s) => s.name)).toContain('tax_for');

      // Same size, new content, new mtime: still detected (the size alone is not trusted).
      const cart = join(root, 'web/cart.ts');
      const cartText = readFileSync(cart, 'utf8');
      writeFileSync(cart, cartText.replace('formatPrice', 'formatCents'));
      bumpMtime(cart, 6);
      const sameSize = await repository.refresh();
      expect(sameSize).toMatchObject({ parsed: 1, unchanged: N - 1 });
      expect(repository.store.symbolsOf('web/cart.ts').map((s) => s.name)).toContain('formatCents');

      // Touch: mtime only. The blob id is unchanged, so nothing is re-parsed...
      const stock = join(root, 'inventory/stock.py');
      const before = repository.store.file('inventory/stock.py')!;
      bumpMtime(stock, 20);
      const touched = await repository.refresh();
      expect(touched.parsed).toBe(0);
      // ...and the touched file counts as unchanged: its content is.
      expect(touched.unchanged).toBe(N);
      const after = repository.store.file('inventory/stock.py')!;
      expect(after.blobId).toBe(before.blobId);
      expect(after.id).toBe(before.id); // the row was touched, not rewritten
      expect(after.mtimeMs).not.toBe(before.mtimeMs);
      // ...and the new mtime is remembered, so the next run does not read it again.
      expect(await repository.refresh()).toMatchObject({ parsed: 0, unchanged: N });

      // Delete: the file, its symbols and its search chunks go.
      rmSync(join(root, 'tools/report.py'));
      const deleted = await repository.refresh();
      expect(deleted).toMatchObject({ listed: N - 1, parsed: 0, deleted: 1, unchanged: N - 1 });
      expect(repository.store.file('tools/report.py')).toBeNull();
      expect(repository.store.symbolsOf('tools/report.py')).toEqual([]);
      expect(indexConnection(repository.store).prepare('SELECT * FROM symbols WHERE name = ?').all('low_stock_skus')).toEqual([]);
      const orphans = indexConnection(repository.store).prepare('SELECT COUNT(*) AS n FROM chunks WHERE file_id NOT IN (SELECT id FROM files)').get() as { n: number };
      expect(orphans.n).toBe(0);
      const fts = indexConnection(repository.store).prepare("SELECT COUNT(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'low_stock_skus'").get() as { n: number };
      expect(fts.n).toBe(0);
      const blobs = indexConnection(repository.store).prepare('SELECT COUNT(*) AS n FROM blobs WHERE blob_id NOT IN (SELECT blob_id FROM files)').get() as { n: number };
      expect(blobs.n).toBe(0);
    } finally {
      repository.close();
    }
  });

  it('adds a new file and indexes its imports edges', async () => {
    const { root, repository } = await openFixture();
    try {
      await repository.refresh();
      put(root, 'tools/restock.py', 'from inventory.stock import StockLedger\n\n\ndef restock(ledger: StockLedger):\n    ledger.receive_shipment("a", 1)\n');
      const report = await repository.refresh();
      expect(report).toMatchObject({ listed: N + 1, parsed: 1, unchanged: N });
      expect(repository.store.importedBy('inventory/stock.py')).toContain('tools/restock.py');
      rmSync(join(root, 'tools/restock.py'));
      await repository.refresh();
      expect(repository.store.importedBy('inventory/stock.py')).not.toContain('tools/restock.py');
    } finally {
      repository.close();
    }
  });

  it('status reports changed, added and deleted files before a re-index and none after', async () => {
    const { root, repository } = await openFixture();
    try {
      const never = await repository.status();
      expect(never.indexedAt).toBeNull();
      expect(never.stale.added).toHaveLength(N);

      await repository.refresh();
      const fresh = await repository.status();
      expect(fresh).toMatchObject({ mode: 'worktree', files: N, complete: true, stale: { changed: [], added: [], deleted: [] } });
      expect(fresh.symbols).toBeGreaterThan(10);
      expect(fresh.languages).toMatchObject({ python: 4, typescript: 2 });

      const cart = join(root, 'web/cart.ts');
      writeFileSync(cart, readFileSync(cart, 'utf8') + '\nexport const CART_VERSION = 2;\n');
      bumpMtime(cart);
      put(root, 'inventory/returns.py', 'def accept_return(sku):\n    return sku\n');
      rmSync(join(root, 'tools/report.py'));
      const stale = await repository.status();
      expect(stale.stale).toEqual({ changed: ['web/cart.ts'], added: ['inventory/returns.py'], deleted: ['tools/report.py'] });
      // status never re-indexes
      expect(repository.store.file('tools/report.py')).not.toBeNull();

      await repository.refresh();
      expect((await repository.status()).stale).toEqual({ changed: [], added: [], deleted: [] });
    } finally {
      repository.close();
    }
  });

  it('indexes a file with a syntax error as partial, and a non-UTF-8 file decoded as Latin-1', async () => {
    const { root, repository } = await openFixture();
    put(root, 'tools/broken.py', 'def ok():\n    return 1\n\ndef broken(:\n    return (\n\nclass Fine:\n    def m(self):\n        pass\n');
    put(root, 'tools/latin1.py', Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(' cr'), Buffer.from([0xe8, 0x6d, 0x65]), Buffer.from('\ndef brulee():\n    return "cr'), Buffer.from([0xe8]), Buffer.from('me"\n')]));
    try {
      const report = await repository.refresh();
      expect(report.partial).toBe(1);
      expect(report.listed).toBe(N + 2);
      const broken = repository.store.file('tools/broken.py')!;
      expect(broken).toMatchObject({ status: 'partial', language: 'python' });
      expect(broken.errorCount).toBeGreaterThan(0);
      expect(repository.store.symbolsOf('tools/broken.py').map((s) => s.name)).toContain('ok');

      const latin = repository.store.file('tools/latin1.py')!;
      expect(latin).toMatchObject({ decodedWithReplacement: true, status: 'ok' });
      expect(repository.store.fileText('tools/latin1.py')).toContain('café');
      expect(repository.store.symbolsOf('tools/latin1.py').map((s) => s.name)).toEqual(['brulee']);
      expect(repository.store.file('inventory/stock.py')!.decodedWithReplacement).toBe(false);
      expect((await repository.status()).partialFiles).toBe(1);
    } finally {
      repository.close();
    }
  });

  it('refuses an empty repository with one sentence naming what was skipped', async () => {
    const dir = tempDir();
    const root = join(dir, 'empty');
    put(root, 'logo.png', Buffer.from([0x89, 0x50]));
    put(root, 'node_modules/x/index.js', 'module.exports = 1;\n');
    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    try {
      await expect(repository.refresh()).rejects.toMatchObject({
        code: 'EMPTY_REPOSITORY',
        message: expect.stringMatching(/^No source files to index in .*empty \(skipped: .*1 binary.*\)\.$/),
      });
    } finally {
      repository.close();
    }
  });

  it('shares one run between concurrent refresh() callers', async () => {
    const { repository } = await openFixture();
    try {
      const [a, b] = await Promise.all([repository.refresh(), repository.refresh()]);
      expect(a).toBe(b);
      expect(a.parsed).toBe(N);
    } finally {
      repository.close();
    }
  });

  it('stops at an abort signal with committed batches kept, and the next run continues', async () => {
    const dir = tempDir();
    const root = join(dir, 'many');
    for (let i = 0; i < 40; i++) put(root, `pkg/m${String(i).padStart(2, '0')}.py`, `def f${i}(x):\n    return x + ${i}\n`);
    const store = IndexStore.open(join(dir, 'index.db'));
    try {
      const source = await WorktreeSource.open(root);
      const controller = new AbortController();
      await expect(
        updateIndex(store, source, {
          batchSize: 8,
          onProgress: (p) => {
            if (p.done >= 16) controller.abort();
          },
          signal: controller.signal,
        }),
      ).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/interrupted/) });
      expect(store.getMeta('complete')).toBe('0');
      const kept = store.files().length;
      expect(kept).toBeGreaterThanOrEqual(16);
      expect(kept).toBeLessThan(40);
      const report = await updateIndex(store, source, { batchSize: 8 });
      expect(report.unchanged).toBe(kept);
      expect(report.parsed).toBe(40 - kept);
      expect(store.getMeta('complete')).toBe('1');
    } finally {
      store.close();
    }
  });
});

describe('the report counts what the index holds', () => {
  it('does not count a listed file skipped on reading (binary by content) as indexed, and says it was skipped', async () => {
    const { root, indexPath } = copyIndexFixture();
    put(root, 'inventory/blob.py', 'x = 1\u0000\u0001binary\n');
    const repository = await RepositoryIndex.open(root, { indexPath });
    try {
      const report = await repository.refresh();
      expect(report.listed).toBe(repository.store.files().length);
      expect(report.listed).toBe(FIXTURE_FILES.length);
      expect(report.skipped.binary).toBe(1);
    } finally {
      repository.close();
    }
  });
});
