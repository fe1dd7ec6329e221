import type { IndexStore } from '../index/index.js';
import type { ParsedQuery } from './query-parser.js';
import type { ChunkHit, ChunkKind } from './retrieval-types.js';

/** BM25 column weights, in the FTS table's column order. */
export interface FieldWeights {
  path: number;
  name: number;
  signature: number;
  doc: number;
  body: number;
}

/**
 * Default field weights. Names and signatures are short and precise, so a hit
 * there is worth several body mentions; paths carry module words (`extractor`,
 * `youtube`); bodies carry most of the evidence. Tuned on the dev split (see README).
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
}

/**
 * BM25 over the chunk FTS table with per-field weights and per-term weights
 * (expressed by repeating a phrase in the OR query). Returns hits best first
 * with positive scores (higher is better).
 */
export function lexicalSearch(store: IndexStore, query: ParsedQuery, options: LexicalSearchOptions): ChunkHit[] {
  const maxTerms = options.maxTerms ?? 96;
  const maxRepeat = options.maxRepeat ?? 4;
  const terms = query.terms.slice(0, maxTerms);
  if (terms.length === 0) return [];
  const phrases: string[] = [];
  for (const term of terms) {
    const repeat = Math.max(1, Math.min(maxRepeat, Math.round(term.weight)));
    for (let i = 0; i < repeat; i++) phrases.push(`"${term.token}"`);
  }
  const w = options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS;
  const kinds = options.chunkKinds?.filter((k) => ['function', 'class', 'file'].includes(k));
  const sql = kinds?.length
    ? `SELECT t.rowid AS id, bm25(chunks_fts, ?, ?, ?, ?, ?) AS rank FROM chunks_fts t JOIN chunks c ON c.id = t.rowid
       WHERE chunks_fts MATCH ? AND c.kind IN (${kinds.map((k) => `'${k}'`).join(',')}) ORDER BY rank LIMIT ?`
    : `SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?, ?) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?`;
  const rows = store.db
    .prepare(sql)
    .all(w.path, w.name, w.signature, w.doc, w.body, phrases.join(' OR '), options.limit) as { id: number; rank: number }[];
  const chunks = store.chunksByIds(rows.map((r) => r.id));
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
      score: -row.rank,
    });
  }
  return hits;
}
