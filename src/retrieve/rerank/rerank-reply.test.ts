import { describe, expect, it } from 'vitest';
import { parseRanking } from './rerank-reply.js';

const NAMES = ['a.py:f', 'a.py:C.g', 'b.py:h', 'c.py:k'];

describe('parseRanking', () => {
  it('reads RankGPT-style bracketed identifiers', () => {
    expect(parseRanking('[3] > [1] > [4] > [2]', 4)).toMatchObject({ order: [2, 0, 3, 1], ranked: 4, missing: 0, unknown: [], repeated: 0, format: 'bracketed' });
  });

  it('puts missing identifiers after the ranked ones, in input order', () => {
    expect(parseRanking('[4] > [2]', 4)).toMatchObject({ order: [3, 1, 0, 2], ranked: 2, missing: 2 });
  });

  it('ignores and counts unknown identifiers; repeated ones count at their first place', () => {
    const parsed = parseRanking('[2] > [9] > [2] > [0] > [1]', 4);
    expect(parsed.order).toEqual([1, 0, 2, 3]);
    expect(parsed.unknown).toEqual(['[9]', '[0]']);
    expect(parsed.repeated).toBe(1);
  });

  it('reads JSON arrays of numbers, bracketed strings and names', () => {
    expect(parseRanking('```json\n[3, 1, 2, 4]\n```', 4).order).toEqual([2, 0, 1, 3]);
    expect(parseRanking('{"ranking": ["[2]", "[1]"]}', 4)).toMatchObject({ order: [1, 0, 2, 3], format: 'bracketed' });
    expect(parseRanking('["b.py:h", "C.g", "nowhere"]', 4, NAMES)).toMatchObject({ order: [2, 1, 0, 3], unknown: ['"nowhere"'], format: 'json-array' });
  });

  it('reads bare numbers only when the reply is nothing else', () => {
    expect(parseRanking('2 > 4 > 1 > 3', 4)).toMatchObject({ order: [1, 3, 0, 2], format: 'bare-numbers' });
    expect(parseRanking('I looked at 2 files and 3 functions.', 4).format).toBe('none');
  });

  it('reads candidates named by path:qualifiedName in the order written', () => {
    expect(parseRanking('Most relevant is c.py:k, then a.py:f.', 4, NAMES)).toMatchObject({ order: [3, 0, 1, 2], ranked: 2, format: 'names' });
  });

  it('says so when the reply ranks nothing', () => {
    expect(parseRanking('I cannot help with that.', 4, NAMES)).toMatchObject({ order: [0, 1, 2, 3], ranked: 0, missing: 4, format: 'none' });
  });
});
