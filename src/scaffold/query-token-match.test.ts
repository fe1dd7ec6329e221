import { describe, expect, it } from 'vitest';
import { matchQueryTokens, nameForms, normalizeQueryTokens, splitIdentifier } from './query-token-match.js';

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
    expect(matchQueryTokens('signatures', tokens)).toEqual([]);
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
