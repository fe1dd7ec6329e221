/**
 * FTS5's bm25() computed outside FTS5, from the same index, to the same bits.
 *
 * FTS5 scores an OR query of n phrases at O(n) per matching row (it merges n
 * position lists and loops over n phrases for every row), and an issue text's
 * ~90 terms match most chunks. Here each term's postings (chunk, per-column
 * count) are read once from FTS5's own index through an `fts5vocab` instance
 * view and kept in typed arrays, per index generation; a query then costs
 * Σ postings of its terms (dense accumulation), with no re-tokenizing and no
 * second copy of the corpus on disk.
 *
 * The contract (docs/architecture.md, "Lexical scoring"): for index tokens
 * (lower-case ASCII identifier parts, one FTS5 token each), every number is
 * FTS5's: N and the column totals from the table's averages record, |D| from
 * its docsize row, n(t) the rows the term occurs in, IDF = ln((N − n + 0.5) /
 * (n + 0.5)) computed by SQLite's ln() (the same libm call FTS5 makes) and
 * clamped to 1e-6 when ≤ 0, f(t, D) the column weights added once per
 * occurrence in column order, and the sum over a query's phrases taken in
 * phrase order — the operations of fts5_aux.c's fts5Bm25Function in its order,
 * so scores are bitwise equal (chunk-queries.test.ts and term-postings.test.ts check it).
 */
import type Database from 'better-sqlite3';
import { CHUNK_KINDS, FTS_FIELDS, type ChunkKind } from './index-schema.js';
import { indexConnection, type IndexStore } from './index-store.js';

/** BM25 constants of fts5_aux.c. */
const K1 = 1.2;
const B = 0.75;

/** One term's postings: the corpus slot of each chunk it occurs in (ascending) and its count per FTS field (FTS_FIELDS order). */
export interface Postings {
  slots: Int32Array;
  counts: Uint16Array;
}

/** What one index generation's scoring needs, read once. */
export interface Corpus {
  generation: string;
  /** FTS5's N. */
  rows: number;
  /** Chunk id of each slot. */
  ids: Float64Array;
  /** Slot of each chunk id (−1: none) when the ids are dense enough for a table (the usual case)… */
  slotById: Int32Array | null;
  /** …else this map (see {@link slotOfId}). */
  slotOf: Map<number, number> | null;
  /** k1 × (1 − b + b × |D| / avgdl) of each slot: the length part of FTS5's denominator, as FTS5 computes it. */
  norms: Float64Array;
  /** CHUNK_KINDS index of each slot's chunk (255: no chunk row), read on the first kind-filtered search. */
  kinds: Uint8Array | null;
  postings: Map<string, Postings | null>;
  cachedPostings: number;
  idf: Map<number, number>;
  /** Scratch accumulators, one per slot. */
  group: Float64Array;
  total: Float64Array;
  mark: Uint8Array;
  /** Scratch lists of slots: every slot a query touched, and those of the group being summed. */
  touched: Int32Array;
  inGroup: Int32Array;
}

/** Cached postings above this many entries are dropped wholesale (~14 bytes each; a repository of 10k chunks holds ~10^6). */
const MAX_CACHED_POSTINGS = 2_000_000;
/** Counts per posting in {@link Postings.counts}. */
export const FIELD_COUNT = FTS_FIELDS.length;
/** Column of each field's first letter: the instance view names columns, and a one-letter tag keeps the transfer small. */
const COLUMN_OF_LETTER = new Map(FTS_FIELDS.map((field, i) => [field.charCodeAt(0), i]));
/** {@link COLUMN_OF_LETTER} as a table over ASCII codes (−1: not a column letter), for the parse loop. */
const COLUMN_BY_CODE = new Int8Array(128).fill(-1);
for (const [code, column] of COLUMN_OF_LETTER) COLUMN_BY_CODE[code] = column;
if (COLUMN_OF_LETTER.size !== FIELD_COUNT) throw new Error('FTS field names must differ in their first letter (term-postings.ts)');

const corpora = new WeakMap<Database.Database, Corpus>();
/** Long queries FTS5 scored per connection and generation, before postings are read (see {@link postingsPayOff}). */
const fts5Served = new WeakMap<Database.Database, { generation: string; queries: number }>();

/** This index state's corpus when its postings were read by this connection, else null (for body-phrases.ts). */
export function readCorpus(store: IndexStore, generation: string): Corpus | null {
  const corpus = corpora.get(indexConnection(store));
  return corpus?.generation === generation ? corpus : null;
}

/** Whether this index state's postings are in memory (then every query is scored from them: a short query of common words costs FTS5 as much as a long one). */
export function postingsRead(store: IndexStore, generation: string): boolean {
  return corpora.get(indexConnection(store))?.generation === generation;
}

