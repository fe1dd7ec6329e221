import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../test/cli/harness.js';
import { RepositoryIndex } from '../index/repository-index.js';
import { searchRepository } from './search-repository.js';

afterAll(cleanupTempDirs);

const QUERIES = [
  'file aggregation of chunk hits: the best chunk and the mean of the top three',
  'Traceback (most recent call last):\n  File "src/path-prior.ts", line 12\nError: "no candidate files" when the file pattern selects tests',
  'the title of a multi-line query is searched alone and fused into the ranked files',
  'rank symbols',
];

describe('a warmed index state answers as a cold one', () => {
  it('gives identical search results after RepositoryIndex.warmScoring()', async () => {
    // This folder's own sources: a vocabulary of thousands of tokens, issue-like queries over it.
    const root = join(tempDir('reponav-warmed-search-'), 'repo');
    mkdirSync(join(root, 'src'), { recursive: true });
    for (const name of readdirSync(import.meta.dirname).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      copyFileSync(join(import.meta.dirname, name), join(root, 'src', name));
    }
    const cold = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmed-idx-'), 'cold.db') });
    const warm = await RepositoryIndex.open(root, { indexPath: join(tempDir('reponav-warmed-idx-'), 'warm.db') });
    try {
      await cold.refresh();
      await warm.refresh();
      const report = await warm.warmScoring();
      expect(report.stopped).toBe('done');
      expect(report.terms).toBeGreaterThan(100);
      for (const query of QUERIES) {
        const a = await searchRepository(cold.store, query);
        const b = await searchRepository(warm.store, query);
        expect(a.files.length).toBeGreaterThan(0);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }
    } finally {
      cold.close();
      warm.close();
    }
  });
});
