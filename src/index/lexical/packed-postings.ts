/**
 * Every term's postings and body offsets of one index state, held packed in
 * memory by a long-lived process (filled by the idle-time warm-up,
 * scoring-warmup.ts, in one scan of FTS5's instance view), so a text the
 * process has not seen reads its terms from memory instead of walking FTS5's
 * position lists one occurrence at a time (most of a first-sight search's CPU
 * on an 11k-file tree).
 *
 * Per term, two byte runs in a slice buffer: its postings (per chunk: the
 * slot's delta as a varint, a bit mask of the columns it occurs in, the count
 * of each such column as a varint) and then its body offsets (per chunk with
 * body occurrences, each offset's zigzag delta from the one before). A term is
 * unpacked on first use into the same typed arrays term-postings.ts and
 * body-phrases.ts read from SQLite — the same counts and offsets in the same
 * order, so every score computed from them is bitwise the same
 * (packed-postings.test.ts compares both paths).
 */
import type Database from 'better-sqlite3';
import { FTS_FIELDS } from '../store/index.js';
import type { PackedPostings } from './packed-store.js';
import { FIELD_COUNT, NO_POSTINGS, slotOfId, type Corpus, type Postings } from './postings-corpus.js';

const BODY = FTS_FIELDS.indexOf('body');
const COLUMN_BY_CODE = new Int8Array(128).fill(-1);
FTS_FIELDS.forEach((field, i) => (COLUMN_BY_CODE[field.charCodeAt(0)] = i));

/** One term's body offsets: those in its p-th posting's chunk are `offsets[starts[p]]` up to `offsets[starts[p + 1]]`, in FTS5's order. */
export interface BodyOffsets {
  starts: Int32Array;
  offsets: Int32Array;
}

export { emptyPacked, type PackedPostings } from './packed-store.js';

/** Read position of {@link readVarint} in the buffer being unpacked (module state: no per-value allocation in the hot loops). */
let at = 0;

/** The unsigned LEB128 varint at `at` in `bytes`; moves `at` past it. Multiplies rather than shifts, so values past 2^31 (zigzag offsets) stay exact. */
function readVarint(bytes: Uint8Array): number {
  let value = bytes[at++]!;
  if (value < 128) return value;
  value &= 127;
  let shift = 7;
  let byte: number;
  do {
    byte = bytes[at++]!;
    value += (byte & 127) * 2 ** shift;
    shift += 7;
  } while (byte >= 128);
  return value;
}

/** A packed term's postings, unpacked (null: FTS5 must score it); undefined when the term is not held and the store is not complete. */
export function unpackPostings(packed: PackedPostings, token: string): Postings | null | undefined {
  const record = packed.records.get(token);
  if (record === undefined) return packed.complete && !packed.pending.has(token) ? { slots: NO_POSTINGS.slots.slice(), counts: NO_POSTINGS.counts.slice() } : undefined;
  return unpackRecord(packed, record);
}

/**
 * The postings of record number `record` (null: FTS5 must score it), held or
 * not: a carried store keeps a dropped record's bytes, and postings-patch.ts
 * reads the state before an edit from them.
 */
export function unpackRecord(packed: PackedPostings, record: number): Postings | null {
  const n = packed.count[record]!;
  if (n < 0) return null;
  const bytes = packed.buffers[packed.buffer[record]!]!;
  const slots = new Int32Array(n);
  const counts = new Uint16Array(n * FIELD_COUNT);
  at = packed.start[record]!;
  let slot = -1;
  for (let p = 0; p < n; p++) {
    slot += readVarint(bytes);
    slots[p] = slot;
    const mask = bytes[at++]!;
    const base = p * FIELD_COUNT;
    for (let c = 0; c < FIELD_COUNT; c++) if ((mask & (1 << c)) !== 0) counts[base + c] = readVarint(bytes);
  }
  return { slots, counts };
}

/** A packed term's body offsets laid out along its (unpacked) postings; undefined when the term is not held here. */
export function unpackBodyOffsets(packed: PackedPostings, token: string, postings: Postings): BodyOffsets | undefined {
  const record = packed.records.get(token);
  if (record === undefined || packed.count[record]! < 0) return undefined;
  const { slots, counts } = postings;
  const starts = new Int32Array(slots.length + 1);
  for (let p = 0; p < slots.length; p++) starts[p + 1] = starts[p]! + counts[p * FIELD_COUNT + BODY]!;
  const offsets = new Int32Array(starts[slots.length]!);
  const bytes = packed.buffers[packed.buffer[record]!]!;
  at = packed.split[record]!;
  let previous = 0;
  for (let p = 0; p < slots.length; p++) {
    previous = 0;
    for (let k = starts[p]!; k < starts[p + 1]!; k++) {
      const value = readVarint(bytes);
      previous += value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      offsets[k] = previous;
    }
  }
  return { starts, offsets };
}

/** Scratch of {@link packRows}, grown as needed. */
let slotScratch = new Int32Array(1024);
let countScratch = new Uint16Array(1024 * FIELD_COUNT);
let offsetScratch = new Int32Array(4096);
let out = new Uint8Array(1 << 16);
let written = 0;

