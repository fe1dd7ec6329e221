import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-parser.js';
import { createDenseFusion, normalizedScoreFusion, reciprocalRankFusion } from './fusion.js';
import type { ChunkHit } from './retrieval-types.js';
import type { Embedder } from './dense/embedder.js';
import { IndexStore } from '../index/store/index-store.js';

/** A hit for chunk `id` in file `f<id>.py` with `score`. */
function hit(id: number, score: number, path = `f${id}.py`): ChunkHit {
  return { chunkId: id, path, kind: 'function', symbol: `fn${id}`, startLine: 1, endLine: 2, score };
}
const ids = (hits: ChunkHit[]) => hits.map((h) => h.chunkId);

describe('reciprocalRankFusion', () => {
  it('sums 1/(k + rank) over the lists, using ranks only', () => {
    const lexical = [hit(1, 40), hit(2, 30), hit(3, 20)];
    const dense = [hit(3, 0.9), hit(4, 0.8), hit(1, 0.1)];
    const fused = reciprocalRankFusion([lexical, dense]);
    // 1: 1/61 + 1/63; 3: 1/63 + 1/61 (tie: best rank 1 in both, lexical first); 2: 1/62; 4: 1/62 (tie, lexical first).
    expect(ids(fused)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 63, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
    // The fused hit keeps the first list's object fields, with the fused score.
    expect(fused[1]).toEqual({ ...lexical[2], score: fused[1]!.score });
  });

  it('lets a chunk found by both retrievers beat one found by a single retriever at rank 1', () => {
    const fused = reciprocalRankFusion([
      [hit(1, 9), hit(2, 8)],
      [hit(3, 0.9), hit(2, 0.8)],
    ]);
    expect(ids(fused)).toEqual([2, 1, 3]);
  });

  it('honours k and per-list weights', () => {
    const a = [hit(1, 1), hit(2, 1)];
    const b = [hit(2, 1), hit(1, 1)];
    expect(ids(reciprocalRankFusion([a, b], { weights: [1, 3] }))).toEqual([2, 1]);
    expect(reciprocalRankFusion([a], { k: 0 })[0]!.score).toBe(1);
    expect(() => reciprocalRankFusion([a], { k: -1 })).toThrow(RangeError);
    expect(() => reciprocalRankFusion([a, b], { weights: [1] })).toThrow(RangeError);
  });

  it('breaks ties deterministically (best rank, then earlier list, then chunk id) whatever the input order', () => {
    const lexical = [hit(7, 5), hit(5, 4)];
    const dense = [hit(6, 0.5), hit(8, 0.4)];
    expect(ids(reciprocalRankFusion([lexical, dense]))).toEqual([7, 6, 5, 8]);
    // Equal fused scores and equal best ranks: the earlier list wins, independent of chunk ids.
    const twice = reciprocalRankFusion([[hit(9, 1)], [hit(4, 1)], [hit(2, 1)]]);
    expect(ids(twice)).toEqual([9, 4, 2]);
    expect(ids(reciprocalRankFusion([[hit(9, 1)], [hit(4, 1)], [hit(2, 1)]], { weights: [1, 1, 1] }))).toEqual(ids(twice));
  });

  it('counts a chunk repeated within one list once, at its best rank', () => {
    const fused = reciprocalRankFusion([[hit(1, 3), hit(1, 2), hit(2, 1)]]);
    expect(ids(fused)).toEqual([1, 2]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 63, 12);
  });

  it('handles empty lists', () => {
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(ids(reciprocalRankFusion([[], [hit(3, 0.2), hit(1, 0.1)]]))).toEqual([3, 1]);
  });
});

describe('normalizedScoreFusion', () => {
  it('min-max normalises each list and sums the weighted scores; absent means 0', () => {
    const lexical = [hit(1, 30), hit(2, 20), hit(3, 10)]; // → 1, 0.5, 0
    const dense = [hit(3, 0.9), hit(4, 0.5), hit(1, 0.1)]; // → 1, 0.5, 0
    const fused = normalizedScoreFusion([lexical, dense]);
    expect(fused.map((h) => [h.chunkId, h.score])).toEqual([
      [1, 1],
      [3, 1],
      [2, 0.5],
      [4, 0.5],
    ]);
    const denseHeavy = normalizedScoreFusion([lexical, dense], { weights: [0.2, 0.8] });
    expect(ids(denseHeavy)).toEqual([3, 4, 1, 2]);
    expect(denseHeavy[0]!.score).toBeCloseTo(0.8, 12);
  });

  it('maps a list with equal scores (or one hit) to 1', () => {
    const fused = normalizedScoreFusion([[hit(1, 5), hit(2, 5)], [hit(3, 0.3)]]);
    expect(fused.map((h) => [h.chunkId, h.score])).toEqual([
      [1, 1],
      [3, 1],
      [2, 1],
    ]);
  });
});

describe('createDenseFusion', () => {
  const failing: Embedder = {
    id: 'fake:down',
    dimension: null,
    embed: async () => {
      throw new Error('down');
    },
  };
  // An empty index: dense search fails with 'no embeddings yet', which is the failure under test.
  const store = IndexStore.open(':memory:');

  it('validates its options', () => {
    expect(() => createDenseFusion(store, failing, { denseWeight: 1.5 })).toThrow(RangeError);
  });

  it("falls back to the lexical hits with onError: 'lexical' and a warning", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const lexical = [hit(1, 3)];
    const fuse = createDenseFusion(store, failing, { onError: 'lexical', logger });
    expect(await fuse(lexical, parseQuery('q'))).toBe(lexical);
    expect(warnings[0]).toMatch(/dense retrieval failed, using lexical hits only: .*no embeddings yet/);
    await expect(createDenseFusion(store, failing)(lexical, parseQuery('q'))).rejects.toThrow(/no embeddings yet/);
  });
});