/**
 * Whether a long query on this index state should be scored from postings.
 * Reading them costs about one FTS5 query (the chunk lengths plus each term's
 * postings), so the first long query per index state goes to FTS5 and the
 * second onwards to postings: a one-shot process (one CLI search, one eval
 * instance) never pays for postings it would not reuse, a long-lived one (MCP
 * server, web view, benchmark) pays once per index state.
 */
export function postingsPayOff(store: IndexStore, generation: string): boolean {
  const db = indexConnection(store);
  if (postingsRead(store, generation)) return true;
  const served = fts5Served.get(db);
  if (served?.generation === generation) return ++served.queries > 1;
  fts5Served.set(db, { generation, queries: 1 });
  return false;
}

/** A token FTS5's ascii tokenizer keeps as one token unchanged, so its phrase query and its postings agree. */
export function isPlainIndexToken(token: string): boolean {
  return /^[a-z0-9_]+$/.test(token);
}

/** One group of a query: its phrases (distinct tokens, in query order) and the repeat count they share. */
export interface PhraseGroup {
  repeat: number;
  tokens: readonly string[];
}

/** A chunk's exact FTS5 result: `key` orders as FTS5's rank does (higher first), `score` is bm25Chunks' score. */
export interface ExactScores {
  ids: Float64Array;
  keys: Float64Array;
  scores: Float64Array;
}

/**
 * Every chunk matching any token of `groups`, with the score bm25Chunks
 * reports (`generation`: chunk-queries.ts's indexGeneration, the cache key): Σ over groups (in order) of repeat × the group's bm25 with column
 * `weights`. Null when a term cannot be scored here (its counts overflow);
 * the caller then asks FTS5.
 */
export function exactBm25(
  store: IndexStore,
  generation: string,
  groups: readonly PhraseGroup[],
  weights: readonly number[],
  kinds?: readonly ChunkKind[],
): ExactScores | null {
  const db = indexConnection(store);
  const corpus = corpusOf(db, generation);
  const lists: Postings[][] = [];
  for (const group of groups) {
    const list: Postings[] = [];
    for (const token of group.tokens) {
      const postings = postingsOf(db, corpus, token);
      if (!postings) return null;
      list.push(postings);
    }
    lists.push(list);
  }
  const integral = weights.every((w) => Number.isInteger(w));
  const { group: acc, total, mark, norms, touched, inGroup } = corpus;
  let touchedCount = 0;
  const single = groups.length === 1;
  for (let g = 0; g < groups.length; g++) {
    let inGroupCount = 0;
    for (const postings of lists[g]!) {
      const idf = idfOf(db, corpus, postings.slots.length);
      const { slots, counts } = postings;
      for (let p = 0; p < slots.length; p++) {
        const slot = slots[p]!;
        const f = integral ? integralFrequency(counts, p, weights) : repeatedFrequency(counts, p, weights);
        if ((mark[slot]! & 2) === 0) {
          mark[slot] = mark[slot]! | 2;
          acc[slot] = 0;
          inGroup[inGroupCount++] = slot;
        }
        acc[slot] = acc[slot]! + idf * ((f * (K1 + 1.0)) / (f + norms[slot]!));
      }
    }
    const repeat = groups[g]!.repeat;
    for (let i = 0; i < inGroupCount; i++) {
      const slot = inGroup[i]!;
      mark[slot] = mark[slot]! & ~2;
      if ((mark[slot]! & 1) === 0) {
        mark[slot] = 1;
        total[slot] = 0;
        touched[touchedCount++] = slot;
      }
      // bm25Chunks' FTS5 path: rank = −score; Σ repeat × rank over the groups a chunk matches; score = −Σ.
      total[slot] = single ? acc[slot]! : total[slot]! + repeat * -acc[slot]!;
    }
  }
  const allowed = kinds ? kindMask(db, corpus, kinds) : null;
  const ids = new Float64Array(touchedCount);
  const keys = new Float64Array(touchedCount);
  const scores = new Float64Array(touchedCount);
  const repeat = groups[0]?.repeat ?? 1;
  let count = 0;
  for (let i = 0; i < touchedCount; i++) {
    const slot = touched[i]!;
    mark[slot] = 0;
    if (allowed && !allowed[corpus.kinds![slot]!]) continue;
    ids[count] = corpus.ids[slot]!;
    // One group: FTS5 orders by the group's own bm25, and the score is that × repeat.
    keys[count] = single ? total[slot]! : -total[slot]!;
    scores[count] = single ? -(-total[slot]!) * repeat : -total[slot]!;
    count++;
  }
  return { ids: ids.subarray(0, count), keys: keys.subarray(0, count), scores: scores.subarray(0, count) };
}

