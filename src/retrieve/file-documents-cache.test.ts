import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { fileDocumentIndex, type FileDocumentIndex } from './file-documents.js';

const fixtures = fixtureRepositories('file-documents-cache');
afterAll(() => fixtures.cleanUp());

const plain = (index: FileDocumentIndex) => ({ paths: index.paths, lengths: [...index.lengths], averageLength: index.averageLength, postings: [...index.postings.entries()].map(([token, list]) => [token, [...list.files], [...list.counts]]) });

describe('file-level documents cached beside the index', () => {
  it('a second process reads the stored index back, equal to a fresh build; an index change makes it stale', async () => {
    const repository = await fixtures.indexed({
      'shop/cart.py': 'class Cart:\n    def add_item(self, item):\n        pass\n',
      'shop/pricing.py': 'def round_money(amount):\n    return amount\n',
    });
    const built = fileDocumentIndex(repository.store, 'identity');
    const indexPath = repository.store.path;
    const cacheFile = `${indexPath}.file-identity-v2.cache`;
    expect(existsSync(cacheFile)).toBe(true);
    const root = join(dirname(indexPath), 'repo');

    // Another open of the same index (a new CLI process) reads it, and it holds the same index.
    const second = await RepositoryIndex.open(root, { indexPath });
    await second.refresh();
    const read = fileDocumentIndex(second.store, 'identity');
    expect(plain(read)).toEqual(plain(built));

    // A damaged cache file is a miss: rebuilt, same result, and rewritten.
    writeFileSync(cacheFile, 'not a fingerprint');
    const third = await RepositoryIndex.open(root, { indexPath });
    await third.refresh();
    expect(plain(fileDocumentIndex(third.store, 'identity'))).toEqual(plain(built));
    expect(readdirSync(dirname(indexPath)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // A new file changes the index's files: the stored index is stale and the new file is in the rebuilt one.
    writeFileSync(join(root, 'shop/tax.py'), 'def vat_rate(country):\n    return 0.2\n');
    await third.refresh();
    const fresh = fileDocumentIndex(third.store, 'identity');
    expect(fresh.paths).toContain('shop/tax.py');
    expect(Array.from(fresh.postings.get('vat')?.files ?? [], (f) => fresh.paths[f])).toEqual(['shop/tax.py']);
    const fourth = await RepositoryIndex.open(root, { indexPath });
    await fourth.refresh();
    expect(plain(fileDocumentIndex(fourth.store, 'identity'))).toEqual(plain(fresh));
    for (const r of [repository, second, third, fourth]) r.close();
  });
});
