/**
 * One index generation's scoring corpus, read once per connection: FTS5's N,
 * each chunk's slot and |D| (from the docsize rows), the length norms of
 * FTS5's BM25 denominator, the cache of term postings (term-postings.ts) and
 * the scratch arrays of exact scoring (exact-bm25.ts). The numbers are FTS5's
 * own (the averages record, the docsize varints), so scores computed from them
 * equal FTS5's bitwise (docs/architecture.md, "What lexical scoring promises").
 * After this connection's own writes the next state's corpus is carried from
 * the last one over the full-text log ({@link corpusOf}) instead of read again.
 */
import type Database from 'better-sqlite3';
import { CHUNK_KINDS, FTS_FIELDS, type ChunkKind } from '../store/index.js';
import { fullTextLogBetween, indexConnection, startFullTextLog, type FullTextLog, type IndexStore } from '../store/index.js';
import type { PackedPostings } from './packed-store.js';
import { parseDocsizes, readAverages } from './fts-records.js';
import { lengthNorms, scratch, slotTables, type CorpusScratch } from './corpus-tables.js';

export { B, K1 } from './corpus-tables.js';

/** One term's postings: the corpus slot of each chunk it occurs in (ascending) and its count per FTS field (FTS_FIELDS order). */
export interface Postings {
  slots: Int32Array;
  counts: Uint16Array;
}

/** What one index generation's scoring needs, read once. */
export interface Corpus extends CorpusScratch {
  generation: string;
  /** FTS5's N. */
  rows: number;
  /** Chunk id of each slot (−1: a slot whose chunk was removed since the corpus was read; it is in no postings). */
  ids: Float64Array;
  /** |D| of each slot (the sum of its FTS_FIELDS token counts; 0 for a removed chunk's slot). */
  lengths: Float64Array;
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
  /**
   * Set when this state's corpus was carried from a warmed earlier state's
   * ({@link corpusOf}): its pinned and packed postings are that warm-up's,
   * less the terms the edit touched (pinned terms to read again: here).
   */
  carried: { repin: string[] } | null;
  /** The edit this corpus was carried over, for patching the touched terms' postings (postings-patch.ts); null when read afresh. */
  edit: CorpusEdit | null;
  idf: Map<number, number>;
}

/**
 * What one carry changed, so that a touched term's postings can be patched
 * from its list before the edit instead of read again (postings-patch.ts).
 */
export interface CorpusEdit {
  /** 1 at each slot whose chunk the edit removed. */
  dead: Uint8Array;
  /** Each added chunk's slot (ascending) and the tokens of its fields in FTS_FIELDS order (the full-text log's). */
  added: ReadonlyArray<{ slot: number; fields: ReadonlyArray<readonly string[]> }>;
  /** Each touched term's postings before the edit: the list, null (FTS5 scored it), or a packed record number. Taken once. */
  previous: Map<string, Postings | null | number>;
  /** Terms patched so far (postings-patch.ts), for reports and tests. */
  patched: number;
}

/** On-demand postings above this many entries are dropped wholesale (~14 bytes each; a repository of 10k chunks holds ~10^6); pinned ones are apart. */
const MAX_CACHED_POSTINGS = 2_000_000;
/** The on-demand postings cache's bound in entries (warm-ups pin at most a quarter of it, beside it). */
export const POSTINGS_BOUND = MAX_CACHED_POSTINGS;
/** Counts per posting in {@link Postings.counts}. */
export const FIELD_COUNT = FTS_FIELDS.length;

/** A term in no chunk (shared: copy it before handing it to a caller that may cache per list). */
export const NO_POSTINGS: Postings = { slots: new Int32Array(0), counts: new Uint16Array(0) };

/** The corpus each connection read last (one index state at a time). */

const corpora = new WeakMap<Database.Database, Corpus>();

