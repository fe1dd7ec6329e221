import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { mulberry32 as random } from '../../../test/helpers/mulberry32.js';
import { bm25Chunks, type ChunkScore, type WeightedToken } from './chunk-queries.js';
import { kthLargest } from './kth-largest.js';
import { RepositoryIndex } from '../repository-index.js';

afterAll(cleanupTempDirs);

/** Words with a skewed frequency (word i about 1/(i+1) as often as word 0), as in code: a few everywhere, most rare. */
const WORDS = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`);
function word(next: () => number): string {
  return WORDS[Math.min(WORDS.length - 1, Math.floor(Math.exp(next() * Math.log(WORDS.length + 1)) - 1))]!;
}

let repository: RepositoryIndex;

beforeAll(async () => {
  // ~9,000 chunks: more than one of exact-bm25.ts' 4,096-slot blocks, so a query's postings span several.
  const dir = tempDir('reponav-exact-bm25-');
  const root = join(dir, 'repo');
  mkdirSync(join(root, 'pkg'), { recursive: true });
  const next = random(7);
  for (let f = 0; f < 9; f++) {
    const functions: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const body = Array.from({ length: 1 + Math.floor(next() * 12) }, () => word(next)).join(' + ');
      functions.push(`def f${f}_${i}_${word(next)}(x):\n    return ${body}\n`);
    }
    writeFileSync(join(root, 'pkg', `m${f}.py`), functions.join('\n'));
  }
  repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
  await repository.refresh();
  return () => repository.close();
}, 120_000);

function inTieOrder(scores: ChunkScore[]): ChunkScore[] {
  return [...scores].sort((a, b) => b.score - a.score || a.id - b.id);
}

describe('exact BM25 on an index of several blocks', () => {
  it('returns what FTS5 returns, to the bit, for sparse and dense queries, kinds and limits', () => {
    const next = random(11);
    let compared = 0;
    for (let q = 0; q < 20; q++) {
      // 1–2 terms of rare words take the list path; long queries of common words the block path.
      const size = [1, 2, 8, 30, 90][q % 5]!;
      const terms: WeightedToken[] = Array.from({ length: size }, () => ({ token: word(next), repeat: 1 + Math.floor(next() * 4) }));
      for (const kinds of [undefined, ['function' as const]]) {
        for (const limit of [7, 160, 100_000]) {
          const options = { weights: { path: 2, name: 4, signature: 2, doc: 1, body: 1 }, kinds, limit };
          const fts5 = inTieOrder(bm25Chunks(repository.store, terms, { ...options, scorer: 'fts5' }));
          const postings = inTieOrder(bm25Chunks(repository.store, terms, { ...options, scorer: 'postings' }));
          expect(postings, JSON.stringify({ terms, kinds, limit })).toEqual(fts5);
          compared += fts5.length;
        }
      }
    }
    // Most chunks matched by the long queries at the unlimited cut: the blocks were crossed.
    expect(compared).toBeGreaterThan(50_000);
  });
});

describe('kthLargest', () => {
  it('is the k-th value of the descending order, ties counted each, the input unchanged', () => {
    const next = random(5);
    for (const n of [1, 2, 10, 1000]) {
      // Few distinct values: ties everywhere.
      const values = Float64Array.from({ length: n }, () => Math.floor(next() * 20) / 4);
      const copy = Float64Array.from(values);
      const sorted = [...values].sort((a, b) => b - a);
      for (const k of [1, 2, Math.ceil(n / 3), n].filter((k) => k <= n)) expect(kthLargest(values, k)).toBe(sorted[k - 1]);
      expect(values).toEqual(copy);
    }
    // Large arrays take the sampled bound: random, rising, and one where the bound is too high (then all values decide).
    for (const values of [Float64Array.from({ length: 20_000 }, () => Math.floor(next() * 50)), Float64Array.from({ length: 20_000 }, (_, i) => i + next())]) {
      const sorted = [...values].sort((a, b) => b - a);
      for (const k of [1, 5, 9, 160, 2500]) expect(kthLargest(values, k)).toBe(sorted[k - 1]);
    }
    const sparse = new Float64Array(8192);
    [sparse[0], sparse[4], sparse[8]] = [10, 9, 8];
    expect(kthLargest(sparse, 3)).toBe(8);
    expect(kthLargest(sparse, 4)).toBe(0);
    expect(kthLargest([5, 1, 4, 9], 2, 3)).toBe(4);
    expect(() => kthLargest([1, 2], 3)).toThrow(RangeError);
  });
});
