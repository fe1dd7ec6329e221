/**
 * Code-aware tokenization shared by indexing and querying, so both sides agree:
 * identifiers are kept whole (lower-cased) and also split into their camelCase,
 * snake_case, dotted and digit parts.
 */

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * Splits one identifier into lower-cased parts: `parseHTTPResponse2` → parse,
 * http, response, 2; `_load_player` → load, player; any other non-alphanumeric
 * character (`.`, `$`, `-`) separates parts too.
 */
export function splitIdentifier(identifier: string): string[] {
  const parts = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/);
  const out: string[] = [];
  for (const part of parts) if (part) out.push(part.toLowerCase());
  return out;
}

/**
 * Tokens of a text for the index: for each identifier its whole lower-cased
 * form (leading/trailing underscores trimmed) and, when it has several parts,
 * each part. Tokens of one character are dropped. Order is preserved, duplicates kept
 * (term frequency matters to BM25).
 */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    for (const token of identifierTokens(match[0])) out.push(token);
  }
  return out;
}

// Identifiers repeat heavily within and across files; caching their tokens
// makes tokenizing a repository several times faster.
const tokenCache = new Map<string, readonly string[]>();
const TOKEN_CACHE_LIMIT = 200_000;

/** The index tokens of one identifier (whole form, then parts when it has several). */
export function identifierTokens(identifier: string): readonly string[] {
  const cached = tokenCache.get(identifier);
  if (cached) return cached;
  const tokens: string[] = [];
  const whole = identifier.replace(/^_+|_+$/g, '').toLowerCase();
  if (whole.length > 1) tokens.push(whole);
  if (/[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]|[^_]_+[^_]/.test(identifier)) {
    const parts = splitIdentifier(identifier);
    if (parts.length > 1) for (const part of parts) if (part.length > 1) tokens.push(part);
  }
  if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
  tokenCache.set(identifier, tokens);
  return tokens;
}

/** Identifiers of a text with their counts, for compact body fields. */
export function identifierCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(IDENTIFIER)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}
