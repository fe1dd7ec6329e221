import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../index/write/analyze-file.js';
import { IndexStore } from '../../index/store/index-store.js';
import { buildEvidence, spansFromToolData } from './evidence.js';

/** An in-memory index holding one Python file with a 50-line function. */
async function storeWithLongFunction(): Promise<IndexStore> {
  const body = Array.from({ length: 48 }, (_, i) => `    step_${i + 1} = reserve_copies(${i + 1})`).join('\n');
  const text = `def restock(ledger):\n${body}\n    return ledger\n`;
  const bytes = new TextEncoder().encode(text);
  const { parse, rows } = await analyzeFile('shop/stock.py', bytes);
  const store = IndexStore.open(':memory:');
  store.transaction(() => {
    store.putBlob('b1', text, parse);
    store.putFileRows({ path: 'shop/stock.py', blobId: 'b1', size: bytes.length, mtimeMs: null }, rows);
  });
  return store;
}

describe('view_code evidence', () => {
  it('shows the lines of a viewed function that an earlier find did not, instead of nothing', async () => {
    const store = await storeWithLongFunction();
    try {
      const options = { terms: new Set(['restock']), maxItems: 4, excerptLines: 30 };
      const found = buildEvidence(
        'find_function',
        spansFromToolData('find_function', { matches: [{ path: 'shop/stock.py', startLine: 1, endLine: 50, qualifiedName: 'restock' }] }, store, 30),
        store,
        { ...options, seen: [] },
      );
      expect(found.map((e) => [e.startLine, e.excerptEndLine])).toEqual([[1, 30]]);

      const viewData = { path: 'shop/stock.py', start: 1, end: 50, symbol: { qualifiedName: 'restock', kind: 'function' } };
      const viewed = buildEvidence('view_code', spansFromToolData('view_code', viewData, store, 30), store, { ...options, seen: found });
      expect(viewed.map((e) => [e.startLine, e.excerptEndLine, e.symbol])).toEqual([[31, 50, 'restock']]);
      expect(viewed[0]!.excerpt).toContain('50 |     return ledger');
    } finally {
      store.close();
    }
  });
});
