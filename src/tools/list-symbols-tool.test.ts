import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('list_symbols', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('answers the skeleton with imports, importers and nested symbols', async () => {
    const r = await h.call('list_symbols', { file: 'shop/models.py' });
    expect(r.text).toBe(
      [
        '[FILE] shop/models.py (python, 50 lines)',
        'imports: dataclasses.dataclass, dataclasses.field',
        'imported-by: shop/__init__.py, shop/pricing.py, shop/service.py',
        'class Item [L5-15]  — One line of an order.',
        '  def subtotal(self) -> float [L13-15]  — Price of this line before discounts.',
        "class Order [L18-42]  — A customer's order: items plus an optional discount code.",
        '  def add_item(self, item: Item) -> None [L26-32]  — Adds an item, merging quantities of the same SKU.',
        '  def total(self) -> float [L34-37]  — Sum of all line subtotals, after the discount.',
        '  def _apply_discount(self, amount: float) -> float [L39-42]',
        'def make_order(customer: str, *items: Item) -> Order [L45-50]  — Builds an order from items.',
      ].join('\n'),
    );
    expect(r.data).toMatchObject({ path: 'shop/models.py', language: 'python', symbolsLeftOut: 0, importedBy: ['shop/__init__.py', 'shop/pricing.py', 'shop/service.py'] });
  });

  it('answers every symbol in its machine form unless a budget is asked, and then says how many it left out', async () => {
    const big = Array.from({ length: 120 }, (_, i) => `def handler_${i}(request, response, *args, **kwargs):\n    '''Handles case ${i} of the many request shapes.'''\n    return ${i}\n`).join('\n');
    writeFileSync(join(h.copy.root, 'shop', 'handlers.py'), big);
    const whole = await h.call('list_symbols', { file: 'shop/handlers.py' });
    expect(whole.text).toContain('[TRUNCATED]');
    expect(whole.data).toMatchObject({ symbolsLeftOut: 0 });
    expect((whole.data as { symbols: unknown[] }).symbols).toHaveLength(120);
    const cut = await h.call('list_symbols', { file: 'shop/handlers.py', budget_tokens: 500 });
    const kept = (cut.data as { symbols: unknown[]; symbolsLeftOut: number });
    expect(kept.symbols.length).toBeGreaterThan(0);
    expect(kept.symbols.length + kept.symbolsLeftOut).toBe(120);
    expect(kept.symbolsLeftOut).toBeGreaterThan(0);
  });

  it('works for Go and TypeScript, and for files without a parser', async () => {
    expect((await h.call('list_symbols', { file: 'internal/store/store.go' })).text).toContain('  func (s *Store) Put(order Order) [L30-34]');
    expect((await h.call('list_symbols', { file: './web/src/cart.ts' })).text).toContain('class Cart [L5-29]');
    expect((await h.call('list_symbols', { file: 'go.mod' })).text).toContain('[UNSUPPORTED]');
  });

  it('lists the headings of a Markdown file as its sections', async () => {
    const r = await h.call('list_symbols', { file: 'README.md' });
    expect(r.text).toBe(
      ['[FILE] README.md (markdown, 4 lines)', '# tools-repo [L1-4]  — A tiny multi-language shop used by the reponav tool and MCP tests.'].join('\n'),
    );
    expect(r.data).toMatchObject({ language: 'markdown', symbols: [{ qualifiedName: 'tools-repo', kind: 'section', startLine: 1, endLine: 4 }] });
  });

  it('drops doc lines first under a small budget and says so', async () => {
    const r = await h.call('list_symbols', { file: 'shop/models.py', budget_tokens: 100 });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toMatch(/\[TRUNCATED\] .*left out to stay within 100 tokens$/);
  });
});
