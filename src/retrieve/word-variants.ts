/**
 * Word-form variants of query terms: an issue writes "caches", "caching" or
 * "compressed" where the code says `cache` and `compression`. Each query
 * term is stemmed ({@link lightStem}) and the index tokens with the same stem
 * join the BM25 query at a fraction of the term's weight, so an exact match
 * still ranks first. Off by default: it lost on the LocBench dev splits
 * (docs/retrieval.md), as did the Porter stemmer tried before it. The
 * stem → tokens map is built once per index state from the full-text
 * vocabulary and cached; a query then costs one stem and one map lookup per term. No index change: the variants are
 * index tokens already.
 */
import { derivedKey, indexVocabulary, snapshotOf, termStatistics, type IndexStore, type WeightedToken } from '../index/index.js';

/** Tokens of one index state grouped by stem. */
export interface VariantMap {
  /** Stem → the vocabulary tokens with that stem. */
  byStem: Map<string, string[]>;
}

/** Only plain lower-case words are stemmed: identifiers parts like `v2`, hex and numbers have no word forms. */
const WORD = /^[a-z]{3,}$/;

/** Which query words get variants: every plain word, or only those no chunk holds. */
export type WordVariantScope = 'all' | 'missing';

/** One map per index state (index snapshot): the vocabulary changes with any write. */
const VARIANTS = derivedKey<VariantMap>('word variants');

/**
 * A conservative stem: plural and verb endings (-s, -es, -ies, -ing, -ed) and
 * -ion are cut, a final `e` and a doubled final consonant dropped, so
 * `caches`/`caching`/`cached`/`cache` → `cach` and `compressed`/`compression`
 * → `compress`, while `generic` and `general` stay apart (Porter's stemmer
 * merges them, and `generate`, into `gener`).
 */
export function lightStem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 6 && /[st]ion$/.test(w)) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ss|ll|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The stem → tokens map of `store`'s current index state, built on first use and kept for that state. */
export function variantMap(store: IndexStore): VariantMap {
  return snapshotOf(store).derive(VARIANTS, () => buildVariantMap(store));
}

function buildVariantMap(store: IndexStore): VariantMap {
  const vocabulary = indexVocabulary(store);
  // Every word, even the only one of its stem: the query's form of it may be in no chunk at all.
  const byStem = new Map<string, string[]>();
  for (const token of vocabulary) {
    if (!WORD.test(token)) continue;
    const key = lightStem(token);
    const list = byStem.get(key);
    if (list) list.push(token);
    else byStem.set(key, [token]);
  }
  return { byStem };
}

/**
 * `terms` plus, for each term, the index tokens sharing its stem that the query
 * does not already have, each at `weight` × the term's repeat (the largest
 * when several terms reach one token). `weight` 0 returns `terms` unchanged.
 * `scope` `missing` varies only the words no chunk holds (the form of
 * the word is absent from the code). lexical-retriever.ts then cuts common
 * variants as it cuts common words.
 */
export function withWordVariants(store: IndexStore, terms: WeightedToken[], weight: number, scope: WordVariantScope = 'all'): WeightedToken[] {
  if (weight <= 0 || terms.length === 0) return terms;
  const { byStem } = variantMap(store);
  const present = new Set(terms.map((t) => t.token));
  const documents = scope === 'missing' ? termStatistics(store, terms.map((t) => t.token)).documents : null;
  const added = new Map<string, number>();
  for (const term of terms) {
    if (!WORD.test(term.token) || (documents && documents.get(term.token)! > 0)) continue;
    for (const variant of byStem.get(lightStem(term.token)) ?? []) {
      if (present.has(variant)) continue;
      added.set(variant, Math.max(added.get(variant) ?? 0, weight * term.repeat));
    }
  }
  if (added.size === 0) return terms;
  return [...terms, ...[...added].map(([token, repeat]) => ({ token, repeat }))];
}
