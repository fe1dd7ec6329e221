import { join } from 'node:path';
import * as z from '../zod-mini.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ReponavError } from '../errors.js';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { holdRefresh } from '../../test/helpers/held-refresh.js';
import { estimateTokens } from '../budget/index.js';
import { renderProvisional } from './provisional-answer.js';
import { searchOutputSchema } from './output-schemas.js';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';

afterAll(cleanupTempDirs);

describe('search while the first index is being built (index-wait elapsed)', () => {
  it('answers from a provisional scan, marked in text and data, then from the index once it is ready', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    const registry = createToolRegistry();
    // Held: a refresh whose steps are all synchronous can beat a 0 ms wait.
    const held = holdRefresh(repositories.select().index);
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 0 });
      expect(first.isError).toBe(false);
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      const data = z.strictObject(searchOutputSchema().shape).parse(first.data);
      expect(data.provisional).toBe(true);
      expect(data.provisionalFiles?.[0]?.path).toBe('inventory/stock.py');

      held.release();
      await repositories.select().refresh();
      // The index is ready now; the call's own freshness check may still start a (no-change) refresh on a
      // loaded machine, so it may wait for that instead of racing it with indexWaitMs 0 (seen flaky in a full run).
      const later = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 60_000 });
      expect(later.text).not.toContain('[PROVISIONAL]');
      expect(later.text).toContain('[ANCHORS]');
      expect((later.data as { provisional?: boolean }).provisional).toBeUndefined();
    } finally {
      held.restore();
      await repositories.close();
    }
  });

  it('keeps the provisional answer within the call budget, with one [TRUNCATED] line', async () => {
    const fixture = copyIndexFixture();
    for (let i = 0; i < 40; i++) put(fixture.root, `gen/reserve_${i}.py`, `def reserve_stock_copies_${i}():\n    # reserve stock copies for order ${i}\n    return ${i}\n`);
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    const held = holdRefresh(repositories.select().index);
    try {
      // The scan's answer itself (the focused first index, which this tree would get, is off).
      const result = await callTool(createToolRegistry(), 'search', { query: 'reserve stock copies', budget_tokens: 100 }, { repositories, indexWaitMs: 0, focusedFirstIndex: false });
      expect(result.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      expect(estimateTokens(result.text)).toBeLessThanOrEqual(100);
      expect(result.text.split('\n').at(-1)).toMatch(/^\[TRUNCATED\] \d+ files left out to stay within 100 tokens$/);
      held.release();
      await repositories.select().refresh();
    } finally {
      held.restore();
      await repositories.close();
    }
  });

  it('renders the scan marked provisional, one block a file, and says when nothing matched', () => {
    const files = [{ path: 'inventory/stock.py', score: 3, matches: 4, terms: ['stock', 'reserve'], line: 12, preview: 'def reserve(self):' }];
    const text = renderProvisional(files, 'shop', 1500);
    expect(text.split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'shop' has no index yet/);
    expect(text).toContain('[FILE] inventory/stock.py (matches: 4; words: stock, reserve)\n    L12: def reserve(self):');
    expect(renderProvisional([], 'shop', 1500)).toContain('No source file contains the query words.');
  });

  it('after a background index that failed (a full disk), says so and why instead of "being built", in search and in other tools', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    const index = repositories.select().index;
    const full = 'The disk holding the index at i.db is full (database or disk is full); free some space and run the command again; the index was left as it is.';
    // Every build fails after the call stopped waiting, as one that fills the disk part-way does.
    const failing = vi.spyOn(index, 'refresh').mockImplementation((options) => {
      options?.onIndexing?.();
      return new Promise((_, reject) => setTimeout(() => reject(new ReponavError('INDEX_UNAVAILABLE', full)), 20));
    });
    const registry = createToolRegistry();
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 0 });
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      await vi.waitFor(() => expect(repositories.select().lastFailure).toBe(full));
      const second = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 0 });
      expect(second.isError).toBe(false);
      expect(second.text.split('\n')[0]).toBe(
        `[PROVISIONAL] 'shop' has no index: the last background index build failed (${full.slice(0, -1)}). These files come from a plain text scan ` +
          'for the query words (no symbols, no scaffold). This call started it again; search again shortly for the full answer.',
      );
      expect(second.text).not.toMatch(/being built/);
      const other = await callTool(registry, 'find_function', { name: 'reserve' }, { repositories, indexWaitMs: 0 });
      expect(other.text).toContain(`The previous indexing run failed (${full.slice(0, -1)}); this call started it again.`);
      await vi.waitFor(() => expect(repositories.select().lastFailure).toBe(full));
    } finally {
      failing.mockRestore();
      await repositories.close();
    }
  });

  it('other tools still answer "indexing, call again"', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    const held = holdRefresh(repositories.select().index);
    try {
      const result = await callTool(createToolRegistry(), 'find_function', { name: 'reserve' }, { repositories, indexWaitMs: 0 });
      expect(result.text).toMatch(/^Indexing repository/);
      held.release();
      await repositories.select().refresh();
    } finally {
      held.restore();
      await repositories.close();
    }
  });
});
