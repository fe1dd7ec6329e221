/**
 * Pseudo-relevance feedback: the names of the first hits (their symbols and
 * file stems) that several of them share, and that the query does not have,
 * are searched as extra terms, and their BM25 score is added to the first
 * pass's. FTS5's BM25 score is a sum over terms, so scoring only the new terms
 * and adding gives the score of the expanded query for every chunk the first
 * pass found, at the cost of a query over a few rare names; a chunk only the
 * new terms find gets their score alone.
 */
import { codeTokens, type IndexStore } from '../index/index.js';
import { compareHits } from './hit-order.js';
import type { LexicalSearchOptions } from './lexical-retriever.js';
import { lexicalSearch } from './lexical-retriever.js';
import type { ParsedQuery, QueryTerm } from './query-parser.js';
import type { ChunkHit } from './retrieval-types.js';
import { STOPWORDS } from './stopwords.js';

/** Settings of one feedback round. */
export interface FeedbackOptions {
  /** How many first hits give names. */
  documents: number;
  /** At most this many new terms. */
  terms: number;
  /** Weight of each new term (a plain query word weighs 1). */
  weight: number;
  /** A name counts only when at least this many of the first hits have it. */
  minDocuments: number;
}

/** The terms a feedback round adds: names shared by `minDocuments` of the first `documents` hits, not in the query, most shared first. */
export function feedbackTerms(hits: readonly ChunkHit[], query: ParsedQuery, options: FeedbackOptions): QueryTerm[] {
  const present = new Set(query.terms.map((t) => t.token));
  const shared = new Map<string, number>();
  for (const hit of hits.slice(0, options.documents)) {
    const stem = hit.path.split('/').pop()!.replace(/\.[^.]+$/, '');
    const names = new Set(codeTokens(`${hit.symbol ?? ''} ${stem}`));
    for (const token of names) {
      if (token.length < 3 || STOPWORDS.has(token) || /^\d+$/.test(token) || present.has(token)) continue;
      shared.set(token, (shared.get(token) ?? 0) + 1);
    }
  }
  return [...shared]
    .filter(([, n]) => n >= options.minDocuments)
    .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, options.terms)
    .map(([token]) => ({ token, weight: options.weight }));
}

/** `hits` with the BM25 score of the feedback terms added (chunks only they match appended), best first. */
export function applyFeedback(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, options: FeedbackOptions, search: LexicalSearchOptions): ChunkHit[] {
  const terms = feedbackTerms(hits, query, options);
  if (terms.length === 0) return hits;
  const extra = lexicalSearch(store, { ...query, terms }, search);
  const byId = new Map(hits.map((hit) => [hit.chunkId, { ...hit }]));
  for (const hit of extra) {
    const known = byId.get(hit.chunkId);
    if (known) known.score += hit.score;
    else byId.set(hit.chunkId, hit);
  }
  return [...byId.values()].sort(compareHits).slice(0, search.limit);
}