/** This index state's corpus when its postings were read by this connection, else null (for body-phrases.ts). */
export function readCorpus(store: IndexStore, generation: string): Corpus | null {
  const corpus = corpora.get(indexConnection(store));
  return corpus?.generation === generation ? corpus : null;
}

/**
 * Whether this index state's postings are in memory, or in a corpus that will
 * be carried to it (then every query is scored from them: a short query of
 * common words costs FTS5 as much as a long one).
 */
export function postingsRead(store: IndexStore, generation: string): boolean {
  const db = indexConnection(store);
  const corpus = corpora.get(db);
  return corpus !== undefined && (corpus.generation === generation || fullTextLogBetween(db, 'scoring-corpus', corpus.generation, generation) !== null);
}

/**
 * The corpus of this generation, read now when the connection holds another
 * (or none); its postings cache is emptied when over its bound. When this
 * connection's own writes are all that changed since the corpus it holds
 * (a refresh in a long-lived process), that corpus is carried over instead
 * ({@link carriedCorpus}): the same numbers as a fresh read.
 */
export function corpusOf(db: Database.Database, generation: string): Corpus {
  const cached = corpora.get(db);
  if (cached && cached.generation === generation) {
    if (cached.cachedPostings > MAX_CACHED_POSTINGS) {
      cached.postings.clear();
      cached.cachedPostings = 0;
    }
    return cached;
  }
  const corpus = (cached && carriedCorpus(db, cached, generation)) ?? readCorpusAfresh(db, generation);
  corpora.set(db, corpus);
  startFullTextLog(db, 'scoring-corpus', generation);
  return corpus;
}

function readCorpusAfresh(db: Database.Database, generation: string): Corpus {
  const { rows, avgdl } = readAverages(db);
  // One string for the whole table (`<id> <hex of sz>` per row): a row array with a Buffer per row cost ~15× more (10k rows: 55 vs 4 ms).
  const sizes = (db.prepare("SELECT group_concat(id || ' ' || hex(sz), ' ' ORDER BY id) FROM chunks_fts_docsize").pluck().get() as string | null) ?? '';
  const parsed = parseDocsizes(sizes);
  return corpusFrom(generation, rows, avgdl, Float64Array.from(parsed.ids), Float64Array.from(parsed.lengths));
}

/** Rows of the docsize table a page of {@link corpusInSteps} reads (~5 ms each on this machine). */
const CORPUS_PAGE = 8_192;

/**
 * The corpus of `generation`, as {@link corpusOf} gives it, but a fresh read
 * is made in pages of `pageSize` docsize rows with the event loop running
 * between them (`between` answers whether to go on): read whole, it held a
 * call for ~70 ms on an 11k-file tree during the idle-time warm-up. Null when
 * `between` said stop. A corpus this connection holds for the state, or can
 * carry to it, is taken from corpusOf at once; so is one a search read while
 * the pages were read.
 */
export async function corpusInSteps(
  db: Database.Database,
  generation: string,
  between: () => Promise<boolean>,
  pageSize = CORPUS_PAGE,
): Promise<Corpus | null> {
  const cached = corpora.get(db);
  if (cached && (cached.generation === generation || fullTextLogBetween(db, 'scoring-corpus', cached.generation, generation))) return corpusOf(db, generation);
  const { rows, avgdl } = readAverages(db);
  const page = db
    .prepare("SELECT group_concat(id || ' ' || hex(sz), ' ') FROM (SELECT id, sz FROM chunks_fts_docsize WHERE id > ? ORDER BY id LIMIT ?)")
    .pluck();
  const ids: number[] = [];
  const lengths: number[] = [];
  for (let after = -Infinity; ; ) {
    const parsed = parseDocsizes((page.get(after, pageSize) as string | null) ?? '');
    for (let i = 0; i < parsed.ids.length; i++) {
      ids.push(parsed.ids[i]!);
      lengths.push(parsed.lengths[i]!);
    }
    if (!(await between())) return null;
    if (parsed.ids.length < pageSize) break;
    after = parsed.ids[parsed.ids.length - 1]!;
  }
  if (corpora.get(db)?.generation === generation) return corpusOf(db, generation);
  const corpus = corpusFrom(generation, rows, avgdl, Float64Array.from(ids), Float64Array.from(lengths));
  corpora.set(db, corpus);
  startFullTextLog(db, 'scoring-corpus', generation);
  return corpus;
}

