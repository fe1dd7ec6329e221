import { readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { indexConnection } from './store/index-store.js';
import { gitBlobId } from './write/indexer.js';
import { RepositoryIndex } from './repository-index.js';

afterAll(cleanupTempDirs);

const blobIds = (repository: RepositoryIndex): string[] =>
  indexConnection(repository.store).prepare('SELECT blob_id FROM blobs ORDER BY blob_id').pluck().all() as string[];

function edit(root: string, path: string, text: string, seconds: number): void {
  put(root, path, text);
  const later = new Date(Date.now() + seconds * 1000);
  utimesSync(join(root, path), later, later);
}

describe('blob garbage after a refresh', () => {
  it('an edit drops the blob the file held unless another file holds it; only a run that adds or removes paths scans every blob', async () => {
    const { root, indexPath } = copyIndexFixture();
    const repository = await RepositoryIndex.open(root, { indexPath });
    try {
      const twin = readFileSync(join(root, 'inventory/stock.py'), 'utf8');
      put(root, 'inventory/stock_copy.py', twin);
      await repository.refresh();
      const shared = gitBlobId(Buffer.from(twin));
      const pricingBefore = repository.store.file('inventory/pricing.py')!.blobId;
      // A blob no file refers to, as an interrupted older run could leave: only the full pass removes it.
      indexConnection(repository.store).prepare("INSERT INTO blobs(blob_id, text, parsed) VALUES ('0000000000000000000000000000000000000000', '', '{}')").run();

      edit(root, 'inventory/pricing.py', 'def round_cents(x):\n    return round(x, 2)\n', 5);
      edit(root, 'inventory/stock.py', twin + '\n# edited\n', 6);
      expect(await repository.refresh()).toMatchObject({ parsed: 2, deleted: 0 });
      const afterEdit = blobIds(repository);
      expect(afterEdit).not.toContain(pricingBefore);
      expect(afterEdit).toContain(shared); // stock_copy.py still holds it
      expect(afterEdit).toContain(repository.store.file('inventory/pricing.py')!.blobId);
      expect(afterEdit).toContain('0000000000000000000000000000000000000000');

      rmSync(join(root, 'inventory/stock_copy.py'));
      expect(await repository.refresh()).toMatchObject({ deleted: 1 });
      const afterDelete = blobIds(repository);
      expect(afterDelete).not.toContain(shared);
      expect(afterDelete).not.toContain('0000000000000000000000000000000000000000');
      const orphans = indexConnection(repository.store).prepare('SELECT COUNT(*) FROM blobs WHERE blob_id NOT IN (SELECT blob_id FROM files)').pluck().get();
      expect(orphans).toBe(0);
    } finally {
      repository.close();
    }
  });
});
