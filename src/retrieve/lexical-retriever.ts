import { bm25Chunks, bm25ChunksIn, derivedKey, snapshotOf, termStatistics, type ChunkRow, type FieldWeights, type IndexStore, type WeightedToken } from '../index/index.js';
import type { ParsedQuery } from './query-parser.js';
import type { ChunkHit, ChunkKind } from './retrieval-types.js';
import { compareHits } from './hit-order.js';
import { withWordVariants, type WordVariantScope } from './word-variants.js';

/** BM25 weights per chunk field (see index-schema.ts's FTS_FIELDS). */
export type { FieldWeights };

/**
 * Default field weights. Names and signatures are short and precise, so a hit
 * there is worth several body mentions; paths carry module words (`extractor`,
 * `youtube`); bodies carry most of the evidence. Tuned on the dev split (docs/retrieval.md).
 */
export const DEFAULT_FIELD_WEIGHTS: FieldWeights = { path: 2, name: 4, signature: 2, doc: 1, body: 1 };

/** Options of one lexical search. */
export interface LexicalSearchOptions {
  limit: number;
  fieldWeights?: FieldWeights;
  /** At most this many distinct query terms are sent (highest weight first). */
  maxTerms?: number;
  /** Largest repetition of one term (FTS5's bm25 sums over phrases, so repeating a phrase weights it). */
  maxRepeat?: number;
  /** Only chunks of these kinds (default: all). */
  chunkKinds?: ChunkKind[];
  /**
   * Terms found in at least this fraction of the chunks are left out; 1 or more
   * keeps every term. FTS5 clamps the IDF of a term in half the chunks or more
   * to 1e-6, so at 0.5 such terms only broke exact ties, yet they made nearly
   * every chunk a match that BM25 had to score. Only when 16 or more other
   * terms remain: a short query keeps them (they may be all it has). Terms in
   * no chunk are always left out.
   */
  maxDocumentFraction?: number;
  /** Who computes BM25 (the same scores either way); see bm25Chunks. */
  scorer?: 'auto' | 'fts5' | 'postings';
  /** Common terms are left out only when at least this many others remain (default 16; see maxDocumentFraction). */
  minInformativeTerms?: number;
  /** Results of earlier identical searches over the same index; see {@link LexicalMemo}. */
  memo?: LexicalMemo;
  /** Weight of a term's word-form variants relative to the term (word-variants.ts); 0 or absent: none. */
  wordVariantWeight?: number;
  /** Which words get variants (default `all`); see word-variants.ts. */
  wordVariantScope?: WordVariantScope;
}

/** Common terms are left out only when at least this many other terms remain (issue-length queries, the slow ones). */
export const DEFAULT_MIN_INFORMATIVE_TERMS = 16;

/** Query terms sent to BM25 when `maxTerms` is not given (the highest-weighted first; query-parser orders them). */
export const DEFAULT_MAX_TERMS = 96;

/** Default of {@link LexicalSearchOptions.maxDocumentFraction}: exactly the terms FTS5 gives no weight. */
export const DEFAULT_MAX_DOCUMENT_FRACTION = 0.5;

/**
 * Opt-in memo of BM25 results for one index, for callers that run one query
 * under many settings (tuning sweeps): a search whose terms, weights, limit and
 * kinds equal an earlier one's returns that one's hits without SQL. Never
 * used unless passed, so latency figures never measure it. Create one per
 * index state (it does not watch the index for changes).
 */
export class LexicalMemo {
  private readonly entries = new Map<string, ChunkHit[]>();
  /** Memoized hits of `key`, computing them with `run` the first time. */
  get(key: string, run: () => ChunkHit[]): ChunkHit[] {
    let hits = this.entries.get(key);
    if (!hits) this.entries.set(key, (hits = run()));
    return hits.map((hit) => ({ ...hit }));
  }
}

/**
 * BM25 over the chunk FTS table with per-field weights and per-term weights
 * (expressed by repeating a phrase in the OR query). Returns hits best first
 * with positive scores (higher is better).
 */
export function lexicalSearch(store: IndexStore, query: ParsedQuery, options: LexicalSearchOptions): ChunkHit[] {
  const weighted = weightedTerms(store, query, options);
  if (weighted.length === 0) return [];
  const weights = options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS;
  const run = () => chunkHits(store, bm25Chunks(store, weighted, { weights, limit: options.limit, kinds: options.chunkKinds, scorer: options.scorer }));
  return options.memo ? options.memo.get(JSON.stringify([weighted, weights, options.limit, options.chunkKinds ?? null]), run) : run();
}

