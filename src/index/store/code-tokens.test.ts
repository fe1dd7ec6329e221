import { describe, expect, it } from 'vitest';
import { codeTokens, codeTokenText, splitIdentifier } from './code-tokens.js';

/** The regex definitions the one-pass scanners replaced: kept as the reference they must equal. */
function referenceSplit(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase());
}

function referenceTokens(text: string): string[] {
  const out: string[] = [];
  for (const [identifier] of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const whole = identifier.replace(/^_+|_+$/g, '').toLowerCase();
    if (whole.length > 1) out.push(whole);
    const parts = referenceSplit(identifier);
    if (parts.length > 1) for (const part of parts) if (part.length > 1) out.push(part);
  }
  return out;
}

/** Deterministic pseudo-random strings over the characters that matter to the boundary rules. */
function* samples(count: number, alphabet: string, maxLength: number): Generator<string> {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * maxLength);
    let text = '';
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
    yield text;
  }
}

describe('splitIdentifier', () => {
  it('splits camelCase, acronyms, snake_case and digits', () => {
    expect(splitIdentifier('parseHTTPResponse2')).toEqual(['parse', 'http', 'response', '2']);
    expect(splitIdentifier('_extract_signature_function')).toEqual(['extract', 'signature', 'function']);
    expect(splitIdentifier('YoutubeDL')).toEqual(['youtube', 'dl']);
    expect(splitIdentifier('HTTP2Response')).toEqual(['http', '2', 'response']);
    expect(splitIdentifier('x')).toEqual(['x']);
  });
  it('equals the regex definition on 20,000 generated identifiers', () => {
    for (const identifier of samples(20_000, 'aBcDXY09_.$-', 12)) expect(splitIdentifier(identifier), identifier).toEqual(referenceSplit(identifier));
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
  it('equals the regex definition on generated text, digits before letters included', () => {
    for (const text of samples(5_000, 'aBzQ_09 .(\n-é', 40)) expect(codeTokens(text), JSON.stringify(text)).toEqual(referenceTokens(text));
  });
});

describe('codeTokenText', () => {
  it('joins the tokens with spaces and stops at the cap', () => {
    const text = 'fetchUserName(user_id); retry()';
    expect(codeTokenText(text)).toBe(codeTokens(text).join(' '));
    expect(codeTokenText(text, 4)).toBe(codeTokens(text).slice(0, 4).join(' '));
    expect(codeTokenText(text, 0)).toBe('');
  });
});
