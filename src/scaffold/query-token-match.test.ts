import { describe, expect, it } from 'vitest';
import { inflectionStem, matchQueryTokens, nameForms, normalizeQueryTokens, splitIdentifier } from './query-token-match.js';

describe('splitIdentifier', () => {
  it('splits camelCase, snake_case, acronyms and digits', () => {
    expect(splitIdentifier('parseHTTPResponse2')).toEqual(['parse', 'http', 'response', '2']);
    expect(splitIdentifier('_extract_signature_function')).toEqual(['extract', 'signature', 'function']);
    expect(splitIdentifier('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
  });
});

describe('normalizeQueryTokens', () => {
  it('lower-cases, drops tokens under 3 chars and duplicates, keeps order', () => {
    expect(normalizeQueryTokens(['Player', 'js', 'to', 'player', 'SIG', 'a'])).toEqual(['player', 'sig']);
  });
});

describe('matchQueryTokens', () => {
  const tokens = normalizeQueryTokens(['signature', 'decrypt', 'get', 'load_player', 'loadplayer']);

  it('matches whole parts, not substrings', () => {
    expect(matchQueryTokens('_decrypt_signature', tokens)).toEqual(['signature', 'decrypt']);
    expect(matchQueryTokens('target', tokens)).toEqual([]);
    expect(matchQueryTokens('presignature', tokens)).toEqual([]);
    // A plural is an inflection, not a substring: it matches (see 'inflected query words').
    expect(matchQueryTokens('signatures', tokens)).toEqual(['signature']);
  });

  it('matches the whole name as written and trimmed of underscores', () => {
    expect(matchQueryTokens('_load_player', tokens)).toEqual(['load_player']);
    expect(matchQueryTokens('loadPlayer', tokens)).toEqual(['loadplayer']);
  });

  it('is case-insensitive', () => {
    expect(matchQueryTokens('GetSignature', tokens)).toEqual(['signature', 'get']);
    expect(nameForms('GetSignature').has('getsignature')).toBe(true);
  });
});

describe('inflected query words', () => {
  it('stem to the same form as the identifier part they describe', () => {
    for (const [word, stem] of [
      ['reserving', 'reserv'], ['reserved', 'reserv'], ['reserves', 'reserv'], ['reserve', 'reserv'],
      ['parsing', 'pars'], ['parser', 'pars'], ['caches', 'cach'], ['queries', 'query'], ['getting', 'get'],
      ['processes', 'process'], ['string', 'string'], ['users', 'user'], ['class', 'class'], ['file', 'file'],
    ] as const) {
      expect(inflectionStem(word), word).toBe(stem);
    }
  });
  it('match names by their inflected parts, and still never by substring', () => {
    const tokens = normalizeQueryTokens(['reserving', 'copies', 'parsing', 'string']);
    expect(matchQueryTokens('_try_reserve', tokens)).toEqual(['reserving']);
    expect(matchQueryTokens('parse_config', tokens)).toEqual(['parsing']);
    expect(matchQueryTokens('copy', tokens)).toEqual(['copies']);
    expect(matchQueryTokens('to_str', tokens)).toEqual([]);
    expect(matchQueryTokens('target', normalizeQueryTokens(['get']))).toEqual([]);
  });
});

describe('matchQueryTokens over a long token list', () => {
  it('equals the definition: tokens equal to a name form or sharing its stem, in query order', () => {
    const words = ['reserve', 'reserving', 'queries', 'query', 'getting', 'get', 'http', 'response', 'parse', 'parsed', 'users', 'string', 'cookies', 'cookie', 'load'];
    const tokens = normalizeQueryTokens([...words, ...words.map((w) => `${w}x`), 'reserved', 'loading', 'loaders']);
    const names = ['parseHTTPResponse', 'load_cookies', 'reserveSeat', 'getQuery', '_users_', 'StringLoader', 'cookieJar', 'x'];
    for (const name of names) {
      const forms = nameForms(name);
      const stems = new Set([...forms].map(inflectionStem));
      const expected = tokens.filter((t) => forms.has(t) || stems.has(inflectionStem(t)));
      expect(matchQueryTokens(name, tokens), name).toEqual(expected);
    }
  });
});
