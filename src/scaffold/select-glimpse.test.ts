import { describe, expect, it } from 'vitest';
import { sym } from './__fixtures__/scaffold-fixtures.js';
import { selectGlimpse } from './select-glimpse.js';

const names = (g: ReturnType<typeof selectGlimpse>) => g.map((x) => x.symbol.qualifiedName);

describe('selectGlimpse', () => {
  const symbols = [
    sym('Big', 'class', 1, 500),
    sym('Big.a', 'method', 10, 20),
    sym('Big.b', 'method', 30, 40),
    sym('Big.c', 'method', 50, 60),
    sym('Small', 'class', 600, 620),
    sym('helper', 'function', 700, 800),
  ];

  it('puts retrieved symbols first, by hit score', () => {
    const hits = new Map([
      ['Big.c', 3],
      ['Big.b', 9],
    ]);
    expect(names(selectGlimpse(symbols, new Set(), [], hits, 3))).toEqual(['Big.b', 'Big.c', 'Big']);
  });

  it('mixes kinds: at most ceil(limit/2) of one group in the first pass', () => {
    const hits = new Map([
      ['Big.a', 5],
      ['Big.b', 4],
      ['Big.c', 3],
    ]);
    const chosen = selectGlimpse(symbols, new Set(), [], hits, 3);
    expect(names(chosen)).toEqual(['Big.a', 'Big.b', 'Big']);
  });

  it('fills remaining slots when one kind runs out (longer span first)', () => {
    const functionsOnly = [sym('f1', 'function', 1, 2), sym('f2', 'function', 3, 9), sym('f3', 'function', 10, 12)];
    expect(names(selectGlimpse(functionsOnly, new Set(), [], new Map(), 3))).toEqual(['f2', 'f3', 'f1']);
  });

  it('excludes anchors and prefers the anchor container', () => {
    const chosen = selectGlimpse(symbols, new Set(['Small']), [], new Map(), 5);
    expect(names(chosen)).not.toContain('Small');
    expect(chosen).toHaveLength(5);
  });

  it('ranks an anchor container above a bigger unrelated class', () => {
    const chosen = selectGlimpse(symbols, new Set(['helper', 'Big.a']), [], new Map(), 1);
    expect(names(chosen)).toEqual(['Big']);
    const withContainer = [sym('Outer', 'class', 1, 900), sym('Tiny', 'class', 901, 910), sym('Tiny.m', 'method', 902, 905)];
    expect(names(selectGlimpse(withContainer, new Set(['Tiny.m']), [], new Map(), 1))).toEqual(['Tiny']);
  });

  it('returns nothing for a zero limit', () => {
    expect(selectGlimpse(symbols, new Set(), [], new Map(), 0)).toEqual([]);
  });
});