/** A corpus of freshly read docsizes (`ids` ascending, `lengths` beside them): nothing cached yet. */
function corpusFrom(generation: string, rows: number, avgdl: number, ids: Float64Array, lengths: Float64Array): Corpus {
  const count = ids.length;
  return {
    generation,
    rows,
    ids,
    lengths,
    ...slotTables(ids),
    norms: lengthNorms(lengths, avgdl),
    kinds: null,
    postings: new Map(),
    cachedPostings: 0,
    pinned: new Map(),
    packed: null,
    warmed: false,
    carried: null,
    edit: null,
    idf: new Map(),
    ...scratch(count),
  };
}

/**
 * `previous` carried to `generation`, when the full-text log proves that only
 * this connection's logged writes happened in between (else null: read
 * afresh). A removed chunk's slot is left empty, an added chunk gets a slot
 * after the others (chunk ids only grow, so slots stay in id order), N and the
 * length norms are recomputed from the new averages; every postings list that
 * no logged row's field holds is unchanged and moves over (cached, pinned and
 * packed), the others are read again when asked for. Checked before use: the
 * removed rows have no docsize row, the added ones have one, and the live slots
 * are FTS5's N. `previous` gives up its postings (it is no longer any state's).
 */
function carriedCorpus(db: Database.Database, previous: Corpus, generation: string): Corpus | null {
  const log = fullTextLogBetween(db, 'scoring-corpus', previous.generation, generation);
  if (!log) return null;
  const { rows, avgdl } = readAverages(db);
  const sizes = docsizesOf(db, log);
  const added: number[] = [];
  let live = previous.rows;
  let lastLive = -1;
  const dropped = new Set<number>();
  for (const [id, change] of log.rows) {
    if ((change === 'added') !== sizes.has(id)) return null;
    if (change === 'added') added.push(id);
    const slot = slotOfId(previous, id);
    if (slot >= 0) {
      dropped.add(slot);
      live--;
    }
  }
  if (live + added.length !== rows) return null;
  const oldCount = previous.ids.length;
  for (let slot = 0; slot < oldCount; slot++) if (!dropped.has(slot) && previous.ids[slot]! > lastLive) lastLive = previous.ids[slot]!;
  added.sort((a, b) => a - b);
  if (added.length > 0 && added[0]! <= lastLive) return null;
  const count = oldCount + added.length;
  const ids = new Float64Array(count);
  ids.set(previous.ids);
  const lengths = new Float64Array(count);
  lengths.set(previous.lengths);
  for (const slot of dropped) {
    ids[slot] = -1;
    lengths[slot] = 0;
  }
  for (let k = 0; k < added.length; k++) {
    ids[oldCount + k] = added[k]!;
    lengths[oldCount + k] = sizes.get(added[k]!)!;
  }
  const tables = carriedSlotTables(previous, ids, dropped, added, oldCount);
  const corpus: Corpus = {
    generation,
    rows,
    ids,
    lengths,
    ...tables,
    norms: lengthNorms(lengths, avgdl),
    kinds: previous.kinds && carriedKinds(db, previous.kinds, dropped, added, oldCount),
    postings: previous.postings,
    cachedPostings: previous.cachedPostings,
    pinned: previous.pinned,
    packed: previous.packed,
    warmed: false,
    carried: null,
    edit: null,
    idf: new Map(),
    ...scratch(count, previous),
  };
  const repin: string[] = [];
  const before = new Map<string, Postings | null | number>();
  for (const token of log.tokens) {
    // The list before the edit, wherever the corpus held it (null, kept as such: FTS5 scored the term).
    let held: Postings | null | number | undefined = corpus.pinned.get(token);
    const cached = corpus.postings.get(token);
    if (cached !== undefined) {
      if (held === undefined) held = cached;
      corpus.postings.delete(token);
      corpus.cachedPostings -= cached ? cached.slots.length : 0;
    }
    if (corpus.pinned.delete(token)) repin.push(token);
    const packed = corpus.packed;
    if (packed) {
      // A complete store that neither holds the term nor waits for it: the term occurred nowhere.
      if (held === undefined) held = packed.records.get(token) ?? (packed.complete && !packed.pending.has(token) ? NO_POSTINGS : undefined);
      packed.records.delete(token);
      packed.pending.add(token);
    }
    if (held !== undefined) before.set(token, held);
  }
  const addedFields = added.map((id, k) => ({ slot: oldCount + k, fields: log.fields.get(id) }));
  if (addedFields.every((row) => row.fields !== undefined)) {
    const dead = new Uint8Array(count);
    for (const slot of dropped) dead[slot] = 1;
    corpus.edit = { dead, added: addedFields as Array<{ slot: number; fields: ReadonlyArray<readonly string[]> }>, previous: before, patched: 0 };
  }
  // From a warmed state, or from one carried from it whose warm-up has not finished: its terms to pin again come along.
  if (previous.warmed) corpus.carried = { repin };
  else if (previous.carried) corpus.carried = { repin: [...new Set([...previous.carried.repin, ...repin])] };
  previous.postings = new Map();
  previous.cachedPostings = 0;
  previous.pinned = new Map();
  previous.packed = null;
  return corpus;
}

