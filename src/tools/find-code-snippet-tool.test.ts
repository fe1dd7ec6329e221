import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { findOccurrences } from './find-code-snippet-tool.js';

describe('findOccurrences', () => {
  it('finds non-overlapping literal occurrences', () => {
    expect(findOccurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(findOccurrences('a.*b a.*b', '.*')).toEqual([1, 6]);
    expect(findOccurrences('abc', '')).toEqual([]);
  });
});

describe('find_code_snippet', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('answers file:line hits with context, merging nearby hits', async () => {
    const r = await h.call('find_code_snippet', { text: 'TAX_RATE' });
    expect(r.text).toBe(
      [
        '2 matches of "TAX_RATE" in 1 file:',
        'shop/pricing.py:4',
        '    3 |',
        '  > 4 | TAX_RATE = 0.08',
        '    5 |',
        'shop/pricing.py:15',
        '    14 |',
        '  > 15 |     def __init__(self, tax_rate: float = TAX_RATE):',
        '    16 |         self.tax_rate = tax_rate',
      ].join('\n'),
    );
    const merged = await h.call('find_code_snippet', { text: 's.mu.', context_lines: 0 });
    expect(merged.text.split('\n').slice(0, 4)).toEqual(['4 matches of "s.mu." in 1 file:', 'internal/store/store.go:31,32', '  > 31 | \ts.mu.Lock()', '  > 32 | \tdefer s.mu.Unlock()']);
  });

  it('is literal (no regex) and case-sensitive, with a hint', async () => {
    expect((await h.call('find_code_snippet', { text: '.*' })).text).toMatch(/^No exact match for ".\*"\./);
    expect((await h.call('find_code_snippet', { text: 'tax_RATE' })).text).toBe(
      'No exact match for "tax_RATE".\nA case-insensitive match exists at shop/pricing.py:4; the search is case-sensitive.',
    );
  });

  it('matches across lines', async () => {
    const r = await h.call('find_code_snippet', { text: 'if !ok {\n\t\treturn Order{}, ErrNotFound', context_lines: 0 });
    expect(r.text.split('\n')).toEqual([
      '1 match of "if !ok {\\n\\t\\treturn Order{}, ErrNotFound" in 1 file:',
      'internal/store/store.go:41',
      '  > 41 | \tif !ok {',
      '  > 42 | \t\treturn Order{}, ErrNotFound',
    ]);
  });

  it('filters by file_pattern and limits with a count of the rest', async () => {
    const all = await h.call('find_code_snippet', { text: 'order' });
    const total = (all.data as { totalMatches: number }).totalMatches;
    const py = await h.call('find_code_snippet', { text: 'order', file_pattern: 'shop/' });
    expect(py.text).not.toMatch(/\.(ts|go):/);
    const limited = await h.call('find_code_snippet', { text: 'order', limit: 2 });
    expect(limited.text.split('\n').pop()).toBe(`(+${total - 2} more matches not shown; raise limit or narrow with file_pattern)`);
  });

  it('cuts to the budget counting the matches left out', async () => {
    const r = await h.call('find_code_snippet', { text: 'e', limit: 200, budget_tokens: 150 });
    expect(r.text.length).toBeLessThanOrEqual(600);
    expect(r.text).toMatch(/\[TRUNCATED\] \d+ matches left out to stay within 150 tokens$/);
  });
});
