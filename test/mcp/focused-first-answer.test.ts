/**
 * A new MCP server's first search on a large never-indexed tree: answered with
 * the real scaffold from a focused partial index (its first line and its
 * structured content say how many of how many files it covers) while the
 * server indexes the rest; the next search is the full answer, and the
 * finished index is the one a cold build makes.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMcpService } from '../../src/mcp-server/mcp-service.js';
import { RepositoryIndex } from '../../src/index/repository-index.js';
import { FOCUSED_MIN_FILES } from '../../src/tools/focused-answer.js';
import { cleanupTempDirs, copyIndexFixture, put } from '../cli/harness.js';
import { call, connectInMemory } from './mcp-client.js';

afterAll(cleanupTempDirs);

describe('MCP: the first search on a never-indexed tree of many files', () => {
  it('is a real scaffold labelled partial with its coverage; the next search is full; the index equals a cold one', async () => {
    const fixture = copyIndexFixture();
    for (let i = 0; i < FOCUSED_MIN_FILES; i++) put(fixture.root, `gen/module_${i}.py`, `def helper_${i}():\n    return ${i}\n`);
    // Structured output on: the envelope carries partialIndex.
    const service = await openMcpService({ repositories: [{ path: fixture.root, indexPath: join(fixture.dir, 'index', 'i.db') }], structured: true });
    const connection = await connectInMemory(service);
    try {
      const first = await call(connection.client, 'search', { query: 'reserve stock copies' });
      expect(first.isError).toBe(false);
      const partial = first.structured?.partialIndex as { indexedFiles: number; totalFiles: number; complete: boolean };
      expect(partial).toMatchObject({ totalFiles: FOCUSED_MIN_FILES + 9, complete: false });
      expect(partial.indexedFiles).toBeLessThan(20);
      expect(first.text.split('\n')[0]).toMatch(
        new RegExp(`^\\[PARTIAL INDEX\\] 'shop' is being indexed: this answer covers ${partial.indexedFiles} of its ${partial.totalFiles} files .*search again shortly for the full answer\\.$`),
      );
      expect(first.text).toContain('[FILE] inventory/stock.py');
      expect(first.text).toContain('[ANCHORS]');
      expect(first.structured?.provisional).toBeUndefined();

      // The server indexes the rest in the background; a refresh now waits for it.
      const handle = service.context.repositories.select();
      await handle.refresh();
      const later = await call(connection.client, 'search', { query: 'reserve stock copies' });
      expect(later.text).not.toMatch(/\[PARTIAL INDEX\]|\[PROVISIONAL\]/);
      expect(later.text).toContain('[ANCHORS]');
      expect(later.structured?.partialIndex).toBeUndefined();
      expect((later.structured?.files as unknown[]).length).toBeGreaterThan(0);

      const cold = await RepositoryIndex.open(fixture.root, { indexPath: join(fixture.dir, 'cold', 'i.db') });
      try {
        await cold.refresh();
        expect(handle.index.store.counts()).toEqual(cold.store.counts());
        expect(handle.index.store.counts().files).toBe(partial.totalFiles);
      } finally {
        cold.close();
      }
    } finally {
      await connection.close();
      await service.close();
    }
  }, 120_000);
});
