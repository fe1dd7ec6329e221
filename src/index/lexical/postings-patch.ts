/**
 * A touched term's postings in a carried corpus (postings-corpus.ts), patched
 * from its list before the edit: the removed chunks' entries left out, the
 * added chunks' counted from their field tokens the full-text log kept
 * (full-text-changes.ts: tokenized as FTS5's ascii tokenizer does). After a
 * one-file edit most of the edited file's terms are common ones ('import',
 * 'self', 'return'): reading them again from FTS5's instance view was most of
 * the next search's cost on a large tree.
 *
 * Fails closed: the patched list is used only when FTS5's own row vocabulary
 * agrees on both the chunks that hold the term and its occurrences in them;
 * else (or when the state before is unknown) undefined, and the caller reads
 * the term from the index.
 */
import type Database from 'better-sqlite3';
import { rowVocabularyView } from './fts-views.js';
import { unpackRecord } from './packed-postings.js';
import { FIELD_COUNT, type Corpus, type CorpusEdit, type Postings } from './postings-corpus.js';

/** Per edit: each token's occurrences in the added chunks, per slot (ascending) and field. */
const addedCounts = new WeakMap<CorpusEdit, Map<string, Array<{ slot: number; counts: Uint16Array }>>>();
const vocabularyRows = new WeakMap<Database.Database, Database.Statement>();

/**
 * `token`'s postings in `corpus`, patched from the carry's edit (see the module
 * comment), or undefined when they cannot be (then read them from the index).
 * Each term is patched at most once per edit.
 */
export function patchedPostings(db: Database.Database, corpus: Corpus, token: string): Postings | undefined {
  const edit = corpus.edit;
  const held = edit?.previous.get(token);
  if (!edit || held === undefined || held === null) return undefined;
  edit.previous.delete(token);
  const before = typeof held === 'number' ? (corpus.packed ? unpackRecord(corpus.packed, held) : null) : held;
  if (!before) return undefined;
  const extra = countsOf(edit).get(token) ?? [];
  let kept = 0;
  for (let p = 0; p < before.slots.length; p++) if (edit.dead[before.slots[p]!] === 0) kept++;
  const slots = new Int32Array(kept + extra.length);
  const counts = new Uint16Array(slots.length * FIELD_COUNT);
  let n = 0;
  let occurrences = 0;
  for (let p = 0; p < before.slots.length; p++) {
    if (edit.dead[before.slots[p]!] !== 0) continue;
    slots[n] = before.slots[p]!;
    for (let c = 0; c < FIELD_COUNT; c++) occurrences += counts[n * FIELD_COUNT + c] = before.counts[p * FIELD_COUNT + c]!;
    n++;
  }
  // Added chunks' slots come after every other slot (postings-corpus.ts), so the list stays in slot order.
  for (const row of extra) {
    slots[n] = row.slot;
    for (let c = 0; c < FIELD_COUNT; c++) occurrences += counts[n * FIELD_COUNT + c] = row.counts[c]!;
    n++;
  }
  let statement = vocabularyRows.get(db);
  if (!statement) vocabularyRows.set(db, (statement = db.prepare(`SELECT doc, cnt FROM ${rowVocabularyView(db)} WHERE term = ?`).raw()));
  const [documents, total] = (statement.get(token) as [number, number] | undefined) ?? [0, 0];
  if (documents !== n || total !== occurrences) return undefined;
  edit.patched++;
  return { slots, counts };
}

function countsOf(edit: CorpusEdit): Map<string, Array<{ slot: number; counts: Uint16Array }>> {
  let byToken = addedCounts.get(edit);
  if (byToken) return byToken;
  byToken = new Map();
  for (const row of edit.added) {
    for (let c = 0; c < FIELD_COUNT; c++) {
      for (const token of row.fields[c] ?? []) {
        let list = byToken.get(token);
        if (!list) byToken.set(token, (list = []));
        let last = list[list.length - 1];
        if (last?.slot !== row.slot) list.push((last = { slot: row.slot, counts: new Uint16Array(FIELD_COUNT) }));
        // A count past 0xffff would wrap: the vocabulary check then fails and the term is read from the index.
        last.counts[c]!++;
      }
    }
  }
  addedCounts.set(edit, byToken);
  return byToken;
}
