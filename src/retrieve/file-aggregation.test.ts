import { describe, expect, it } from 'vitest';
import { aggregateFiles } from './file-aggregation.js';
import type { ChunkHit } from './retrieval-types.js';

const hit = (path: string, score: number, line = 1): ChunkHit => ({
  chunkId: line, path, kind: 'function', symbol: `f${line}`, startLine: line, endLine: line + 1, score,
});

describe('aggregateFiles', () => {
  it('scores a file as alpha*s1 + (1-alpha)*mean(top m)', () => {
    const files = aggregateFiles([hit('a.py', 10, 1), hit('a.py', 6, 2), hit('a.py', 2, 3), hit('a.py', 1, 4), hit('b.py', 9, 5)]);
    // a: 0.5*10 + 0.5*(10+6+2)/3 = 8 ; b: 0.5*9 + 0.5*9 = 9
    expect(files.map((f) => [f.path, f.score])).toEqual([['b.py', 9], ['a.py', 8]]);
    expect(files[1].hits.map((h) => h.score)).toEqual([10, 6, 2, 1]);
  });
  it('uses m = min(3, |C_f|) and only the top chunks', () => {
    const files = aggregateFiles([hit('a.py', 4, 1), hit('a.py', 2, 2), hit('c.py', 1, 3)], { alpha: 0.5, m: 3, topChunks: 2 });
    expect(files).toHaveLength(1);
    expect(files[0].score).toBe(0.5 * 4 + 0.5 * 3);
  });
  it('breaks ties by path', () => {
    const files = aggregateFiles([hit('z.py', 1, 1), hit('a.py', 1, 2)]);
    expect(files.map((f) => f.path)).toEqual(['a.py', 'z.py']);
  });
});
