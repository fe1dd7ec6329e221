import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../budget/token-budget.js';
import { clipLine, enforceBudget, MIN_BUDGET_TOKENS, numberLines, renderBlocks, resolveBudget } from './output-budget.js';

describe('resolveBudget', () => {
  it('prefers the call, then the per-tool server value, then the server default, then the tool default', () => {
    expect(resolveBudget('search', 1500, undefined)).toBe(1500);
    expect(resolveBudget('search', 1500, undefined, { defaultTokens: 900 })).toBe(900);
    expect(resolveBudget('search', 1500, undefined, { defaultTokens: 900, perTool: { search: 700 } })).toBe(700);
    expect(resolveBudget('search', 1500, 400, { defaultTokens: 900, perTool: { search: 700 } })).toBe(400);
  });

  it('clamps to the minimum and to the server cap', () => {
    expect(resolveBudget('x', 1500, 5)).toBe(MIN_BUDGET_TOKENS);
    expect(resolveBudget('x', 1500, 50_000, { maxTokens: 3000 })).toBe(3000);
    expect(resolveBudget('x', 1500, 50_000)).toBe(20_000);
  });
});

describe('clipLine and numberLines', () => {
  it('clips long lines and says by how much', () => {
    expect(clipLine('abc', 5)).toBe('abc');
    expect(clipLine('a'.repeat(10), 4)).toBe('aaaa … [+6 chars]');
  });

  it('numbers lines right-aligned and marks hits', () => {
    expect(numberLines(['x', '', 'y'], 9, 2, new Set([10]))).toEqual(['   9 | x', '> 10 |', '  11 | y']);
  });
});

describe('enforceBudget', () => {
  it('leaves text within budget alone', () => {
    expect(enforceBudget('short', 100)).toBe('short');
  });

  it('cuts text over budget and reports the characters left out', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const cut = enforceBudget(text, 200);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(200);
    expect(cut).toMatch(/\[TRUNCATED\] \d+ characters left out to stay within 200 tokens$/);
  });

  it('cuts a single huge line too', () => {
    const cut = enforceBudget('y'.repeat(100_000), 100);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(100);
    expect(cut).toContain('[TRUNCATED]');
  });
});

describe('renderBlocks', () => {
  const blocks = Array.from({ length: 40 }, (_, i) => [`block ${i}`, `  detail of block ${i} ${'z'.repeat(40)}`]);

  it('keeps everything, with the footer, when it fits', () => {
    const text = renderBlocks(['head'], blocks.slice(0, 2), 1000, { singular: 'hit', plural: 'hits' }, { footer: ['(+3 more)'] });
    expect(text.split('\n')).toEqual(['head', ...blocks[0], ...blocks[1], '(+3 more)']);
  });

  it('keeps a prefix of whole blocks and counts the rest, including items dropped before', () => {
    const text = renderBlocks(['head'], blocks, 200, { singular: 'hit', plural: 'hits' }, { alreadyLeftOut: 5 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    const kept = text.split('\n').filter((l) => l.startsWith('block ')).length;
    expect(kept).toBeGreaterThan(0);
    expect(text.endsWith(`[TRUNCATED] ${40 - kept + 5} hits left out to stay within 200 tokens`)).toBe(true);
  });

  it('counts items per block when blocks hold several', () => {
    const counts = blocks.map(() => 2);
    const text = renderBlocks(['head'], blocks, 200, { singular: 'match', plural: 'matches' }, { counts });
    const kept = text.split('\n').filter((l) => l.startsWith('block ')).length;
    expect(text).toContain(`[TRUNCATED] ${(40 - kept) * 2} matches left out`);
  });
});
