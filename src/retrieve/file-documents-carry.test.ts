import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { RepositoryIndex } from '../index/repository-index.js';
import { fileDocumentIndex, type FileDocumentIndex, type FileDocumentKind } from './file-documents.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const plain = (index: FileDocumentIndex) => ({ paths: index.paths, lengths: [...index.lengths], averageLength: index.averageLength, postings: [...index.postings.entries()].map(([token, list]) => [token, [...list.files], [...list.counts]]) });
const WORDS = ['cart', 'price', 'money', 'order', 'refund', 'stock', 'invoice', 'tax', 'coupon', 'ship'];

describe('file-level documents in a warm process', () => {
  it('are patched from what the process holds after each edit (no cache file written) and equal a fresh build', async () => {
    const seed = 90210;
    const next = mulberry32(seed);
    const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
    const dir = mkdtempSync(join(tmpdir(), 'reponav-file-doc-carry-'));
    dirs.push(dir);
    const root = join(dir, 'repo');
    mkdirSync(join(root, 'shop'), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `shop/m${i}.py`), `def ${pick()}_${i}():\n    return "${pick()}"\n`);
    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    await repository.refresh();
    const kinds: FileDocumentKind[] = ['identity', 'content'];
    for (const kind of kinds) fileDocumentIndex(repository.store, kind);
    for (let step = 0; step < 12; step++) {
      const i = Math.floor(next() * 24);
      const path = join(root, `shop/m${i}.py`);
      if (next() < 0.2 && existsSync(path)) rmSync(path);
      else writeFileSync(path, `class ${pick()[0]!.toUpperCase()}${pick()}${step}:\n    def ${pick()}_${step}(self):\n        return "${pick()} ${pick()}"\n`);
      await repository.refresh();
      for (const kind of kinds) rmSync(`${repository.store.path}.file-${kind}-v2.cache`, { force: true });
      const fresh = await RepositoryIndex.open(root, { indexPath: join(dir, `fresh-${step}.db`) });
      await fresh.refresh();
      try {
        for (const kind of kinds) {
          const held = fileDocumentIndex(repository.store, kind);
          expect(existsSync(`${repository.store.path}.file-${kind}-v2.cache`), `seed ${seed}, step ${step}, ${kind}: patched in memory`).toBe(false);
          expect(plain(held), `seed ${seed}, step ${step}, ${kind}`).toEqual(plain(fileDocumentIndex(fresh.store, kind)));
        }
      } finally {
        fresh.close();
      }
    }
    repository.close();
  });
});
