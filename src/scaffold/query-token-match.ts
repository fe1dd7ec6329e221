/**
 * Matching symbol names against query tokens, the test that makes a symbol an
 * anchor. Matching is by whole identifier parts, not substrings: with tokens of
 * three letters a substring test would let `get` match `target` and `set` match
 * `reset`, flooding anchors with noise. The splitting mirrors the indexer's
 * code tokenization (src/index/store/code-tokens.ts) so that a query identifier and a
 * symbol name that the retriever considered equal also match here.
 */
import { splitIdentifier } from '../index/index.js';

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

/** Suffix rules of `inflectionStem`, tried in order; the first that applies wins. */
const INFLECTIONS: ReadonlyArray<readonly [suffix: string, replacement: string]> = [
  ['ies', 'y'], ['ied', 'y'], ['ing', ''], ['ers', ''], ['er', ''], ['es', ''], ['ed', ''], ['s', ''],
];

/**
 * A light English stem for matching words against identifier parts:
 * `reserving`, `reserved`, `reserves` and `reserve` all give `reserv`;
 * `queries` gives `query`; `getting` gives `get`. Words of four letters or
 * fewer are left alone, and no rule may leave fewer than four letters (so
 * `string` does not become `str`, nor `users` `us`). Not a real stemmer: it only
 * has to make a word and the identifier it describes meet.
 */
export function inflectionStem(word: string): string {
  if (word.length <= 4) return word;
  let stem = stems.get(word);
  if (stem !== undefined) return stem;
  stem = computeStem(word);
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  stems.set(word, stem);
  return stem;
}

// Anchor matching stems every query token once per symbol name of the top files
// (hundreds of names × ~100 tokens for an issue text): a cache makes that a lookup.
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

function computeStem(word: string): string {
  let stem = word;
  for (const [suffix, replacement] of INFLECTIONS) {
    if (!stem.endsWith(suffix) || (suffix === 's' && stem.endsWith('ss'))) continue;
    if (stem.length - suffix.length + replacement.length < 4) continue;
    stem = stem.slice(0, stem.length - suffix.length) + replacement;
    break;
  }
  if (stem.length > 4 && stem.endsWith('e')) stem = stem.slice(0, -1);
  if (stem.length >= 4 && /([bdgkmnprt])\1$/.test(stem)) stem = stem.slice(0, -1);
  return stem;
}

/**
 * The distinct normalized query tokens that equal the simple name or one of its
 * parts, or the same word inflected (`reserving` matches `reserve`), in query
 * order. The count of this list is the anchor "overlap". `normalizedTokens`
 * must come from normalizeQueryTokens.
 */
export function matchQueryTokens(simpleName: string, normalizedTokens: readonly string[]): string[] {
  let lookup = lookups.get(normalizedTokens);
  if (!lookup) lookups.set(normalizedTokens, (lookup = tokenLookup(normalizedTokens)));
  // Anchors and glimpse ask about the same names of the same files: each name is matched once per token list.
  const known = lookup.matches.get(simpleName);
  if (known) return [...known];
  const { forms, stems: formStems } = nameKeys(simpleName);
  // The tokens equal to a form or sharing a form's stem, found from the name's few forms, in query order.
  const matched = new Set<number>();
  for (const form of forms) for (const i of lookup.byToken.get(form) ?? []) matched.add(i);
  for (const stem of formStems) for (const i of lookup.byStem.get(stem) ?? []) matched.add(i);
  const tokens = [...matched].sort((a, b) => a - b).map((i) => normalizedTokens[i]!);
  lookup.matches.set(simpleName, tokens);
  return [...tokens];
}

/** A name's forms (nameForms) and their stems, in that order. */
interface NameKeys {
  forms: string[];
  stems: string[];
}

// The top files' symbol names recur from query to query: their forms and stems (a regex, a split and a stem each) are kept.
const nameKeyCache = new Map<string, NameKeys>();
const MAX_CACHED_NAMES = 50_000;

function nameKeys(simpleName: string): NameKeys {
  let keys = nameKeyCache.get(simpleName);
  if (keys) return keys;
  const forms = [...nameForms(simpleName)];
  keys = { forms, stems: forms.map(inflectionStem) };
  if (nameKeyCache.size >= MAX_CACHED_NAMES) nameKeyCache.clear();
  nameKeyCache.set(simpleName, keys);
  return keys;
}

/** Positions of each token and of each token stem in one token list, and the names already matched against it. */
interface TokenLookup {
  byToken: Map<string, number[]>;
  byStem: Map<string, number[]>;
  matches: Map<string, string[]>;
}

function tokenLookup(tokens: readonly string[]): TokenLookup {
  const byToken = new Map<string, number[]>();
  const byStem = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  };
  for (let i = 0; i < tokens.length; i++) {
    add(byToken, tokens[i]!, i);
    add(byStem, inflectionStem(tokens[i]!), i);
  }
  return { byToken, byStem, matches: new Map() };
}

// Callers match one token list against every symbol name of the top files (an
// issue text has hundreds of tokens): it is indexed once per list, and a name
// costs a lookup per form instead of a pass over the tokens.
const lookups = new WeakMap<readonly string[], TokenLookup>();