/**
 * The query of {@link lexicalSearch} restricted to the chunks `ids`: every one
 * of them that matches a sent term, with the score that search gives it (so
 * the two lists rank against each other), best first. `limit`, `chunkKinds`
 * and `memo` of the options do not apply.
 */
export function lexicalSearchIn(store: IndexStore, query: ParsedQuery, options: LexicalSearchOptions, ids: readonly number[]): ChunkHit[] {
  const weighted = weightedTerms(store, query, options);
  if (weighted.length === 0 || ids.length === 0) return [];
  return chunkHits(store, bm25ChunksIn(store, weighted, options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS, ids));
}

/** The terms sent to BM25 with their repeats: the first `maxTerms`, variants, then the common-term cut. */
function weightedTerms(store: IndexStore, query: ParsedQuery, options: LexicalSearchOptions): WeightedToken[] {
  const maxTerms = options.maxTerms ?? DEFAULT_MAX_TERMS;
  const maxRepeat = options.maxRepeat ?? 4;
  const terms = query.terms.slice(0, maxTerms);
  if (terms.length === 0) return [];
  // A term damped below half weight (a word only a pasted log mentions) is left out.
  let weighted = terms
    .map((term) => ({ token: term.token, repeat: Math.min(maxRepeat, Math.round(term.weight)) }))
    .filter((term) => term.repeat > 0);
  // Before the common-term cut, which then treats variants as it treats the query's own words.
  if (options.wordVariantWeight) weighted = withWordVariants(store, weighted, options.wordVariantWeight, options.wordVariantScope);
  const fraction = options.maxDocumentFraction ?? DEFAULT_MAX_DOCUMENT_FRACTION;
  if (fraction < 1) {
    const stats = termStatistics(store, weighted.map((t) => t.token));
    const matching = weighted.filter((t) => stats.documents.get(t.token)! > 0);
    const informative = matching.filter((t) => stats.documents.get(t.token)! < fraction * stats.rows);
    // A short query keeps its common words: they may be all it has, and it is cheap anyway.
    weighted = informative.length >= Math.max(1, options.minInformativeTerms ?? DEFAULT_MIN_INFORMATIVE_TERMS) ? informative : matching;
  }
  return weighted;
}

/**
 * Chunk rows by id, from a per-index-state cache: every search reads the rows
 * of its ~160 hits, mostly the same chunks from query to query, and each read
 * prepared a statement of that many parameters. Same rows as
 * `store.chunksByIds` (a Map in ascending id order; hit order never depends on it).
 */
export function chunkRowsByIds(store: IndexStore, ids: readonly number[]): Map<number, ChunkRow> {
  const rows = snapshotOf(store).derive(CHUNK_ROWS, () => new Map());
  if (rows.size > MAX_CACHED_CHUNK_ROWS) rows.clear();
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length > 0) {
    const read = store.chunksByIds(missing);
    for (const id of missing) rows.set(id, read.get(id) ?? null);
  }
  const out = new Map<number, ChunkRow>();
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const row = rows.get(id);
    if (row) out.set(id, row);
  }
  return out;
}

/** Rows (null: no such chunk) read in one index state, filled as searches ask. */
const CHUNK_ROWS = derivedKey<Map<number, ChunkRow | null>>('chunk rows');
/** Beyond this many cached rows the cache starts afresh (a 12k-file repository has ~10^5 chunks). */
const MAX_CACHED_CHUNK_ROWS = 50_000;

function chunkHits(store: IndexStore, rows: { id: number; score: number }[]): ChunkHit[] {
  const chunks = chunkRowsByIds(store, rows.map((r) => r.id));
  const hits: ChunkHit[] = [];
  for (const row of rows) {
    const chunk = chunks.get(row.id);
    if (!chunk) continue;
    hits.push({
      chunkId: chunk.id,
      path: chunk.path,
      kind: chunk.kind,
      symbol: chunk.symbol,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      score: row.score,
    });
  }
  // SQLite returns equal scores in rowid order, which follows index history.
  return hits.sort(compareHits);
}
