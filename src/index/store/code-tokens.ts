/**
 * Code-aware tokenization shared by indexing and querying, so both sides agree:
 * identifiers are kept whole (lower-cased) and also split into their camelCase,
 * snake_case, dotted and digit parts.
 */

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function charClass(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
}

/**
 * Splits one identifier into lower-cased parts: `parseHTTPResponse2` → parse,
 * http, response, 2; `_load_player` → load, player; any other non-alphanumeric
 * character (`.`, `$`, `-`) separates parts too. Boundaries: lower or digit
 * before upper (`aB`), the last capital of a capital run before a lower-case
 * letter (`HTTPResponse`), and letters next to digits. One pass over the
 * characters: the indexer splits every distinct identifier of a repository.
 */
export function splitIdentifier(identifier: string): string[] {
  const out: string[] = [];
  const length = identifier.length;
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i < length; i++) {
    const current = charClass(identifier.charCodeAt(i));
    if (current === OTHER) {
      if (start >= 0) out.push(identifier.slice(start, i).toLowerCase());
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      (current === UPPER && previous !== UPPER) ||
      (current === DIGIT && previous !== DIGIT) ||
      (current !== DIGIT && previous === DIGIT)
    ) {
      out.push(identifier.slice(start, i).toLowerCase());
      start = i;
    } else if (current === LOWER && previous === UPPER && i - 2 >= start && charClass(identifier.charCodeAt(i - 2)) === UPPER) {
      out.push(identifier.slice(start, i - 1).toLowerCase());
      start = i - 1;
    }
    previous = current;
  }
  if (start >= 0) out.push(identifier.slice(start).toLowerCase());
  return out;
}

/** True for A-Z, a-z and `_`: the characters an identifier may start with. */
function isIdentifierStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** True for the characters an identifier may continue with (adds 0-9). */
function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

/**
 * Tokens of a text for the index: for each identifier its whole lower-cased
 * form (leading/trailing underscores trimmed) and, when it has several parts,
 * each part. Tokens of one character are dropped. Order is preserved, duplicates kept
 * (term frequency matters to BM25).
 */
export function codeTokens(text: string): string[] {
  const joined = codeTokenText(text);
  return joined === '' ? [] : joined.split(' ');
}

/**
 * `codeTokens(text)` cut to its first `maxTokens` tokens and joined with single
 * spaces: the form the full-text index stores. The hot loop of indexing (every
 * identifier of a repository passes here), so identifiers are scanned by hand
 * (`[A-Za-z_][A-Za-z0-9_]*`; a global regex with match objects cost several
 * times more) and each one's tokens are appended as one cached, pre-joined string.
 */
export function codeTokenText(text: string, maxTokens = Number.POSITIVE_INFINITY): string {
  let out = '';
  let count = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    // Digits cannot start an identifier, but letters after them can (`2fa` → `fa`).
    if (!isIdentifierStart(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    // Most occurrences are plain lower-case words (`self`, `return`, `url`): their
    // one token is the identifier itself, so they skip the cache lookup.
    let plain = true;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 97 && code <= 122) continue;
      if (!isIdentifierPart(code)) break;
      plain = false;
    }
    if (plain) {
      if (i - start < 2) continue;
      if (count >= maxTokens) break;
      const token = text.slice(start, i);
      out = count === 0 ? token : `${out} ${token}`;
      count++;
      continue;
    }
    const entry = tokenEntry(text.slice(start, i));
    if (entry.tokens.length === 0) continue;
    if (count + entry.tokens.length > maxTokens) {
      for (const token of entry.tokens) {
        if (count >= maxTokens) break;
        out = count === 0 ? token : `${out} ${token}`;
        count++;
      }
      break;
    }
    out = count === 0 ? entry.joined : `${out} ${entry.joined}`;
    count += entry.tokens.length;
  }
  return out;
}

// Identifiers repeat heavily within and across files; caching their tokens
// makes tokenizing a repository several times faster. An entry costs ~240 bytes
// of heap: 200,000 entries held ~47 MB in each parse worker on an 11k-file tree,
// 50,000 hold at most ~12 MB and tokenized that tree's files as fast.
const tokenCache = new Map<string, { tokens: readonly string[]; joined: string }>();
const TOKEN_CACHE_LIMIT = 50_000;

/** The index tokens of one identifier (whole form, then parts when it has several). */
export function identifierTokens(identifier: string): readonly string[] {
  return tokenEntry(identifier).tokens;
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. A
 * parsed identifier is a slice of its file's text (tree-sitter's node text), and
 * V8 keeps a slice of 13 or more characters as a pointer into the whole file:
 * kept as a cache key, it would hold every file a worker ever parsed (the
 * worker heaps grew to ~170 MB each on an 11k-file tree). Concatenating and
 * slicing again makes V8 copy the characters into a string of their own.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** An identifier's tokens, and the same joined with spaces, computed once per identifier. */
function tokenEntry(found: string): { tokens: readonly string[]; joined: string } {
  const cached = tokenCache.get(found);
  if (cached) return cached;
  // The entry outlives this file: key and tokens are cut from a copy, never from the file's text.
  const identifier = detached(found);
  const tokens: string[] = [];
  let first = 0;
  let last = identifier.length;
  while (first < last && identifier.charCodeAt(first) === 95) first++;
  while (last > first && identifier.charCodeAt(last - 1) === 95) last--;
  if (last - first > 1) tokens.push(identifier.slice(first, last).toLowerCase());
  const parts = splitIdentifier(identifier);
  if (parts.length > 1) for (const part of parts) if (part.length > 1) tokens.push(part);
  const entry = { tokens, joined: tokens.join(' ') };
  if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
  tokenCache.set(identifier, entry);
  return entry;
}
