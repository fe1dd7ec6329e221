/**
 * Read queries over chunks and their full-text rows: weighted BM25, exact
 * phrase lookups in chunk bodies, and chunk lookups by symbol or file. The
 * FTS5 query syntax and the bm25() column order stay here, next to the schema
 * that defines them (index-schema.ts); callers pass tokens and named weights.
 */
import type Database from 'better-sqlite3';
import { CHUNK_KINDS, FTS_FIELDS, type ChunkKind, type FieldWeights } from '../store/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import { bodyPhraseChunks } from './body-phrases.js';
import { exactBm25, type ExactScores } from './exact-bm25.js';
import { kthLargest } from './kth-largest.js';
import { indexGeneration } from '../store/index.js';
import { postingsRead } from './postings-corpus.js';
import { isPlainIndexToken } from './term-postings.js';
import { termStatistics } from './term-statistics.js';

export { indexGeneration };

/** Prepared statements per connection and SQL text: a search prepares each shape once per open index. */
const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function statement(store: IndexStore, sql: string): Database.Statement {
  const db = indexConnection(store);
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/** One weighted query term: `token` as the index stores it, counted `repeat` times (FTS5's bm25 sums over phrases). */
export interface WeightedToken {
  token: string;
  repeat: number;
}

/** A chunk's BM25 match: its id and the score, higher is better (FTS5's rank negated). */
export interface ChunkScore {
  id: number;
  score: number;
}

/** Options of {@link bm25Chunks}. */
export interface Bm25ChunkOptions {
  weights: FieldWeights;
  limit: number;
  /** Only chunks of these kinds (default: all). */
  kinds?: readonly ChunkKind[];
  /**
   * Who computes the scores: FTS5's bm25(), or the same formula over cached
   * postings (exact-bm25.ts; bitwise the same scores and hits). `auto`
   * (default) takes postings once they are read for this index state, and reads
   * them on the first query of {@link POSTINGS_MIN_TERMS} terms or more, or of
   * terms that occur in as many chunks, summed, as there are rows.
   */
  scorer?: 'auto' | 'fts5' | 'postings';
}

/**
 * Distinct terms from which `auto` scores with postings. Below it FTS5 is
 * cheap (its cost is terms × matching rows) and a one-shot process would pay
 * for postings it never reuses.
 */
export const POSTINGS_MIN_TERMS = 16;

/**
 * BM25 over the chunk fields with per-field weights: the chunks matching any
 * of `terms` (an OR of single-token phrases, each counted `repeat` times),
 * best first, at most `limit` (equal scores at the limit cut by path and
 * line, never by chunk id). Tokens must be index tokens (lower-case ASCII
 * identifier parts, see code-tokens.ts); others match nothing.
 *
 * FTS5's bm25() is a sum over the query's phrases of idf × a saturated term
 * frequency, each phrase's part independent of the others, and it costs
 * O(phrases) for every matching row. So a phrase is never sent twice: terms
 * are grouped by their repeat count, each group is one OR query of distinct
 * phrases, and a chunk's score is Σ repeat × its group's bm25 — the score the
 * repeated-phrase query defines, at a third of its cost on issue-length
 * queries (100 terms matching most chunks).
 */
export function bm25Chunks(store: IndexStore, terms: readonly WeightedToken[], options: Bm25ChunkOptions): ChunkScore[] {
  const repeats = new Map<string, number>();
  for (const term of terms) if (term.repeat > 0) repeats.set(term.token, (repeats.get(term.token) ?? 0) + term.repeat);
  if (repeats.size === 0 || options.limit <= 0) return [];
  const groups = new Map<number, string[]>();
  for (const [token, repeat] of repeats) {
    const group = groups.get(repeat);
    if (group) group.push(`"${token}"`);
    else groups.set(repeat, [`"${token}"`]);
  }
  const weights = FTS_FIELDS.map((field) => options.weights[field]);
  const kinds = options.kinds?.filter((k) => CHUNK_KINDS.includes(k));
  const scorer = options.scorer ?? 'auto';
  if (scorer !== 'fts5' && [...repeats.keys()].every(isPlainIndexToken)) {
    const generation = indexGeneration(store);
    // A long query reads only its own terms' postings (and the chunk lengths once per index state): less than
    // FTS5 spends scoring it, so its first run costs no more, and every later query reuses what it read.
    if (scorer === 'postings' || postingsRead(store, generation) || repeats.size >= POSTINGS_MIN_TERMS || coversCorpus(store, [...repeats.keys()])) {
      const groupList = [...groups].map(([repeat, phrases]) => ({ repeat, tokens: phrases.map((p) => p.slice(1, -1)) }));
      const exact = exactBm25(store, generation, groupList, weights, kinds?.length ? kinds : undefined, options.limit);
      if (exact) return topExact(store, exact, options.limit);
    }
  }
  const columns = FTS_FIELDS.map(() => '?').join(', ');
  const matches = kinds?.length
    ? `SELECT t.rowid AS id, bm25(chunks_fts, ${columns}) AS rank FROM chunks_fts t JOIN chunks c ON c.id = t.rowid
       WHERE chunks_fts MATCH ? AND c.kind IN (${kinds.map((k) => `'${k}'`).join(',')})`
    : `SELECT rowid AS id, bm25(chunks_fts, ${columns}) AS rank FROM chunks_fts WHERE chunks_fts MATCH ?`;
  if (groups.size === 1) {
    // One weight for every term: SQLite orders and cuts; scores are that one query's × the repeat.
    const [[repeat, phrases]] = [...groups];
    return topByRank(store, matches, weights, phrases.join(' OR '), options.limit).map((r) => ({ id: r.id, score: -r.rank * repeat }));
  }
  const sums = new Map<number, number>();
  const all = statement(store, matches).raw();
  for (const [repeat, phrases] of groups) {
    for (const [id, rank] of all.all(...weights, phrases.join(' OR ')) as [number, number][]) sums.set(id, (sums.get(id) ?? 0) + repeat * rank);
  }
  const rows = [...sums].map(([id, rank]) => ({ id, rank })).sort((a, b) => a.rank - b.rank);
  if (rows.length > options.limit && rows[options.limit].rank === rows[options.limit - 1].rank) {
    const boundary = rows[options.limit - 1].rank;
    const above = rows.slice(0, options.limit).filter((r) => r.rank !== boundary);
    const tied = inPositionOrder(store, rows.filter((r) => r.rank === boundary).map((r) => r.id));
    return [...above, ...tied.slice(0, options.limit - above.length).map((id) => ({ id, rank: boundary }))].map((r) => ({ id: r.id, score: -r.rank }));
  }
  return rows.slice(0, options.limit).map((r) => ({ id: r.id, score: -r.rank }));
}

/**
 * BM25 of the chunks `ids` only (a file-restricted query): each matching one
 * with the score {@link bm25Chunks} gives it — the same terms, repeats,
 * column weights and whole-index statistics, so the scores rank against that
 * search's hits — in no promised order. Chunks of `ids` that match no term
 * are left out. `auto` scores with the postings when this index state has read
 * them already (never reads them for this), else FTS5 (`fts5`: always).
 */
export function bm25ChunksIn(
  store: IndexStore,
  terms: readonly WeightedToken[],
  weights: FieldWeights,
  ids: readonly number[],
  scorer: 'auto' | 'fts5' = 'auto',
): ChunkScore[] {
  const repeats = new Map<string, number>();
  for (const term of terms) if (term.repeat > 0) repeats.set(term.token, (repeats.get(term.token) ?? 0) + term.repeat);
  if (repeats.size === 0 || ids.length === 0) return [];
  const wanted = new Set(ids);
  const columnWeights = FTS_FIELDS.map((field) => weights[field]);
  const groups = new Map<number, string[]>();
  for (const [token, repeat] of repeats) groups.set(repeat, [...(groups.get(repeat) ?? []), token]);
  if (scorer === 'auto' && [...repeats.keys()].every(isPlainIndexToken) && postingsRead(store, indexGeneration(store))) {
    // Postings already read for this index state: every matching chunk's exact score, then the wanted ones.
    const groupList = [...groups].map(([repeat, tokens]) => ({ repeat, tokens }));
    const exact = exactBm25(store, indexGeneration(store), groupList, columnWeights);
    if (exact) {
      const out: ChunkScore[] = [];
      for (let i = 0; i < exact.ids.length; i++) if (wanted.has(exact.ids[i]!)) out.push({ id: exact.ids[i]!, score: exact.scores[i]! });
      return out;
    }
  }
  const columns = FTS_FIELDS.map(() => '?').join(', ');
  const sql = `SELECT rowid AS id, bm25(chunks_fts, ${columns}) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`;
  const sums = new Map<number, number>();
  const list = JSON.stringify([...wanted]);
  for (const [repeat, tokens] of groups) {
    const match = tokens.map((t) => `"${t}"`).join(' OR ');
    for (const [id, rank] of statement(store, sql).raw().all(...columnWeights, match, list) as [number, number][]) sums.set(id, (sums.get(id) ?? 0) + repeat * rank);
  }
  return [...sums].map(([id, rank]) => ({ id, score: -rank }));
}

/**
 * Whether the terms occur in as many chunks, summed, as the table has rows:
 * FTS5 then scores most rows once per phrase (a dozen common words cost it
 * ~20 ms on a 10k-chunk index, their postings ~1 ms warm), and reading the
 * postings costs less than that one FTS5 query. Document counts come from
 * term-statistics.ts (cached; the lexical retriever has asked for them already).
 */
function coversCorpus(store: IndexStore, tokens: readonly string[]): boolean {
  const { rows, documents } = termStatistics(store, tokens);
  let sum = 0;
  for (const token of tokens) sum += documents.get(token) ?? 0;
  return rows > 0 && sum >= rows;
}

/**
 * The best `limit` of exactly scored chunks, cut and ordered as the FTS5 path
 * does (a tie across the limit by path and line). `exact` holds only the
 * chunks at or above the limit-th best key (exactBm25's cut), so at most
 * `limit` plus the ties are sorted.
 */
function topExact(store: IndexStore, exact: ExactScores, limit: number): ChunkScore[] {
  const { ids, keys, scores } = exact;
  let order: number[] = [];
  if (ids.length > limit) {
    // More than `limit` at or above the limit-th best key: the surplus are tied with it, and path and line decide.
    const boundary = kthLargest(keys, limit);
    const tied: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      if (keys[i]! > boundary) order.push(i);
      else if (keys[i] === boundary) tied.push(i);
    }
    const byId = new Map(tied.map((i) => [ids[i]!, i]));
    const cut = inPositionOrder(store, tied.map((i) => ids[i]!)).slice(0, limit - order.length);
    order.push(...cut.map((id) => byId.get(id)!));
  } else order = Array.from(ids, (_, i) => i);
  return order.sort((a, b) => keys[b]! - keys[a]!).map((i) => ({ id: ids[i]!, score: scores[i]! }));
}

