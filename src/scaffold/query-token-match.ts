/**
 * Matching symbol names against query tokens, the test that makes a symbol an
 * anchor. Matching is by whole identifier parts, not substrings: with tokens of
 * three letters a substring test would let `get` match `target` and `set` match
 * `reset`, flooding anchors with noise. The splitting mirrors the indexer's
 * code tokenization (src/index/code-tokens.ts) so that a query identifier and a
 * symbol name that the retriever considered equal also match here.
 */
import { splitIdentifier } from '../index/code-tokens.js';

/** Query tokens shorter than this are ignored (`a`, `to`, `id` match too much). */
export const MIN_QUERY_TOKEN_LENGTH = 3;

export { splitIdentifier };

/**
 * The query tokens usable for matching: lower-cased, at least MIN_QUERY_TOKEN_LENGTH
 * characters, de-duplicated, in first-seen order (the order matched tokens are reported in).
 */
export function normalizeQueryTokens(tokens: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tokens) {
    const token = raw.toLowerCase();
    if (token.length < MIN_QUERY_TOKEN_LENGTH || seen.has(token)) continue;
    seen.add(token);
    out.push(token);
  }
  return out;
}

/**
 * Every form of a simple name a query token may equal: the whole name
 * lower-cased (as written, and with leading/trailing `_`/`$` trimmed, since the
 * indexer trims them) and each camelCase / snake_case / digit part.
 */
export function nameForms(simpleName: string): Set<string> {
  const forms = new Set<string>();
  const lower = simpleName.toLowerCase();
  forms.add(lower);
  forms.add(lower.replace(/^[_$]+|[_$]+$/g, ''));
  for (const part of splitIdentifier(simpleName)) forms.add(part);
  forms.delete('');
  return forms;
}

/**
 * The distinct normalized query tokens that equal the simple name or one of its
 * parts, in query order. The count of this list is the anchor "overlap".
 * `normalizedTokens` must come from normalizeQueryTokens.
 */
export function matchQueryTokens(simpleName: string, normalizedTokens: readonly string[]): string[] {
  const forms = nameForms(simpleName);
  return normalizedTokens.filter((token) => forms.has(token));
}
