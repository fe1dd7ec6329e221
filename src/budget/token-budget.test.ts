import { describe, expect, it } from 'vitest';
import { estimateTokens, fitUnits, LineAccumulator, lineCost, truncationLine } from './token-budget.js';

describe('estimateTokens', () => {
  it('counts pieces (a word per 5 letters, 1-3 digits, a punctuation run per 2 characters, a non-ASCII character) times 1.3', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abc')).toBe(2); // 1 piece
    expect(estimateTokens('abcdef')).toBe(3); // 2
    expect(estimateTokens('getUserName')).toBe(4); // get, User, Name
    expect(estimateTokens('1234567')).toBe(4); // 123, 456, 7
    expect(estimateTokens('a, b')).toBe(4); // a , b
    expect(estimateTokens('日本')).toBe(3); // 2
    expect(estimateTokens('x = 1')).toBe(4); // x = 1
  });

  it('summed line costs never underestimate the joined text', () => {
    const lines = ['a', 'bb ', ' ccc', '    dddd', 'eeeee  ', '', '  ', '12 | x)', '→ é'];
    const summed = lines.reduce((n, l) => n + lineCost(l), 0);
    expect(summed).toBeGreaterThanOrEqual(estimateTokens(lines.join('\n')));
  });
});

describe('LineAccumulator', () => {
  it('stop mode refuses every unit after the first misfit', () => {
    const acc = new LineAccumulator(7, 'stop');
    expect(acc.offer(['12345678901'])).toBe(true); // 4 pieces and its newline: ceil(5 x 1.3) = 7 tokens
    expect(acc.offer(['x'.repeat(40)])).toBe(false);
    expect(acc.offer([''])).toBe(false);
    expect(acc.unitsLeftOut).toBe(2);
    expect(acc.lines()).toEqual(['12345678901']);
  });

  it('skip mode lets a smaller later unit in', () => {
    const acc = new LineAccumulator(6, 'skip');
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
