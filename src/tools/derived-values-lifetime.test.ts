import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IndexSnapshot, indexFilesFingerprint, type DerivedKey } from '../index/index.js';
import { variantMap } from '../retrieve/word-variants.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

/**
 * Every value derived from the index is computed once per index state (an
 * edit-free refresh keeps it) and again after any write: counted per key
 * through IndexSnapshot.derive, over a seeded sequence of edits and no-edits.
 */
const WORDS = ['price', 'order', 'cart', 'discount', 'total', 'customer', 'invoice', 'refund'];

/** The values each search, render and repo map must derive, whatever other keys join them. */
const EXPECTED = [
  'chunk rows',
  'files fingerprint',
  'importers',
  'summary folders',
  'word variants',
  'file prior tables (identity)',
  'file graph',
  'indexed paths',
  'path priors',
];

describe('derived values over index states', () => {
  let h: ToolHarness;
  const computes = new Map<string, number>();
  beforeAll(async () => {
    h = await openToolHarness();
    const derive = IndexSnapshot.prototype.derive;
    const counted = function (this: IndexSnapshot, key: DerivedKey<unknown>, compute: (earlier: unknown) => unknown): unknown {
      return derive.call(this, key, (earlier: unknown) => {
        computes.set(key.name, (computes.get(key.name) ?? 0) + 1);
        return compute(earlier);
      });
    };
    vi.spyOn(IndexSnapshot.prototype, 'derive').mockImplementation(counted as IndexSnapshot['derive']);
  });
  afterEach(() => computes.clear());
  afterAll(async () => {
    vi.restoreAllMocks();
    await h.close();
  });

  /**
   * Everything that derives: a search naming a path, rendered with its scaffold; a summarised repo map;
   * word variants (off by default) and the files' fingerprint (a warm update patches the file documents
   * without it) asked for directly.
   */
  async function use(query: string): Promise<void> {
    expect(await h.call('search', { query })).toMatchObject({ isError: false });
    expect(await h.call('repo_map', { budget_tokens: 120 })).toMatchObject({ isError: false });
    const store = h.repositories.select().index.store;
    variantMap(store);
    indexFilesFingerprint(store);
  }

  it('computes each once per state and again after every write', async () => {
    const seed = 20261204;
    const next = mulberry32(seed);
    const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
    await use('order total price discount in shop/pricing.py');
    const keys = [...computes.keys()];
    expect(keys, 'every migrated value is derived').toEqual(expect.arrayContaining(EXPECTED));
    for (const key of keys) expect(computes.get(key), `${key} in the first state`).toBe(1);
    let edits = 0;
    for (let step = 0; step < 8; step++) {
      const edit = next() < 0.5;
      const before = new Map(computes);
      if (edit) {
        edits++;
        mkdirSync(join(h.copy.root, 'shop'), { recursive: true });
        writeFileSync(join(h.copy.root, 'shop', `extra${step % 3}.py`), `def ${pick()}_${step}():\n    return "${pick()} ${pick()}"\n`);
      }
      await h.repositories.select().refresh();
      await use(`${pick()} ${pick()} order total in shop/pricing.py`);
      await use(`${pick()} ${pick()} order total in shop/pricing.py`);
      for (const key of keys) {
        expect(computes.get(key), `seed ${seed}, step ${step} (${edit ? 'edit' : 'no edit'}): ${key}`).toBe(before.get(key)! + (edit ? 1 : 0));
      }
    }
    expect(edits).toBeGreaterThan(0);
    expect(edits).toBeLessThan(8);
  });
});
