/**
 * Exact phrase lookups in chunk bodies without FTS5, once a process has read
 * an index state's postings (term-postings.ts).
 *
 * FTS5 answers `body : "a b c"` by walking the whole position list of every
 * token of the phrase, and a pasted message's lookups (a dozen per issue text,
 * each shortened from the front until it matches) cost ~0.4 ms each that way
 * when their words are common. Here: the chunks whose bodies hold every token
 * (the postings' per-column counts, rarest token first, each token's postings
 * read only while some chunk remains; most lookups stop here with none), then
 * the tokens' body offsets in those chunks — FTS5's own offsets, read once per
 * term through its instance view — checked for a consecutive run. The same chunks FTS5 finds (term-postings.test.ts compares
 * both); chunk-queries.ts orders and cuts them.
 */
import type Database from 'better-sqlite3';
import { FTS_FIELDS } from '../store/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import { FIELD_COUNT, readCorpus, type Corpus, type Postings } from './postings-corpus.js';
import { unpackBodyOffsets, type BodyOffsets } from './packed-postings.js';
import { instanceView } from './fts-views.js';
import { cachedPostingsOf, isPlainIndexToken, postingsOf } from './term-postings.js';
import { termStatistics } from './term-statistics.js';

const BODY = FTS_FIELDS.indexOf('body');


/** Keyed by the postings they extend, so they go when a corpus drops its cached postings. */
const offsetCache = new WeakMap<Postings, BodyOffsets | null>();
const offsetStatements = new WeakMap<Database.Database, Database.Statement>();

/**
 * Ids of every chunk whose body holds `tokens` as a consecutive sequence,
 * ascending (with `stopAfter`: once more than that many are found, those
 * found so far, `stopAfter` + 1 of them, are returned); null when this index state's postings were never read by this
 * connection (a one-shot process), a token is not a plain index token, or a
 * term's postings or offsets cannot be read here — then FTS5 answers.
 */
export function bodyPhraseChunks(store: IndexStore, generation: string, tokens: readonly string[], stopAfter = Infinity): number[] | null {
  const corpus = readCorpus(store, generation);
  if (!corpus || !tokens.every(isPlainIndexToken)) return null;
  if (tokens.length === 0) return [];
  const db = indexConnection(store);
  const distinct = [...new Set(tokens)];
  // Rarest first by FTS5's document counts (cheap, cached), and postings read one token at a time: most lookups
  // end with no chunk holding every word, so the common words of a message ("the", "is") are read only when some remain.
  const documents = documentCounts(store, corpus, distinct);
  const byRarity = distinct.map((_, i) => i).sort((a, b) => documents[a]! - documents[b]!);
  const lists: Postings[] = new Array<Postings>(distinct.length);
  // Chunks whose body holds every token so far: candidate c's posting index of token t at at[c × width + t]
  // (one flat array: a common rarest word leaves ~10^4 candidates, and an array each was most of a lookup's garbage).
  const width = distinct.length;
  let at = new Int32Array(0);
  let count = 0;
  const rarest = byRarity[0]!;
  for (const t of byRarity) {
    const postings = postingsOf(db, corpus, distinct[t]!);
    if (!postings) return null;
    lists[t] = postings;
    if (t === rarest) {
      at = new Int32Array(postings.slots.length * width);
      for (let p = 0; p < postings.slots.length; p++) {
        if (postings.counts[p * FIELD_COUNT + BODY] === 0) continue;
        at[count++ * width + t] = p;
      }
    } else {
      const rarestSlots = lists[rarest]!.slots;
      let kept = 0;
      for (let c = 0; c < count; c++) {
        const index = postingIndex(postings, rarestSlots[at[c * width + rarest]!]!);
        if (index < 0 || postings.counts[index * FIELD_COUNT + BODY] === 0) continue;
        if (kept !== c) for (let k = 0; k < width; k++) at[kept * width + k] = at[c * width + k]!;
        at[kept++ * width + t] = index;
      }
      count = kept;
    }
    if (count === 0) return [];
  }
  const offsets: BodyOffsets[] = [];
  for (let t = 0; t < distinct.length; t++) {
    const read = bodyOffsetsOf(db, corpus, distinct[t]!, lists[t]!);
    if (!read) return null;
    offsets.push(read);
  }
  const sequence = tokens.map((token) => distinct.indexOf(token));
  const ids: number[] = [];
  for (let c = 0; c < count; c++) {
    if (holdsRun(offsets, sequence, at, c * width)) ids.push(corpus.ids[lists[0]!.slots[at[c * width]!]!]!);
    if (ids.length > stopAfter) break;
  }
  return ids;
}

