import { describe, expect, it } from 'vitest';
import { DEFAULT_FOCUS_BUDGET, filesNamedAfter, focusLeavesFiles, focusNeighbours, focusSeeds, type FocusBudget } from './focused-files.js';

const sizes = new Map<string, number>([
  ['a.py', 100],
  ['b.py', 100],
  ['huge.py', 10_000],
  ['c.py', 100],
  ['d.py', 100],
  ['e.py', 100],
  ['f.py', 100],
  ['g.py', 100],
]);
const sizeOf = (path: string) => sizes.get(path);
const budget: FocusBudget = { maxFiles: 6, maxBytes: 600, maxSeeds: 3, maxSeedBytes: 300 };

describe('focusSeeds', () => {
  it('takes the scan’s files in rank order within the seed budget, passing over a file too large and one not listed', () => {
    expect(focusSeeds(['a.py', 'gone.py', 'huge.py', 'b.py', 'c.py', 'd.py'], sizeOf, budget)).toEqual(['a.py', 'b.py', 'c.py']);
  });

  it('stops at the seed byte budget even with seeds to spare', () => {
    expect(focusSeeds(['a.py', 'b.py', 'c.py'], sizeOf, { ...budget, maxSeeds: 10, maxSeedBytes: 250 })).toEqual(['a.py', 'b.py']);
  });

  it('takes each file once', () => {
    expect(focusSeeds(['a.py', 'a.py', 'b.py'], sizeOf, budget)).toEqual(['a.py', 'b.py']);
  });
});

describe('focusNeighbours', () => {
  it('puts what the best seeds import first, then the scan’s next files, within the budget', () => {
    const imports = new Map([
      ['a.py', ['e.py']],
      ['b.py', ['d.py', 'a.py', 'f.py']],
      ['c.py', ['d.py']],
    ]);
    const input = { seeds: ['a.py', 'b.py', 'c.py'], imports, ranked: ['a.py', 'g.py', 'huge.py'] };
    // e.py: 1 (imported by the best seed); d.py: 1/2 + 1/3; f.py: 1/2; then g.py would fill; 6 files in all, 600 bytes.
    expect(focusNeighbours(input, sizeOf, budget)).toEqual(['e.py', 'd.py', 'f.py']);
    expect(focusNeighbours(input, sizeOf, { ...budget, maxFiles: 10, maxBytes: 900 })).toEqual(['e.py', 'd.py', 'f.py', 'g.py']);
  });

  it('takes nothing that is not listed or does not fit', () => {
    const imports = new Map([['a.py', ['missing.py', 'huge.py', 'b.py']]]);
    expect(focusNeighbours({ seeds: ['a.py'], imports, ranked: [] }, sizeOf, budget)).toEqual(['b.py']);
  });
});

describe('filesNamedAfter', () => {
  it('finds files whose name is a query word, not tests, not short words, any case', () => {
    const paths = ['pkg/retry.py', 'pkg/Retry.ts', 'pkg/retrying.py', 'tests/retry.py', 'pkg/io.py'];
    const isTest = (p: string) => p.startsWith('tests/');
    expect(filesNamedAfter(['RETRY', 'io'], paths, isTest)).toEqual(['pkg/Retry.ts', 'pkg/retry.py']);
  });

  it('leaves out a word that names more than two files', () => {
    const paths = ['a/common.py', 'b/common.py', 'c/common.py', 'a/cookies.py'];
    expect(filesNamedAfter(['common', 'cookies'], paths, () => false)).toEqual(['a/cookies.py']);
  });
});

describe('focusLeavesFiles', () => {
  it('is true exactly when the seeds of a scan ranking every file could not take them all (seeded random trees)', () => {
    const seed = Number(process.env.FOCUS_SEED ?? 45);
    let state = seed;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const budget = { maxFiles: 30, maxBytes: 4000, maxSeeds: 12, maxSeedBytes: 2500 };
    for (let round = 0; round < 500; round++) {
      const count = Math.floor(random() * 20);
      const files = Array.from({ length: count }, (_, i) => ({ path: `f${i}.py`, size: Math.floor(random() * (random() < 0.2 ? 3000 : 300)) }));
      const sizes = new Map(files.map((f) => [f.path, f.size]));
      const takesAll = focusSeeds(files.map((f) => f.path), (p) => sizes.get(p), budget).length === files.length;
      expect(focusLeavesFiles(files, budget), `seed ${seed}, round ${round}: ${JSON.stringify(files)}`).toBe(!takesAll);
    }
  });

  it('with the default budget: more files than seeds, or more bytes than the seeds may take', () => {
    const small = (n: number, size = 100) => Array.from({ length: n }, (_, i) => ({ path: `f${i}`, size }));
    expect(focusLeavesFiles(small(DEFAULT_FOCUS_BUDGET.maxSeeds), DEFAULT_FOCUS_BUDGET)).toBe(false);
    expect(focusLeavesFiles(small(DEFAULT_FOCUS_BUDGET.maxSeeds + 1), DEFAULT_FOCUS_BUDGET)).toBe(true);
    expect(focusLeavesFiles(small(10, 70_000), DEFAULT_FOCUS_BUDGET)).toBe(true);
    expect(focusLeavesFiles([], DEFAULT_FOCUS_BUDGET)).toBe(false);
  });
});
