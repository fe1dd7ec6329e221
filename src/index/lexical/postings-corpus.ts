/**
 * One index generation's scoring corpus, read once per connection: FTS5's N,
 * each chunk's slot and |D| (from the docsize rows), the length norms of
 * FTS5's BM25 denominator, the cache of term postings (term-postings.ts) and
 * the scratch arrays of exact scoring (exact-bm25.ts). The numbers are FTS5's
 * own (the averages record, the docsize varints), so scores computed from them
 * equal FTS5's bitwise (docs/architecture.md, "What lexical scoring promises").
 */
import type Database from 'better-sqlite3';
import { CHUNK_KINDS, FTS_FIELDS, type ChunkKind } from '../store/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import type { PackedPostings } from './packed-store.js';

/** BM25 constants of fts5_aux.c. */
export const K1 = 1.2;
export const B = 0.75;

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
  /** Postings read on demand, dropped wholesale past the bound. */
  postings: Map<string, Postings | null>;
  cachedPostings: number;
  /**
   * Postings the warm-up read (scoring-warmup.ts), kept for the index state's
   * life: on a large tree the searches' own reads passed the bound within a few
   * issue texts, and the wholesale drop took the warmed terms with it.
   */
  pinned: Map<string, Postings | null>;
  /**
   * Every other term's postings and body offsets, packed (packed-postings.ts), once the warm-up's scan
   * (postings-scan.ts) has read them: searches unpack a term from here instead of reading it from SQLite.
   */
  packed: PackedPostings | null;
  /** Whether a warm-up (scoring-warmup.ts) filled the pinned postings of this state. */
  warmed: boolean;
  idf: Map<number, number>;
  /** Scratch accumulators, one per slot. */
  group: Float64Array;
  total: Float64Array;
  mark: Uint8Array;
  /** Scratch lists of slots: every slot a query touched, and those of the group being summed. */
  touched: Int32Array;
  inGroup: Int32Array;
}

/** On-demand postings above this many entries are dropped wholesale (~14 bytes each; a repository of 10k chunks holds ~10^6); pinned ones are apart. */
const MAX_CACHED_POSTINGS = 2_000_000;
/** The on-demand postings cache's bound in entries (warm-ups pin at most a quarter of it, beside it). */
export const POSTINGS_BOUND = MAX_CACHED_POSTINGS;
/** Counts per posting in {@link Postings.counts}. */
export const FIELD_COUNT = FTS_FIELDS.length;

/** The corpus each connection read last (one index state at a time). */

const corpora = new WeakMap<Database.Database, Corpus>();

/** This index state's corpus when its postings were read by this connection, else null (for body-phrases.ts). */
export function readCorpus(store: IndexStore, generation: string): Corpus | null {
  const corpus = corpora.get(indexConnection(store));
  return corpus?.generation === generation ? corpus : null;
}

/** Whether this index state's postings are in memory (then every query is scored from them: a short query of common words costs FTS5 as much as a long one). */
export function postingsRead(store: IndexStore, generation: string): boolean {
  return corpora.get(indexConnection(store))?.generation === generation;
}

/** The corpus of this generation, read now when the connection holds another (or none); its postings cache is emptied when over its bound. */
export function corpusOf(db: Database.Database, generation: string): Corpus {
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
    pinned: new Map(),
    packed: null,
    warmed: false,
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

/** The corpus slot of a chunk id, −1 when it has none. */
export function slotOfId(corpus: Corpus, id: number): number {
  if (corpus.slotById) return Number.isInteger(id) && id >= 0 && id < corpus.slotById.length ? corpus.slotById[id]! : -1;
  return corpus.slotOf!.get(id) ?? -1;
}

/** {@link Corpus.kinds}, read from the chunk rows on first use. */
export function slotKinds(db: Database.Database, corpus: Corpus): Uint8Array {
  if (!corpus.kinds) {
    const kindOf = new Uint8Array(corpus.ids.length).fill(255);
    for (const [id, kind] of db.prepare('SELECT id, kind FROM chunks').raw().all() as [number, string][]) {
      const slot = slotOfId(corpus, id);
      const index = CHUNK_KINDS.indexOf(kind as ChunkKind);
      if (slot >= 0 && index >= 0) kindOf[slot] = index;
    }
    corpus.kinds = kindOf;
  }
  return corpus.kinds;
}
