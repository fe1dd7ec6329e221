import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { estimateTokens } from '../budget/token-budget.js';
import { parseFileSpan } from './view-code-tool.js';

describe('parseFileSpan', () => {
  it('reads path:start-end and path:line', () => {
    expect(parseFileSpan('a/b.py:10-20')).toEqual({ path: 'a/b.py', start: 10, end: 20 });
    expect(parseFileSpan('a/b.py:7')).toEqual({ path: 'a/b.py', start: 7, end: 7 });
    expect(parseFileSpan('a/b.py')).toEqual({ path: 'a/b.py' });
    expect(parseFileSpan('C:')).toEqual({ path: 'C:' });
  });
});

describe('view_code', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('shows a Latin-1 file decoded as Latin-1 and says so, never as replacement characters', async () => {
    writeFileSync(join(h.copy.root, 'shop', 'legacy.py'), Buffer.from('# d\xe9j\xe0 vu\nGREETING = "caf\xe9"\n', 'latin1'));
    const r = await h.call('view_code', { file: 'shop/legacy.py' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('1 | # déjà vu');
    expect(r.text).toContain('2 | GREETING = "café"');
    expect(r.text).not.toContain('\uFFFD');
    expect(r.text).toContain('(not UTF-8: shown decoded as Latin-1 / Windows-1252)');
    const symbols = await h.call('list_symbols', { file: 'shop/legacy.py' });
    expect(symbols.isError, symbols.text).toBe(false);
  });

  it('shows a span with numbered lines', async () => {
    const r = await h.call('view_code', { file: 'shop/pricing.py', start: 7, end: 9 });
    expect(r.text).toBe(
      [
        '[FILE] shop/pricing.py (python, 23 lines) lines 7-9',
        '7 | def round_money(amount: float) -> float:',
        '8 |     """Rounds to whole cents, half up."""',
        '9 |     return int(amount * 100 + 0.5) / 100',
      ].join('\n'),
    );
    expect((await h.call('view_code', { file: 'shop/pricing.py:7-9' })).text).toBe(r.text);
  });

  it('names a malformed span after an indexed file instead of calling the file unknown', async () => {
    const r = await h.call('view_code', { file: 'shop/pricing.py:abc' });
    expect(r).toMatchObject({ isError: true, errorCode: 'BAD_INPUT' });
    expect(r.text).toContain("'abc' after shop/pricing.py is not a line span");
    const unknown = await h.call('view_code', { file: 'shop/nothing.py:abc' });
    expect(unknown).toMatchObject({ isError: true, errorCode: 'FILE_NOT_FOUND' });
  });

  it('shows a symbol, naming other matches', async () => {
    const r = await h.call('view_code', { symbol: 'Cart.total' });
    expect(r.text.split('\n')).toEqual([
      '[FILE] web/src/cart.ts (typescript, 29 lines) lines 19-21 — Cart.total (method)',
      '19 |   total(): number {',
      '20 |     return this.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);',
      '21 |   }',
    ]);
    const ambiguous = await h.call('view_code', { symbol: 'total' });
    expect(ambiguous.text.split('\n')[1]).toBe('(other matches: web/src/cart.ts:19-21 Cart.total; pass file to pick one)');
    const inFile = await h.call('view_code', { symbol: 'total', file: 'web/src/cart.ts' });
    expect(inFile.text.split('\n')[0]).toContain('Cart.total (method)');
  });

  it('shows the implementation of a Python function with @overload stubs, listing the stubs as other matches', async () => {
    writeFileSync(
      join(h.copy.root, 'overloads.py'),
      [
        'import typing',
        'from typing import overload',
        '',
        '@overload',
        'def parse_amount(x: int) -> int: ...',
        '@typing.overload',
        'def parse_amount(x: str) -> str: ...',
        'def parse_amount(x):',
        "    '''The implementation.'''",
        '    return x',
        '',
      ].join('\n'),
    );
    const r = await h.call('view_code', { symbol: 'parse_amount' });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('[FILE] overloads.py (python, 10 lines) lines 8-10 — parse_amount (function)');
    expect(lines[1]).toBe('(other matches: overloads.py:4-5 parse_amount; overloads.py:6-7 parse_amount; pass file to pick one)');
    expect(lines.slice(2)).toEqual([' 8 | def parse_amount(x):', " 9 |     '''The implementation.'''", '10 |     return x']);
  });

  it('clamps an end past the file and says so', async () => {
    const r = await h.call('view_code', { file: 'shop/pricing.py', start: 22, end: 100_000 });
    expect(r.text.split('\n')).toEqual([
      '[FILE] shop/pricing.py (python, 23 lines) lines 22-23',
      '(the file ends at line 23)',
      '22 |     def apply_tax(self, amount: float) -> float:',
      '23 |         return amount * (1 + self.tax_rate)',
    ]);
  });

  it('cuts long output to the budget and says where to continue', async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `value_${i} = ${i}  # ${'filler '.repeat(6)}`).join('\n');
    writeFileSync(join(h.copy.root, 'big.py'), body + '\n');
    const r = await h.call('view_code', { file: 'big.py', budget_tokens: 500 });
    expect(estimateTokens(r.text)).toBeLessThanOrEqual(500);
    const last = r.text.split('\n').pop()!;
    const match = /^\[TRUNCATED\] lines (\d+)-3000 left out to stay within 500 tokens; call view_code with start=(\d+) to continue\.$/.exec(last);
    expect(match).not.toBeNull();
    expect(match![1]).toBe(match![2]);
    const next = await h.call('view_code', { file: 'big.py', start: Number(match![2]), end: Number(match![2]) });
    expect(next.text.split('\n')[1]).toContain(`value_${Number(match![2]) - 1} =`);
  });

  it('clips minified lines', async () => {
    writeFileSync(join(h.copy.root, 'min.js'), `var a=${'1+'.repeat(5000)}1;\n`);
    const r = await h.call('view_code', { file: 'min.js' });
    expect(r.text).toMatch(/1 \| var a=1\+1\+.* … \[\+9608 chars\]$/);
  });

  it('answers bad spans and unknown files with actionable errors', async () => {
    expect((await h.call('view_code', { file: 'shop/pricing.py', start: 40 })).text).toBe('start 40 is past the end of shop/pricing.py, which has 23 lines.');
    expect((await h.call('view_code', { file: 'shop/pricing.py', start: 9, end: 3 })).text).toBe('end 3 is before start 9; give end >= start.');
    expect((await h.call('view_code', { file: 'shop/pricing.py', start: 0 })).text).toContain('start: start must be at least 1 (lines are 1-based)');
    expect((await h.call('view_code', {})).text).toBe('Invalid arguments for view_code: give file (a path), symbol (a name), or both.');
    expect((await h.call('view_code', { symbol: 'NoSuchThing' })).text).toBe(
      "No symbol named 'NoSuchThing'. Use list_symbols on the file or find_function / find_class to locate it.",
    );
    const missing = await h.call('view_code', { file: 'shop/pricng.py' });
    expect(missing).toMatchObject({ isError: true, errorCode: 'FILE_NOT_FOUND' });
    expect(missing.text).toContain('Closest indexed paths: shop/pricing.py');
  });
});
