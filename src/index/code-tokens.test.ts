import { describe, expect, it } from 'vitest';
import { codeTokens, splitIdentifier } from './code-tokens.js';

describe('splitIdentifier', () => {
  it('splits camelCase, acronyms, snake_case and digits', () => {
    expect(splitIdentifier('parseHTTPResponse2')).toEqual(['parse', 'http', 'response', '2']);
    expect(splitIdentifier('_extract_signature_function')).toEqual(['extract', 'signature', 'function']);
    expect(splitIdentifier('YoutubeDL')).toEqual(['youtube', 'dl']);
    expect(splitIdentifier('x')).toEqual(['x']);
  });
});

describe('codeTokens', () => {
  it('keeps whole identifiers and adds their parts', () => {
    expect(codeTokens('def get_user_name(self):')).toEqual(['def', 'get_user_name', 'get', 'user', 'name', 'self']);
  });
  it('splits dotted paths into identifiers and drops one-letter tokens', () => {
    expect(codeTokens('os.path.join(a, b)')).toEqual(['os', 'path', 'join']);
  });
  it('does not emit parts for single-part identifiers', () => {
    expect(codeTokens('retry retry')).toEqual(['retry', 'retry']);
  });
});
