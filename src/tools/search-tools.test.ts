import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { estimateTokens } from '../budget/token-budget.js';

describe('search, snippet_search, semantic_search', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('search answers the RepoNav scaffold', async () => {
    const r = await h.call('search', { query: 'apply tax to the order total' });
    expect(r.isError).toBe(false);
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('[DIR] shop');
    expect(lines[1]).toMatch(/^ {2}\[FILE\] shop\/pricing\.py \(evidence: \d+\)$/);
    expect(r.text).toContain('      - PriceCalculator.apply_tax [L22-23] (method)');
    expect(r.text).toContain('>> Next: run list_symbols on this file to inspect sibling symbols.');
    const data = r.data as { scaffold: { files: Array<{ path: string }> }; functions: Array<{ qualifiedName: string }> };
    expect(data.scaffold.files[0].path).toBe('shop/pricing.py');
    expect(data.functions.length).toBeGreaterThan(0);
  });

  it('is deterministic', async () => {
    const a = await h.call('search', { query: 'checkout order receipt' });
    const b = await h.call('search', { query: 'checkout order receipt' });
    expect(a.text).toBe(b.text);
  });

  it('honours file_pattern, and says when it matches no file', async () => {
    const ts = await h.call('search', { query: 'order total', file_pattern: '*.ts' });
    expect(ts.text).toContain('[FILE] web/src/');
    expect(ts.text).not.toContain('.py');
    const none = await h.call('search', { query: 'order total', file_pattern: '*.rb' });
    expect(none.text).toBe(
      "No candidate files were retrieved for this query.\nNo indexed file matches file_pattern '*.rb'; drop it or try a broader glob such as '*.py' or 'src/'.",
    );
  });

  it('finds documentation: a [DOC] entry when file_pattern selects prose, below the code for an issue, first for a how-to question', async () => {
    const docs = await h.call('search', { query: 'multi-language shop', file_pattern: '*.md' });
    expect(docs.text).toBe('[DOCS]\n  [DOC] README.md:1-4 § tools-repo');
    expect(docs.data).toMatchObject({ files: [], docPlacement: 'equal', docs: [{ path: 'README.md', section: 'tools-repo', startLine: 1, endLine: 4 }] });
    const issue = await h.call('search', { query: 'Order total is wrong\nThe shop web client shows the order total without tax.' });
    const lines = issue.text.split('\n');
    expect(lines.indexOf('[DOCS]')).toBeGreaterThan(lines.findIndex((l) => l.startsWith('  [FILE] ')));
    expect(lines.at(-1)).toBe('  [DOC] README.md:1-4 § tools-repo');
    const howTo = await h.call('search', { query: 'how does the web client talk to the shop' });
    expect(howTo.text.split('\n').slice(0, 2)).toEqual(['[DOCS]', '  [DOC] README.md:1-4 § tools-repo']);
    const snippets = await h.call('snippet_search', { query: 'multi-language shop', file_pattern: '*.md' });
    expect(snippets.text.split('\n')[0]).toBe('README.md:1-4 § tools-repo (doc, ' + snippets.text.split('(doc, ')[1]!.split(')')[0] + ')');
    expect(snippets.text).toContain('3 | A tiny multi-language shop used by the reponav tool and MCP tests.');
  });

  it('cuts documentation before code under a small budget and counts it', async () => {
    const r = await h.call('search', { query: 'Order total is wrong\nThe shop web client shows the order total without tax.', budget_tokens: 100 });
    expect(r.text).not.toContain('[DOC]');
    expect(r.text).toMatch(/\[TRUNCATED\] .*1 doc left out to stay within 100 tokens/);
  });

  it('cuts the scaffold to a small budget with a [TRUNCATED] note', async () => {
    const r = await h.call('search', { query: 'order total tax checkout cart item', budget_tokens: 100 });
    expect(estimateTokens(r.text)).toBeLessThanOrEqual(100);
    expect(r.text).toMatch(/\[TRUNCATED\] .* left out to stay within 100 tokens/);
  });

  it('snippet_search shows the same hits as numbered code', async () => {
    const r = await h.call('snippet_search', { query: 'apply tax to the order total', top_k: 2 });
    expect(r.text.split('\n')[0]).toMatch(/^shop\/pricing\.py:18-20 PriceCalculator\.compute \(\d+\.\d{3}\)$/);
    expect(r.text.split('\n').slice(1, 4)).toEqual([
      '  18 |     def compute(self, order: Order) -> float:',
      '  19 |         """Order total with tax, rounded to cents."""',
      '  20 |         return round_money(self.apply_tax(order.total()))',
    ]);
    expect((r.data as { hits: unknown[] }).hits).toHaveLength(2);
  });

  it('semantic_search lists code units with signatures and docs, no bodies', async () => {
    const r = await h.call('semantic_search', { query: 'where is tax added to the order total', top_k: 3 });
    expect(r.text.split('\n')[0]).toBe('Top 3 code units (lexical BM25 retrieval):');
    expect(r.text).toContain('shop/pricing.py:18-20 PriceCalculator.compute (method, ');
    expect(r.text).toContain('     — Order total with tax, rounded to cents.');
    expect(r.text).not.toContain('round_money(self.apply_tax');
  });

  it('uses the context fuse hook when one is configured', async () => {
    let called = 0;
    const r = await h.call('semantic_search', { query: 'receipt' }, { fuse: (hits) => (called++, hits) });
    expect(called).toBe(1);
    expect(r.text).toContain('fused lexical + dense');
  });

  it('refuses a pathological file_pattern with a clear message', async () => {
    const r = await h.call('search', { query: 'x', file_pattern: '*'.repeat(300) });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toContain('file_pattern is limited to 256 characters');
    const nested = await h.call('snippet_search', { query: 'order', file_pattern: '**/'.repeat(80) + 'a' });
    expect(nested.isError).toBe(false);
  });
});
