import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './mulberry32.js';
import { EXPECTED_SECONDS, slowestFirst, type FileToOrder } from './slowest-first-sequencer.js';

const ROOT = join(import.meta.dirname, '..', '..');
const file = (path: string, cachedMs?: number, size?: number): FileToOrder => ({ path, cachedMs, size });

describe('the slowest-first file order', () => {
  it('on a fresh clone starts the listed slow files first, slowest first, then the rest larger first', () => {
    const order = slowestFirst(
      [file('test/small.test.ts', undefined, 10), file('test/b.test.ts', undefined, 500), file('test/slow.test.ts', undefined, 5), file('test/slower.test.ts', undefined, 1)],
      { 'test/slow.test.ts': 10, 'test/slower.test.ts': 30 },
    );
    expect(order.map((f) => f.path)).toEqual(['test/slower.test.ts', 'test/slow.test.ts', 'test/b.test.ts', 'test/small.test.ts']);
  });

  it('prefers this checkout’s last duration over the listed one', () => {
    const order = slowestFirst([file('test/listed.test.ts', 2_000), file('test/other.test.ts', 20_000)], { 'test/listed.test.ts': 60 });
    expect(order.map((f) => f.path)).toEqual(['test/other.test.ts', 'test/listed.test.ts']);
  });

  it('generated sets: a known duration never starts after a shorter or unknown one; the order is a permutation and input-order independent', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = mulberry32(seed);
      const n = 1 + Math.floor(random() * 30);
      const expected: Record<string, number> = {};
      const files = Array.from({ length: n }, (_, i) => {
        const path = `test/f${i}.test.ts`;
        if (random() < 0.3) expected[path] = Math.floor(random() * 100);
        return file(path, random() < 0.3 ? Math.floor(random() * 100_000) : undefined, random() < 0.8 ? Math.floor(random() * 5000) : undefined);
      });
      const order = slowestFirst(files, expected);
      const known = (f: FileToOrder) => f.cachedMs ?? (expected[f.path] === undefined ? undefined : expected[f.path]! * 1000);
      try {
        expect([...order].sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([...files].sort((a, b) => (a.path < b.path ? -1 : 1)));
        for (let i = 1; i < order.length; i++) {
          const [before, after] = [known(order[i - 1]!), known(order[i]!)];
          if (after !== undefined) expect(before !== undefined && before >= after).toBe(true);
          else if (before === undefined) expect(order[i - 1]!.size ?? 0).toBeGreaterThanOrEqual(order[i]!.size ?? 0);
        }
        expect(slowestFirst([...files].reverse(), expected)).toEqual(order);
      } catch (error) {
        throw new Error(`seed ${seed}: ${(error as Error).message}`);
      }
    }
  });

  it('lists only test files that exist', () => {
    const missing = Object.keys(EXPECTED_SECONDS).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });
});