/** {@link slotTables} of a carried corpus: the previous table copied and patched when the added ids fit in it. */
function carriedSlotTables(previous: Corpus, ids: Float64Array, dropped: ReadonlySet<number>, added: readonly number[], oldCount: number): ReturnType<typeof slotTables> {
  const table = previous.slotById;
  if (!table || (added.length > 0 && added[added.length - 1]! >= table.length)) return slotTables(ids);
  const slotById = table.slice();
  for (const slot of dropped) slotById[previous.ids[slot]!] = -1;
  for (let k = 0; k < added.length; k++) slotById[added[k]!] = oldCount + k;
  return { slotById, slotOf: null };
}

/** |D| of each logged row that has a docsize row now. */
function docsizesOf(db: Database.Database, log: FullTextLog): Map<number, number> {
  const text =
    (db
      .prepare("SELECT group_concat(id || ' ' || hex(sz), ' ' ORDER BY id) FROM chunks_fts_docsize WHERE id IN (SELECT value FROM json_each(?))")
      .pluck()
      .get(JSON.stringify([...log.rows.keys()])) as string | null) ?? '';
  const { ids, lengths } = parseDocsizes(text);
  return new Map(ids.map((id, k) => [id, lengths[k]!]));
}

/** The kinds of a carried corpus: the previous slots' (none for a removed chunk's), then the added chunks', read from their rows. */
function carriedKinds(db: Database.Database, previous: Uint8Array, dropped: ReadonlySet<number>, added: readonly number[], oldCount: number): Uint8Array {
  const kinds = new Uint8Array(oldCount + added.length).fill(255);
  kinds.set(previous);
  for (const slot of dropped) kinds[slot] = 255;
  const rows = db.prepare('SELECT id, kind FROM chunks WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(added)) as [number, string][];
  const slotOfAdded = new Map(added.map((id, k) => [id, oldCount + k]));
  for (const [id, kind] of rows) {
    const index = CHUNK_KINDS.indexOf(kind as ChunkKind);
    if (index >= 0) kinds[slotOfAdded.get(id)!] = index;
  }
  return kinds;
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