/** The best `limit` rows of one MATCH by FTS5 rank (ascending), a tie across the limit cut by path and line. */
function topByRank(store: IndexStore, matches: string, weights: number[], match: string, limit: number): { id: number; rank: number }[] {
  // One row past the limit shows whether equal scores run across it.
  const rows = statement(store, `${matches} ORDER BY rank LIMIT ?`).all(...weights, match, limit + 1) as { id: number; rank: number }[];
  if (rows.length > limit && rows[limit].rank === rows[limit - 1].rank) {
    // Which of the tied chunks make the cut is decided by path and line, not by
    // rowid (index history): two indexes of one tree must return the same hits.
    const boundary = rows[limit - 1].rank;
    const above = rows.slice(0, limit).filter((r) => r.rank !== boundary);
    const tied = statement(
      store,
      `SELECT m.id, m.rank FROM (${matches}) m JOIN chunks c ON c.id = m.id JOIN files f ON f.id = c.file_id
       WHERE m.rank = ? ORDER BY f.path, c.start_line, c.end_line, c.kind, c.symbol LIMIT ?`,
    ).all(...weights, match, boundary, limit - above.length) as { id: number; rank: number }[];
    rows.splice(0, rows.length, ...above, ...tied);
  }
  return rows.slice(0, limit);
}