/** Chunks holding each token: its cached postings' length, else FTS5's document count (one statistics call, only when some token is new). */
function documentCounts(store: IndexStore, corpus: Corpus, tokens: readonly string[]): number[] {
  const counts = tokens.map((token) => cachedPostingsOf(corpus, token)?.slots.length ?? -1);
  if (counts.every((n) => n >= 0)) return counts;
  const { documents } = termStatistics(store, tokens);
  return tokens.map((token, i) => (counts[i]! >= 0 ? counts[i]! : documents.get(token)!));
}

/** Whether the chunk (each token's posting index in `at` from `base`) has the tokens of `sequence` at consecutive body offsets. */
function holdsRun(offsets: BodyOffsets[], sequence: number[], at: Int32Array, base: number): boolean {
  const first = offsets[sequence[0]!]!;
  const p = at[base + sequence[0]!]!;
  for (let i = first.starts[p]!; i < first.starts[p + 1]!; i++) {
    const start = first.offsets[i]!;
    let k = 1;
    for (; k < sequence.length; k++) {
      const t = sequence[k]!;
      if (!hasOffset(offsets[t]!, at[base + t]!, start + k)) break;
    }
    if (k === sequence.length) return true;
  }
  return false;
}

/**
 * Reads and caches a term's body offsets now (scoring-warmup.ts), as the first phrase lookup holding it would;
 * false when this index state's postings were never read here or the term cannot be read this way.
 */
export function warmBodyOffsets(store: IndexStore, generation: string, token: string): boolean {
  const corpus = readCorpus(store, generation);
  if (!corpus || !isPlainIndexToken(token)) return false;
  const db = indexConnection(store);
  const postings = postingsOf(db, corpus, token);
  if (!postings) return false;
  return bodyOffsetsOf(db, corpus, token, postings) !== null;
}

/** Whether the p-th posting's chunk has the term at body offset `offset`. */
function hasOffset(read: BodyOffsets, p: number, offset: number): boolean {
  return indexOfSorted(read.offsets, read.starts[p]!, read.starts[p + 1]! - 1, offset) >= 0;
}

/** Index of `slot` in the postings (their slots ascend), −1 when the term is not in that chunk. */
function postingIndex(list: Postings, slot: number): number {
  return indexOfSorted(list.slots, 0, list.slots.length - 1, slot);
}

/** Binary search for `value` in the ascending `values[low..high]`: its index, or −1. */
function indexOfSorted(values: ArrayLike<number>, low: number, high: number, value: number): number {
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = values[mid]!;
    if (at === value) return mid;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * A term's body offsets from FTS5's instance view (`<chunk id> <offset>` pairs
 * in FTS5's order: chunk, then offset), laid out along its postings; null when
 * they disagree with the postings' body counts (then FTS5 answers).
 */
function bodyOffsetsOf(db: Database.Database, corpus: Corpus, token: string, postings: Postings): BodyOffsets | null {
  const known = offsetCache.get(postings);
  if (known !== undefined) return known;
  const unpacked = corpus.packed ? unpackBodyOffsets(corpus.packed, token, postings) : undefined;
  if (unpacked) {
    offsetCache.set(postings, unpacked);
    return unpacked;
  }
  let statement = offsetStatements.get(db);
  if (!statement) {
    statement = db.prepare(`SELECT group_concat(doc || ' ' || offset, ' ') FROM ${instanceView(db)} WHERE term = ? AND col = 'body'`).pluck();
    offsetStatements.set(db, statement);
  }
  const read = parseOffsets((statement.get(token) as string | null) ?? '', corpus, postings);
  offsetCache.set(postings, read);
  return read;
}

function parseOffsets(text: string, corpus: Corpus, postings: Postings): BodyOffsets | null {
  const { slots, counts } = postings;
  const starts = new Int32Array(slots.length + 1);
  for (let p = 0; p < slots.length; p++) starts[p + 1] = starts[p]! + counts[p * FIELD_COUNT + BODY]!;
  const offsets = new Int32Array(starts[slots.length]!);
  let filled = 0;
  let p = 0;
  let i = 0;
  const end = text.length;
  while (i < end) {
    let doc = 0;
    for (; i < end && text.charCodeAt(i) !== 32; i++) doc = doc * 10 + (text.charCodeAt(i) - 48);
    i++;
    let offset = 0;
    for (; i < end && text.charCodeAt(i) !== 32; i++) offset = offset * 10 + (text.charCodeAt(i) - 48);
    i++;
    // The next offset belongs to the first posting (in chunk order) with body occurrences left.
    while (p < slots.length && filled === starts[p + 1]) p++;
    if (p === slots.length || corpus.ids[slots[p]!] !== doc || filled >= offsets.length) return null;
    offsets[filled++] = offset;
  }
  return filled === offsets.length ? { starts, offsets } : null;
}