/** Σ count × weight in column order; exact (and equal to FTS5's one-by-one additions) for integer weights. */
function integralFrequency(counts: Uint16Array, p: number, weights: readonly number[]): number {
  let f = 0;
  const base = p * FIELD_COUNT;
  for (let c = 0; c < FIELD_COUNT; c++) {
    const n = counts[base + c]!;
    if (n !== 0) f += n * weights[c]!;
  }
  return f;
}

/** FTS5's f(t, D) for any weights: the column's weight added once per occurrence, columns in order. */
function repeatedFrequency(counts: Uint16Array, p: number, weights: readonly number[]): number {
  let f = 0;
  const base = p * FIELD_COUNT;
  for (let c = 0; c < FIELD_COUNT; c++) for (let n = counts[base + c]!; n > 0; n--) f += weights[c]!;
  return f;
}

function corpusOf(db: Database.Database, generation: string): Corpus {
  const cached = corpora.get(db);
  if (cached && cached.generation === generation) {
    if (cached.cachedPostings > MAX_CACHED_POSTINGS) {
      cached.postings.clear();
      cached.cachedPostings = 0;
    }
    return cached;
  }
  const averages = db.prepare('SELECT block FROM chunks_fts_data WHERE id = 1').pluck().get() as Buffer | undefined;
  const totals = averages ? readVarints(averages, 1 + FIELD_COUNT) : [0];
  const rows = totals[0]!;
  let tokens = 0;
  for (let c = 1; c < totals.length; c++) tokens += totals[c]!;
  const avgdl = tokens / rows;
  // One string for the whole table (`<id> <hex of sz>` per row): a row array with a Buffer per row cost ~15× more (10k rows: 55 vs 4 ms).
  const sizes = (db.prepare("SELECT group_concat(id || ' ' || hex(sz), ' ' ORDER BY id) FROM chunks_fts_docsize").pluck().get() as string | null) ?? '';
  const { ids: idList, lengths } = parseDocsizes(sizes);
  const count = idList.length;
  const ids = Float64Array.from(idList);
  const norms = new Float64Array(count);
  let maxId = 0;
  for (let slot = 0; slot < count; slot++) {
    if (ids[slot]! > maxId) maxId = ids[slot]!;
    norms[slot] = K1 * (1 - B + (B * lengths[slot]!) / avgdl);
  }
  // Chunk ids are mostly dense: a typed table turns the per-occurrence id lookup of parsePostings into an index.
  let slotById: Int32Array | null = null;
  let slotOf: Map<number, number> | null = null;
  if (Number.isSafeInteger(maxId) && maxId >= 0 && maxId <= 4 * count + 1024) {
    slotById = new Int32Array(maxId + 1).fill(-1);
    for (let slot = 0; slot < count; slot++) slotById[ids[slot]!] = slot;
  } else {
    slotOf = new Map();
    for (let slot = 0; slot < count; slot++) slotOf.set(ids[slot]!, slot);
  }
  const corpus: Corpus = {
    generation,
    rows,
    ids,
    slotOf,
    slotById,
    norms,
    kinds: null,
    postings: new Map(),
    cachedPostings: 0,
    idf: new Map(),
    group: new Float64Array(count),
    total: new Float64Array(count),
    mark: new Uint8Array(count),
    touched: new Int32Array(count),
    inGroup: new Int32Array(count),
  };
  corpora.set(db, corpus);
  return corpus;
}

/**
 * `<id> <hex of sz>` pairs (space-separated) → each row's id and |D|, the sum
 * of its FIELD_COUNT varints (as {@link readVarints} reads them). One tight
 * pass over the string: a split and a byte array per row cost ~10× more before
 * the JIT warms up, and this runs once per process.
 */
function parseDocsizes(text: string): { ids: number[]; lengths: number[] } {
  const ids: number[] = [];
  const lengths: number[] = [];
  let i = 0;
  const end = text.length;
  while (i < end) {
    let id = 0;
    for (; i < end && text.charCodeAt(i) !== 32; i++) id = id * 10 + (text.charCodeAt(i) - 48);
    i++;
    let length = 0;
    let value = 0;
    let k = 0;
    let read = 0;
    for (; i < end; i += 2) {
      const c1 = text.charCodeAt(i);
      if (c1 === 32) break;
      const byte = hexDigit(c1) * 16 + hexDigit(text.charCodeAt(i + 1));
      if (read >= FIELD_COUNT) continue;
      if (k === 8) {
        value = value * 256 + byte;
        k = 9;
      } else {
        value = value * 128 + (byte & 0x7f);
        k = (byte & 0x80) === 0 ? 9 : k + 1;
      }
      if (k === 9) {
        length += value;
        read++;
        value = 0;
        k = 0;
      }
    }
    // A varint cut short by the end of the blob counts as read so far (readVarints does the same).
    if (k > 0 && read < FIELD_COUNT) length += value;
    i++;
    ids.push(id);
    lengths.push(length);
  }
  return { ids, lengths };
}