/** Lets the scratch of {@link packRows} go (grown to the largest term read: megabytes on a large tree) once a scan is over. */
export function releasePackScratch(): void {
  slotScratch = new Int32Array(1024);
  countScratch = new Uint16Array(1024 * FIELD_COUNT);
  offsetScratch = new Int32Array(4096);
  out = new Uint8Array(1 << 16);
}

function writeVarint(value: number): void {
  if (written + 10 > out.length) {
    const grown = new Uint8Array(out.length * 2);
    grown.set(out.subarray(0, written));
    out = grown;
  }
  while (value >= 128) {
    out[written++] = (value % 128) | 128;
    value = Math.floor(value / 128);
  }
  out[written++] = value;
}

/**
 * Packs rows of `[term, occurrences]`, the occurrences as the instance view
 * gives them (`<chunk id><column letter><offset>,` each, in FTS5's order:
 * chunk, column, offset), into one new slice buffer of `packed`. A term whose
 * rows term-postings.ts would refuse (a count over 65,535, a chunk without a
 * slot, chunks out of order) is held as "FTS5 must score it", as there.
 */
export function packRows(packed: PackedPostings, corpus: Corpus, rows: ReadonlyArray<readonly [string, string | null]>): void {
  written = 0;
  const buffer = packed.buffers.length;
  for (const [term, text] of rows) {
    // The per-record arrays' length, not records.size: a carried store has dropped records (postings-corpus.ts).
    const record = packed.buffer.length;
    packed.records.set(term, record);
    packed.pending.delete(term);
    packed.buffer.push(buffer);
    packed.start.push(written);
    const n = parseOccurrences(text ?? '', corpus);
    if (n < 0) {
      packed.split.push(written);
      packed.end.push(written);
      packed.count.push(-1);
      continue;
    }
    let previousSlot = -1;
    let bodyTotal = 0;
    for (let p = 0; p < n; p++) {
      writeVarint(slotScratch[p]! - previousSlot);
      previousSlot = slotScratch[p]!;
      const base = p * FIELD_COUNT;
      let mask = 0;
      for (let c = 0; c < FIELD_COUNT; c++) if (countScratch[base + c] !== 0) mask |= 1 << c;
      writeVarint(mask);
      for (let c = 0; c < FIELD_COUNT; c++) if (countScratch[base + c] !== 0) writeVarint(countScratch[base + c]!);
      bodyTotal += countScratch[base + BODY]!;
    }
    packed.split.push(written);
    let k = 0;
    for (let p = 0; p < n; p++) {
      let previous = 0;
      for (let b = countScratch[p * FIELD_COUNT + BODY]!; b > 0; b--, k++) {
        const delta = offsetScratch[k]! - previous;
        previous = offsetScratch[k]!;
        writeVarint(delta >= 0 ? 2 * delta : -2 * delta - 1);
      }
    }
    if (k !== bodyTotal) throw new Error('packed postings: body offsets and counts disagree');
    packed.end.push(written);
    packed.count.push(n);
  }
  packed.buffers.push(out.slice(0, written));
  packed.bytes += written;
}

/** Parses one term's occurrences into the scratch arrays; returns its postings count, −1 where term-postings.ts would refuse them. */
function parseOccurrences(text: string, corpus: Corpus): number {
  // At least three characters an occurrence (a digit, a letter, a digit) and a comma.
  const capacity = (text.length >> 2) + 1;
  if (slotScratch.length < capacity) {
    slotScratch = new Int32Array(capacity);
    countScratch = new Uint16Array(capacity * FIELD_COUNT);
  }
  if (offsetScratch.length < capacity) offsetScratch = new Int32Array(capacity);
  countScratch.fill(0, 0, capacity * FIELD_COUNT);
  let entries = 0;
  let lastId = -1;
  let base = -FIELD_COUNT;
  let offsets = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    let id = 0;
    let code = text.charCodeAt(i);
    for (; code < 58; code = text.charCodeAt(++i)) id = id * 10 + (code - 48);
    const column = code < 128 ? COLUMN_BY_CODE[code]! : -1;
    if (column < 0) return -1;
    let offset = 0;
    for (code = text.charCodeAt(++i); i < length && code !== 44; code = text.charCodeAt(++i)) offset = offset * 10 + (code - 48);
    i++;
    if (id !== lastId) {
      if (id < lastId) return -1;
      const slot = slotOfId(corpus, id);
      if (slot < 0) return -1;
      slotScratch[entries++] = slot;
      base += FIELD_COUNT;
      lastId = id;
    }
    const at = base + column;
    if (countScratch[at] === 0xffff) return -1;
    countScratch[at]!++;
    if (column === BODY) offsetScratch[offsets++] = offset;
  }
  return entries;
}

/** The SQL that reads one term's occurrences (`?`: the term) or a range's, grouped by term (`?`, `?`: first and last term). */
export function occurrenceStatements(db: Database.Database, view: string): { term: Database.Statement; range: Database.Statement } {
  const occurrences = "group_concat(doc || substr(col, 1, 1) || offset, ',')";
  return {
    term: db.prepare(`SELECT term, ${occurrences} FROM ${view} WHERE term = ?`).raw(),
    range: db.prepare(`SELECT term, ${occurrences} FROM ${view} WHERE term >= ? AND term <= ? GROUP BY term ORDER BY term`).raw(),
  };
}
