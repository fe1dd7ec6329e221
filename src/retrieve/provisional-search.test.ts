import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { provisionalSearch, renderProvisional } from './provisional-search.js';

afterAll(cleanupTempDirs);

describe('provisionalSearch', () => {
  it('ranks source files by the query words, ripgrep and the in-process scan alike, and says it is provisional', async () => {
    const { root } = copyIndexFixture();
    put(root, 'node_modules/lib/restock.py', 'def restock_restock_restock(): pass\n');
    put(root, 'notes.md', 'restock restock restock restock\n');
    const query = 'restock the stock ledger when a reservation fails';
    const withRg = await provisionalSearch(root, query);
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    let withoutRg;
    try {
      withoutRg = await provisionalSearch(root, query);
    } finally {
      process.env.PATH = path;
    }
    expect(withoutRg.scanner).toBe('node');
    expect(withRg.files.map((f) => f.path)).toEqual(withoutRg.files.map((f) => f.path));
    expect(withRg.files[0]?.path).toBe('inventory/stock.py');
    // Vendored folders and files search does not cover (prose) stay out.
    const paths = withRg.files.map((f) => f.path);
    expect(paths).not.toContain('node_modules/lib/restock.py');
    expect(paths).not.toContain('notes.md');
    expect(withRg.files[0].line).toBeGreaterThan(0);
    const text = renderProvisional(withRg, 'shop');
    expect(text.split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'shop' has no index yet/);
    expect(text).toContain('[FILE] inventory/stock.py');
  });

  it('honours a path filter and answers an empty list for words found nowhere', async () => {
    const { root } = copyIndexFixture();
    const filtered = await provisionalSearch(root, 'stock cart', { pathFilter: (p) => p.startsWith('web/') });
    expect(filtered.files.length).toBeGreaterThan(0);
    expect(filtered.files.every((f) => f.path.startsWith('web/'))).toBe(true);
    const none = await provisionalSearch(root, 'zzqqxxnothinglikethis');
    expect(none.files).toEqual([]);
    expect(renderProvisional(none, 'shop')).toContain('No source file contains the query words.');
  });
});