function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : (code | 0x20) - 87;
}

/** SQLite varints (FTS5's record format): `count` of them from the start of `blob`. */
function readVarints(blob: Uint8Array, count: number): number[] {
  const out: number[] = [];
  let i = 0;
  while (out.length < count && i < blob.length) {
    let value = 0;
    for (let k = 0; k < 9 && i < blob.length; k++) {
      const byte = blob[i++]!;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  while (out.length < count) out.push(0);
  return out;
}

const instanceStatements = new WeakMap<Database.Database, Database.Statement>();

/** FTS5's instance view of the chunk table (term, doc, col, offset per occurrence), created once per connection in the temp schema. */
export function instanceView(db: Database.Database): string {
  // A temp-schema view: nothing is written to the index file, so read-only connections can use it too.
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts_instances USING fts5vocab(main, chunks_fts, instance)');
  return 'temp.chunks_fts_instances';
}

/** A term's postings from FTS5's index, cached (null: a count does not fit, so this term must be scored by FTS5). */
export function postingsOf(db: Database.Database, corpus: Corpus, token: string): Postings | null {
  const known = corpus.postings.get(token);
  if (known !== undefined) return known;
  let statement = instanceStatements.get(db);
  if (!statement) {
    // One string per term, `<chunk id><column letter>` per occurrence, in FTS5's order (chunk, then column, then offset).
    statement = db.prepare(`SELECT group_concat(doc || substr(col, 1, 1), '') FROM ${instanceView(db)} WHERE term = ?`).pluck();
    instanceStatements.set(db, statement);
  }
  const postings = parsePostings((statement.get(token) as string | null) ?? '', corpus);
  corpus.postings.set(token, postings);
  corpus.cachedPostings += postings ? postings.slots.length : 0;
  return postings;
}

function parsePostings(text: string, corpus: Corpus): Postings | null {
  // Every occurrence takes two characters or more (a digit and a column letter): sized for that, cut at the end.
  const capacity = text.length >> 1;
  const slots = new Int32Array(capacity);
  const counts = new Uint16Array(capacity * FIELD_COUNT);
  let entries = 0;
  let id = 0;
  let lastId = -1;
  let base = -FIELD_COUNT;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 58) {
      id = id * 10 + (code - 48);
      continue;
    }
    const column = code < 128 ? COLUMN_BY_CODE[code]! : -1;
    if (column < 0) return null;
    if (id !== lastId) {
      // Occurrences arrive grouped by chunk; anything else and this term goes to FTS5.
      if (id < lastId) return null;
      const slot = slotOfId(corpus, id);
      if (slot < 0) return null;
      slots[entries++] = slot;
      base += FIELD_COUNT;
      lastId = id;
    }
    const at = base + column;
    if (counts[at] === 0xffff) return null;
    counts[at]!++;
    id = 0;
  }
  return { slots: slots.slice(0, entries), counts: counts.slice(0, entries * FIELD_COUNT) };
}

const lnStatements = new WeakMap<Database.Database, Database.Statement>();

/** FTS5's IDF of a term in `documents` rows, through SQLite's ln() so the logarithm is the C library's, as in FTS5. */
function idfOf(db: Database.Database, corpus: Corpus, documents: number): number {
  let idf = corpus.idf.get(documents);
  if (idf !== undefined) return idf;
  let statement = lnStatements.get(db);
  if (!statement) lnStatements.set(db, (statement = db.prepare('SELECT ln(?)').pluck()));
  idf = statement.get((corpus.rows - documents + 0.5) / (documents + 0.5)) as number;
  if (!(idf > 0)) idf = 1e-6;
  corpus.idf.set(documents, idf);
  return idf;
}

/** The corpus slot of a chunk id, −1 when it has none. */
export function slotOfId(corpus: Corpus, id: number): number {
  if (corpus.slotById) return Number.isInteger(id) && id >= 0 && id < corpus.slotById.length ? corpus.slotById[id]! : -1;
  return corpus.slotOf!.get(id) ?? -1;
}

function kindMask(db: Database.Database, corpus: Corpus, kinds: readonly ChunkKind[]): boolean[] {
  if (!corpus.kinds) {
    const kindOf = new Uint8Array(corpus.ids.length).fill(255);
    for (const [id, kind] of db.prepare('SELECT id, kind FROM chunks').raw().all() as [number, string][]) {
      const slot = slotOfId(corpus, id);
      const index = CHUNK_KINDS.indexOf(kind as ChunkKind);
      if (slot >= 0 && index >= 0) kindOf[slot] = index;
    }
    corpus.kinds = kindOf;
  }
  const allowed = new Array<boolean>(256).fill(false);
  for (const kind of kinds) {
    const index = CHUNK_KINDS.indexOf(kind);
    if (index >= 0) allowed[index] = true;
  }
  return allowed;
}
