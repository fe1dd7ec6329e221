import { describe, expect, it } from 'vitest';
import { estimateTokens, fitUnits, LineAccumulator, lineCost, truncationLine } from './token-budget.js';

describe('estimateTokens', () => {
  it('is ceil(chars / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('summed line costs never underestimate the joined text', () => {
    const lines = ['a', 'bb', 'ccc', 'dddd', 'eeeee', ''];
    const summed = lines.reduce((n, l) => n + lineCost(l), 0);
    expect(summed).toBeGreaterThanOrEqual(estimateTokens(lines.join('\n')));
  });
});

describe('LineAccumulator', () => {
  it('stop mode refuses every unit after the first misfit', () => {
    const acc = new LineAccumulator(3, 'stop');
    expect(acc.offer(['12345678901'])).toBe(true); // 3 tokens with its newline
    expect(acc.offer(['x'.repeat(40)])).toBe(false);
    expect(acc.offer([''])).toBe(false);
    expect(acc.unitsLeftOut).toBe(2);
    expect(acc.lines()).toEqual(['12345678901']);
  });

  it('skip mode lets a smaller later unit in', () => {
    const acc = new LineAccumulator(4, 'skip');
    expect(acc.offer(['abc'])).toBe(true);
    expect(acc.offer(['x'.repeat(40)])).toBe(false);
    expect(acc.offer(['def'])).toBe(true);
    expect(acc.lines()).toEqual(['abc', 'def']);
  });

  it('pays for a keyed line once', () => {
    const acc = new LineAccumulator(100, 'skip');
    acc.offer([{ key: 'h', text: 'header' }, 'one']);
    acc.offer([{ key: 'h', text: 'header' }, 'two']);
    expect(acc.lines()).toEqual(['header', 'one', 'two']);
    expect(acc.used).toBe(lineCost('header') + lineCost('one') + lineCost('two'));
    expect(acc.has('h')).toBe(true);
  });
});

describe('truncationLine', () => {
  it('names the non-zero counts in one line', () => {
    const parts = [
      { count: 2, singular: 'file', plural: 'files' },
      { count: 5, singular: 'symbol', plural: 'symbols' },
      { count: 0, singular: 'line', plural: 'lines' },
    ];
    expect(truncationLine(parts, 1500)).toBe('[TRUNCATED] 2 files and 5 symbols left out to stay within 1500 tokens');
    expect(truncationLine([{ count: 1, singular: 'hit', plural: 'hits' }], 10)).toBe(
      '[TRUNCATED] 1 hit left out to stay within 10 tokens',
    );
  });
});

describe('fitUnits', () => {
  it('keeps everything when the whole text fits', () => {
    const fit = fitUnits([['a'], ['b']], 10, 'stop', 'cut');
    expect(fit.truncated).toBe(false);
    expect(fit.lines).toEqual(['a', 'b']);
  });

  it('reserves room for the truncation line', () => {
    const units = Array.from({ length: 20 }, (_, i) => [`line number ${i}`]);
    const cut = '[TRUNCATED] 20 lines left out to stay within 30 tokens';
    const fit = fitUnits(units, 30, 'stop', cut);
    expect(fit.truncated).toBe(true);
    expect(estimateTokens([...fit.lines, cut].join('\n'))).toBeLessThanOrEqual(30);
    expect(fit.keptUnits.indexOf(false)).toBe(fit.lines.length);
  });
});