/** `ids` ordered by their chunk's path and line (the order equal scores take), the first `limit` of them. */
function inPositionOrder(store: IndexStore, ids: number[], limit = -1): number[] {
  const rows = statement(
    store,
    `SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))
     ORDER BY f.path, c.start_line, c.end_line, c.kind, c.symbol LIMIT ?`,
  )
    .pluck()
    .all(JSON.stringify(ids), limit) as number[];
  return rows;
}

/**
 * Ids of chunks whose body holds `tokens` as an exact consecutive sequence,
 * in path and line order (not by id, which follows index history), at most `limit`. Tokens must be index tokens.
 */
export function chunksWithBodyPhrase(store: IndexStore, tokens: readonly string[], limit: number): number[] {
  if (tokens.length === 0) return [];
  // Where postings are at hand, the phrase is matched on them and FTS5's offsets (body-phrases.ts), not by FTS5.
  const found = bodyPhraseChunks(store, indexGeneration(store), tokens);
  if (found) return found.length === 0 ? [] : inPositionOrder(store, found, limit);
  return ftsBodyPhrase(store, tokens, limit);
}

/**
 * {@link chunksWithBodyPhrase} when at most `max` chunks hold the phrase,
 * else null, without finding which ones come first: a pasted message's
 * common words (`"task_run_id"`) sit in thousands of bodies, and ordering
 * those by path only to learn there are too many took a sixth of the
 * slowest warm search on a large tree. `generation`: the index state's
 * (indexGeneration), for a caller that looks up many phrases at once.
 */
