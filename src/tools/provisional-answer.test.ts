import { join } from 'node:path';
import * as z from '../zod-mini.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture } from '../../test/cli/harness.js';
import { searchOutputSchema } from './output-schemas.js';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';

afterAll(cleanupTempDirs);

describe('search while the first index is being built (index-wait elapsed)', () => {
  it('answers from a provisional scan, marked in text and data, then from the index once it is ready', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    const registry = createToolRegistry();
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 0 });
      expect(first.isError).toBe(false);
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      const data = z.strictObject(searchOutputSchema().shape).parse(first.data);
      expect(data.provisional).toBe(true);
      expect(data.provisionalFiles?.[0]?.path).toBe('inventory/stock.py');

      await repositories.select().refresh();
      // The index is ready now; the call's own freshness check may still start a (no-change) refresh on a
      // loaded machine, so it may wait for that instead of racing it with indexWaitMs 0 (seen flaky in a full run).
      const later = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, indexWaitMs: 60_000 });
      expect(later.text).not.toContain('[PROVISIONAL]');
      expect(later.text).toContain('[ANCHORS]');
      expect((later.data as { provisional?: boolean }).provisional).toBeUndefined();
    } finally {
      await repositories.close();
    }
  });

  it('other tools still answer "indexing, call again"', async () => {
    const fixture = copyIndexFixture();
    const repositories = await RepositorySet.open([{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }]);
    try {
      const result = await callTool(createToolRegistry(), 'find_function', { name: 'reserve' }, { repositories, indexWaitMs: 0 });
      expect(result.text).toMatch(/^Indexing repository/);
      await repositories.select().refresh();
    } finally {
      await repositories.close();
    }
  });
});
