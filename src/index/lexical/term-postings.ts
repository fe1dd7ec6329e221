/**
 * Term postings read from FTS5's own index: for one token, the corpus slot of
 * every chunk it occurs in and its count per FTS field, through an
 * `fts5vocab` instance view (nothing is stored twice), parsed into typed
 * arrays and cached in the generation's corpus (postings-corpus.ts). Only the
 * query's terms are read, each once per index state.
 */
import type Database from 'better-sqlite3';
import { FTS_FIELDS } from '../store/index.js';
import { instanceView } from './fts-views.js';
import { unpackPostings } from './packed-postings.js';
import { FIELD_COUNT, slotOfId, type Corpus, type Postings } from './postings-corpus.js';
import { patchedPostings } from './postings-patch.js';

/** Column of each field's first letter: the instance view names columns, and a one-letter tag keeps the transfer small. */
const COLUMN_OF_LETTER = new Map(FTS_FIELDS.map((field, i) => [field.charCodeAt(0), i]));
/** {@link COLUMN_OF_LETTER} as a table over ASCII codes (−1: not a column letter), for the parse loop. */
const COLUMN_BY_CODE = new Int8Array(128).fill(-1);
for (const [code, column] of COLUMN_OF_LETTER) COLUMN_BY_CODE[code] = column;
if (COLUMN_OF_LETTER.size !== FIELD_COUNT) throw new Error('FTS field names must differ in their first letter (term-postings.ts)');

/** A token FTS5's ascii tokenizer keeps as one token unchanged, so its phrase query and its postings agree. */
export function isPlainIndexToken(token: string): boolean {
  return /^[a-z0-9_]+$/.test(token);
}

const instanceStatements = new WeakMap<Database.Database, Database.Statement>();


/**
 * A term's postings from FTS5's index, cached (null: a count does not fit, so
 * this term must be scored by FTS5); `pin`: kept for the index state's life,
 * outside the on-demand cache's bound (the warm-up's reads).
 */
export function postingsOf(db: Database.Database, corpus: Corpus, token: string, pin = false): Postings | null {
  const known = cachedPostingsOf(corpus, token);
  if (known !== undefined) {
    // Read on demand before the warm-up came to it: pinned now, so the next drop keeps it.
    if (pin && !corpus.pinned.has(token)) {
      corpus.pinned.set(token, known);
      corpus.postings.delete(token);
      corpus.cachedPostings -= known ? known.slots.length : 0;
    }
    return known;
  }
  // Held packed (a long-lived process's warm-up read every term): the same numbers, from memory.
  const unpacked = corpus.packed ? unpackPostings(corpus.packed, token) : undefined;
  if (unpacked !== undefined) return cachePostings(corpus, token, unpacked, pin);
  // Touched by the edit this corpus was carried over: patched from the list before it when FTS5's vocabulary agrees.
  const patched = patchedPostings(db, corpus, token);
  if (patched !== undefined) return cachePostings(corpus, token, patched, pin);
  let statement = instanceStatements.get(db);
  if (!statement) {
    // One string per term, `<chunk id><column letter>` per occurrence, in FTS5's order (chunk, then column, then offset).
    statement = db.prepare(`SELECT group_concat(doc || substr(col, 1, 1), '') FROM ${instanceView(db)} WHERE term = ?`).pluck();
    instanceStatements.set(db, statement);
  }
  return cachePostings(corpus, token, parsePostings((statement.get(token) as string | null) ?? '', corpus), pin);
}

function cachePostings(corpus: Corpus, token: string, postings: Postings | null, pin: boolean): Postings | null {
  if (pin) corpus.pinned.set(token, postings);
  else {
    corpus.postings.set(token, postings);
    corpus.cachedPostings += postings ? postings.slots.length : 0;
  }
  return postings;
}

/** A term's postings when this corpus holds them (pinned or on demand; null: FTS5 must score it), else undefined. */
export function cachedPostingsOf(corpus: Corpus, token: string): Postings | null | undefined {
  const pinned = corpus.pinned.get(token);
  return pinned !== undefined ? pinned : corpus.postings.get(token);
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