export function chunksWithBodyPhraseUpTo(store: IndexStore, tokens: readonly string[], max: number, generation = indexGeneration(store)): number[] | null {
  if (tokens.length === 0) return [];
  const found = bodyPhraseChunks(store, generation, tokens, max);
  const ids = found ? (found.length > max ? found : found.length === 0 ? [] : inPositionOrder(store, found)) : ftsBodyPhrase(store, tokens, max + 1);
  return ids.length > max ? null : ids;
}

/** FTS5's answer to a body phrase: the first `limit` matching chunks in path and line order. */
function ftsBodyPhrase(store: IndexStore, tokens: readonly string[], limit: number): number[] {
  const rows = statement(
    store,
    `SELECT t.rowid AS id FROM chunks_fts t JOIN chunks c ON c.id = t.rowid JOIN files f ON f.id = c.file_id
     WHERE chunks_fts MATCH ? ORDER BY f.path, c.start_line, c.end_line, c.kind, c.symbol LIMIT ?`,
  ).all(
    `body : "${tokens.join(' ')}"`,
    limit,
  ) as { id: number }[];
  return rows.map((r) => r.id);
}

/** The id of the first chunk (by line) of `path` for the symbol `qualifiedName`, or null. */
export function chunkIdOfSymbol(store: IndexStore, path: string, qualifiedName: string): number | null {
  const row = statement(store, 'SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? AND c.symbol = ? ORDER BY c.start_line, c.end_line, c.kind LIMIT 1').get(
    path,
    qualifiedName,
  ) as { id: number } | undefined;
  return row?.id ?? null;
}

/** The line ranges of every chunk of `path` (any order). */
export function chunkRangesOfFile(store: IndexStore, path: string): { id: number; startLine: number; endLine: number }[] {
  const rows = statement(store, 'SELECT c.id, c.start_line, c.end_line FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?').all(
    path,
  ) as { id: number; start_line: number; end_line: number }[];
  return rows.map((r) => ({ id: r.id, startLine: r.start_line, endLine: r.end_line }));
}
