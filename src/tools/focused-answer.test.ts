import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import * as z from '../zod-mini.js';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { RepositoryIndex } from '../index/index.js';
import { FOCUSED_MIN_FILES, partialLine, type PartialCoverage } from './focused-answer.js';
import { searchOutputSchema } from './output-schemas.js';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';

afterAll(cleanupTempDirs);
afterEach(() => vi.restoreAllMocks());

/** The index fixture, a file that imports one without the query words, and enough other files for a focused first index. */
function largeTree(fillers = FOCUSED_MIN_FILES): { dir: string; root: string; indexPath: string } {
  const fixture = copyIndexFixture();
  put(fixture.root, 'inventory/holds.py', 'from .clock import hold_deadline\n\n\ndef reserve_with_hold(ledger, sku, quantity):\n    """Reserve stock copies until a deadline."""\n    ledger.reserve_items(sku, quantity)\n    return hold_deadline(30)\n');
  put(fixture.root, 'inventory/clock.py', 'def hold_deadline(minutes):\n    return minutes * 60\n');
  for (let i = 0; i < fillers; i++) put(fixture.root, `gen/module_${i}.py`, `def helper_${i}():\n    return ${i}\n`);
  return fixture;
}

const registry = createToolRegistry();

describe('the first search on a never-indexed tree of many files', () => {
  it('indexes the scan’s best files and their imports first, answers with the real scaffold labelled partial, then the whole index equals a cold one', async () => {
    const tree = largeTree();
    const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
    const continued = vi.fn();
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued });
      expect(first.isError).toBe(false);
      const data = z.strictObject(searchOutputSchema().shape).parse(first.data);
      const coverage = data.partialIndex!;
      expect(coverage.complete).toBe(false);
      expect(coverage.totalFiles).toBeGreaterThan(FOCUSED_MIN_FILES);
      expect(coverage.indexedFiles).toBe(coverage.rankedFiles + coverage.neighbourFiles);
      expect(coverage.indexedFiles).toBeLessThan(20);
      expect(first.text.split('\n')[0]).toBe(partialLine('shop', coverage));
      expect(first.text).toMatch(new RegExp(`^\\[PARTIAL INDEX\\] 'shop' is being indexed: this answer covers ${coverage.indexedFiles} of its ${coverage.totalFiles} files`));
      // The real scaffold, not the provisional scan.
      expect(first.text).toContain('[FILE] inventory/stock.py');
      expect(first.text).toContain('[ANCHORS]');
      expect(data.provisional).toBeUndefined();
      expect(data.files?.map((f) => f.path)).toContain('inventory/stock.py');
      expect(continued).toHaveBeenCalledTimes(1);

      // The partial index: the scan's files and what they import (clock.py holds none of the words), no filler, no completion mark.
      const index = repositories.select().index;
      const paths = index.store.filePaths();
      expect(paths).toContain('inventory/holds.py');
      expect(paths).toContain('inventory/clock.py');
      expect(paths.some((p) => p.startsWith('gen/'))).toBe(false);
      expect(index.store.getMeta('indexed')).toBeNull();

      const report = await repositories.select().refresh();
      // Nothing indexed twice: the whole run parses just the files the focused one left.
      expect(report.listed).toBe(coverage.totalFiles);
      expect(report.parsed).toBe(coverage.totalFiles - coverage.indexedFiles);
      const later = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued });
      expect(later.text).not.toContain('[PARTIAL INDEX]');
      expect(later.text).toContain('[ANCHORS]');
      expect((later.data as { partialIndex?: unknown }).partialIndex).toBeUndefined();
      expect(continued).toHaveBeenCalledTimes(1);

      // The same index as a cold build of the same tree.
      const cold = await RepositoryIndex.open(tree.root, { indexPath: join(tree.dir, 'cold', 'i.db') });
      try {
        await cold.refresh();
        expect(index.store.counts()).toEqual(cold.store.counts());
        const rows = (i: RepositoryIndex) => i.store.files().map((f) => [f.path, f.blobId, f.language, f.status]);
        expect(rows(index)).toEqual(rows(cold));
        const links = (i: RepositoryIndex) => i.store.filePaths().map((p) => [p, i.store.importsOf(p), i.store.symbolsOf(p).length]);
        expect(links(index)).toEqual(links(cold));
      } finally {
        cold.close();
      }
    } finally {
      await repositories.close();
    }
  });

  it('answers provisionally, and still starts the whole index, when the focused index fails', async () => {
    const tree = largeTree();
    vi.spyOn(RepositoryIndex.prototype, 'indexFocused').mockRejectedValue(new Error('disk full'));
    const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
    const continued = vi.fn();
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued, logger });
      expect(first.isError).toBe(false);
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      expect(first.text).toContain('[FILE] inventory/stock.py');
      expect((first.data as { provisional?: boolean }).provisional).toBe(true);
      expect(continued).toHaveBeenCalledTimes(1);
      expect(warnings.join('\n')).toMatch(/focused first index of shop failed \(disk full\)/);
    } finally {
      await repositories.close();
    }
  });

  it('answers provisionally when no file holds the query words (nothing to index first)', async () => {
    const tree = largeTree();
    const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
    const continued = vi.fn();
    try {
      const first = await callTool(registry, 'search', { query: 'zebrafish quaternion' }, { repositories, continueFirstIndex: continued });
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      expect(first.text).toContain('No source file contains the query words.');
      expect(continued).toHaveBeenCalledTimes(1);
    } finally {
      await repositories.close();
    }
  });

  it('is used on a tree of far fewer than 300 files, and on a few large files: whenever the focused index leaves files out', async () => {
    const fewLargeFiles = largeTree(0);
    // More bytes than the focused index's seeds may take (DEFAULT_FOCUS_BUDGET.maxSeedBytes), in 15 files.
    for (let i = 0; i < 4; i++) put(fewLargeFiles.root, `big/table_${i}.py`, `ROWS_${i} = [\n${'    (1, 2, 3),\n'.repeat(12_000)}]\n`);
    for (const tree of [largeTree(120), fewLargeFiles]) {
      const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
      const continued = vi.fn();
      try {
        const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued });
        expect(first.isError).toBe(false);
        const coverage = (first.data as { partialIndex?: PartialCoverage }).partialIndex;
        expect(coverage, first.text.slice(0, 200)).toBeDefined();
        expect(coverage!.totalFiles).toBeLessThan(300);
        expect(coverage!.indexedFiles).toBeLessThan(coverage!.totalFiles);
        expect(first.text).toContain('[FILE] inventory/stock.py');
        expect(continued).toHaveBeenCalledTimes(1);
      } finally {
        await repositories.close();
      }
    }
  });

  it('is not used on a smaller tree (indexed whole first), nor when the context turns it off', async () => {
    for (const [fillers, focusedFirstIndex] of [
      [FOCUSED_MIN_FILES - 20, undefined],
      [FOCUSED_MIN_FILES, false],
    ] as const) {
      const tree = largeTree(fillers);
      const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
      const continued = vi.fn();
      try {
        const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued, focusedFirstIndex });
        expect(first.text).not.toMatch(/PARTIAL INDEX|PROVISIONAL/);
        expect(first.text).toContain('[ANCHORS]');
        expect(continued).not.toHaveBeenCalled();
        expect(repositories.select().index.store.getMeta('indexed')).not.toBeNull();
      } finally {
        await repositories.close();
      }
    }
  });
});
