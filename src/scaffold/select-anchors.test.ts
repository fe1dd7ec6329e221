import { describe, expect, it } from 'vitest';
import { sym } from './__fixtures__/scaffold-fixtures.js';
import { normalizeQueryTokens } from './query-token-match.js';
import { selectAnchors } from './select-anchors.js';

const tokens = normalizeQueryTokens(['parse', 'config', 'file', 'yaml']);
const names = (symbols: ReturnType<typeof selectAnchors>) => symbols.map((a) => a.symbol.qualifiedName);

describe('selectAnchors', () => {
  it('returns at most 2, ranked by overlap', () => {
    const symbols = [
      sym('parse', 'function', 1, 5),
      sym('parse_config', 'function', 10, 20),
      sym('parse_yaml_config_file', 'function', 30, 90),
      sym('unrelated', 'function', 100, 110),
    ];
    const anchors = selectAnchors(symbols, tokens, new Map());
    expect(names(anchors)).toEqual(['parse_yaml_config_file', 'parse_config']);
    expect(anchors[0].matchedTokens).toEqual(['parse', 'config', 'file', 'yaml']);
  });

  it('prefers methods/functions over classes at equal overlap', () => {
    const symbols = [sym('Config', 'class', 1, 50), sym('Config.load_config', 'method', 5, 40)];
    expect(names(selectAnchors(symbols, tokens, new Map(), 1))).toEqual(['Config.load_config']);
  });

  it('prefers symbols that were retrieval hits, by hit score, on ties', () => {
    const symbols = [sym('read_config', 'function', 1, 3), sym('write_config', 'function', 10, 40), sym('dump_config', 'function', 50, 60)];
    const hits = new Map([
      ['write_config', 2.0],
      ['dump_config', 5.0],
    ]);
    expect(names(selectAnchors(symbols, tokens, hits))).toEqual(['dump_config', 'write_config']);
  });

  it('then prefers the shorter span, then the earlier line', () => {
    const symbols = [sym('a_config', 'function', 1, 40), sym('b_config', 'function', 50, 55), sym('c_config', 'function', 60, 65)];
    expect(names(selectAnchors(symbols, tokens, new Map()))).toEqual(['b_config', 'c_config']);
  });

  it('keeps one entry per qualified name (overloads)', () => {
    const symbols = [sym('parse', 'function', 1, 5), sym('parse', 'function', 7, 9), sym('Config', 'class', 10, 20)];
    expect(names(selectAnchors(symbols, tokens, new Map()))).toEqual(['parse', 'Config']);
  });

  it('is empty without usable query tokens', () => {
    expect(selectAnchors([sym('go', 'function', 1, 2)], normalizeQueryTokens(['go', 'do']), new Map())).toEqual([]);
  });
});
