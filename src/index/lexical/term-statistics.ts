/**
 * Corpus statistics of the chunk full-text table: how many chunks there are
 * and in how many of them a token occurs (its document frequency, the n of
 * BM25's IDF). Read through FTS5's own vocabulary view, so they are exactly
 * the figures FTS5's bm25() uses, and cached per index generation: an issue
 * text sends ~100 terms, and issues of one repository share most of them.
 */
import type Database from 'better-sqlite3';
import { indexGeneration } from '../store/index.js';
import { fullTextLogBetween, indexConnection, startFullTextLog, type IndexStore } from '../store/index.js';
import { rowVocabularyView } from './fts-views.js';
import { readAverages } from './fts-records.js';

/** Corpus statistics for some tokens. */
export interface TermStatistics {
  /** Rows of the full-text table (FTS5's N). */
  rows: number;
  /** Chunks containing each asked token (0 when none does). */
  documents: Map<string, number>;
}

interface CacheEntry {
  generation: string;
  rows: number;
  /** Read on demand; dropped wholesale past MAX_CACHED_TERMS. */
  documents: Map<string, number>;
  /**
   * Primed by the warm-up for the state's life: a large tree's vocabulary is
   * over MAX_CACHED_TERMS, so a primed cache filled to the bound was dropped
   * by the first search that added a term, and every later text read its
   * terms' frequencies again.
   */
  primed: Map<string, number>;
}

/** On-demand entries above this are dropped wholesale (a long-lived server meets many queries; a repository's vocabulary is ~10^5 tokens). */
const MAX_CACHED_TERMS = 50_000;
/** Primed entries kept at most (~80 bytes each: a 50k-file tree's vocabulary fits). */
const MAX_PRIMED_TERMS = 400_000;
const caches = new WeakMap<Database.Database, CacheEntry>();
const lookups = new WeakMap<Database.Database, { documents: Database.Statement }>();

function statements(db: Database.Database) {
  let prepared = lookups.get(db);
  if (!prepared) {
    rowVocabularyView(db);
    prepared = {
      documents: db.prepare('SELECT doc FROM temp.chunks_fts_vocab WHERE term = ?').pluck(),
    };
    lookups.set(db, prepared);
  }
  return prepared;
}

/**
 * This connection's cache of the index state `generation`, made anew when it
 * holds another state (or, `resetWhenFull`, is over its bound). When only this
 * connection's logged full-text writes lie between the state it holds and
 * `generation` (full-text-changes.ts), the frequencies of every token those
 * rows do not hold are the same and move over.
 */
function cacheOf(db: Database.Database, generation: string, resetWhenFull: boolean): CacheEntry {
  let cache = caches.get(db);
  if (!cache || cache.generation !== generation) {
    const log = cache && fullTextLogBetween(db, 'term-statistics', cache.generation, generation);
    // FTS5's N from its averages record: what count(*) counts, without walking the table.
    const { rows } = readAverages(db);
    if (cache && log) {
      for (const token of log.tokens) {
        cache.documents.delete(token);
        cache.primed.delete(token);
      }
      cache = { generation, rows, documents: cache.documents, primed: cache.primed };
    } else cache = { generation, rows, documents: new Map(), primed: new Map() };
    caches.set(db, cache);
    startFullTextLog(db, 'term-statistics', generation);
  } else if (resetWhenFull && cache.documents.size > MAX_CACHED_TERMS) cache.documents = new Map();
  return cache;
}

/**
 * Stores known document frequencies in this index state's cache (scoring-warmup.ts reads them for many terms in one
 * pass over FTS5's vocabulary), kept for the state's life; a cache of another state is replaced first, and entries past
 * TERM_STATISTICS_BOUND are left out.
 */
export function primeTermStatistics(store: IndexStore, generation: string, documents: ReadonlyArray<readonly [string, number]>): void {
  const cache = cacheOf(indexConnection(store), generation, false);
  for (const [token, n] of documents) {
    if (cache.primed.size >= MAX_PRIMED_TERMS) break;
    cache.primed.set(token, n);
  }
}

/** Terms read per step by {@link vocabularyInSteps}: ~3-6 ms of FTS5's vocabulary walk on an 11k-file tree. */
const VOCABULARY_PAGE = 2_000;

/** A vocabulary row: the term, the chunks holding it, its occurrences. */
export type VocabularyRow = [term: string, documents: number, occurrences: number];

/**
 * Every term of the index state with its document and occurrence counts, in
 * term order (FTS5's own, bytewise), read in pages with `between()` awaited
 * after each, so a caller in idle time lets queries run between them instead
 * of blocking for the whole walk (~0.4 s on an 11k-file tree). Null when
 * `between()` resolves false (stop: aborted, or the index changed).
 */
export async function vocabularyInSteps(store: IndexStore, between: () => Promise<boolean>, pageSize = VOCABULARY_PAGE): Promise<VocabularyRow[] | null> {
  const db = indexConnection(store);
  const page = db.prepare(`SELECT term, doc, cnt FROM ${rowVocabularyView(db)} WHERE term > ? ORDER BY term LIMIT ?`).raw();
  const rows: VocabularyRow[] = [];
  for (let after = ''; ; ) {
    const read = page.all(after, pageSize) as VocabularyRow[];
    if (read.length === 0) return rows;
    for (const row of read) rows.push(row);
    after = read[read.length - 1]![0];
    if (!(await between())) return null;
  }
}

/**
 * The terms of {@link vocabularyInSteps}' rows held by at least `minDocuments`
 * chunks, most frequent first: by document frequency, each bucket in term
 * order, concatenated from the most frequent, which is FTS5's vocabulary
 * `ORDER BY doc DESC, term` without a sort.
 */
export function byFrequency(rows: readonly VocabularyRow[], minDocuments: number): Array<[string, number]> {
  const buckets = new Map<number, Array<[string, number]>>();
  for (const [term, documents] of rows) {
    if (documents < minDocuments) continue;
    const bucket = buckets.get(documents);
    if (bucket) bucket.push([term, documents]);
    else buckets.set(documents, [[term, documents]]);
  }
  return [...buckets.keys()].sort((a, b) => b - a).flatMap((documents) => buckets.get(documents)!);
}

/** The most terms primeTermStatistics keeps (beside the on-demand cache, which never drops them). */
export const TERM_STATISTICS_BOUND = MAX_PRIMED_TERMS;

/**
 * The number of full-text rows and the document frequency of each token
 * (index tokens: lower-case ASCII identifier parts). A cold token costs one
 * walk of its posting list (~0.1 ms for a rare one, ~0.5 ms for one in most
 * chunks on a 10k-chunk index); a cached one nothing.
 */
export function termStatistics(store: IndexStore, tokens: readonly string[]): TermStatistics {
  const db = indexConnection(store);
  const cache = cacheOf(db, indexGeneration(store), true);
  const lookup = statements(db);
  const documents = new Map<string, number>();
  for (const token of tokens) {
    let n = cache.primed.get(token) ?? cache.documents.get(token);
    if (n === undefined) cache.documents.set(token, (n = (lookup.documents.get(token) as number | undefined) ?? 0));
    documents.set(token, n);
  }
  return { rows: cache.rows, documents };
}
