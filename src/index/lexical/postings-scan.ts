/**
 * The idle-time scan that fills an index state's packed postings
 * (packed-postings.ts): FTS5's instance view read once, in term order, a range
 * of terms per statement (~{@link RANGE_OCCURRENCES} occurrences), between
 * which the event loop runs, so a query arriving meanwhile waits at most one
 * slice. A term with more occurrences than a range is read alone (the longest
 * wait: its own read); terms already pinned by the warm-up are skipped.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { indexConnection, type IndexStore } from '../store/index.js';
import { emptyPacked, occurrenceStatements, packRows, releasePackScratch } from './packed-postings.js';
import type { Corpus } from './postings-corpus.js';
import { instanceView } from './fts-views.js';
import { vocabularyInSteps, type VocabularyRow } from './term-statistics.js';

/** Occurrences read per range statement (a slice reads ranges until its time is up). */
const RANGE_OCCURRENCES = 20_000;
/** Bytes the packed postings of one index state may take (the scan stops past it; the rest is read on demand). */
export const PACKED_BOUND = 256 * 2 ** 20;

/** Options of {@link packAllPostings}. */
export interface PackOptions {
  /** Terms to leave out (the warm-up's pinned ones, read already). */
  skip: (term: string) => boolean;
  /** The state's vocabulary in term order when the caller read it already (term-statistics.ts' vocabularyInSteps); else read here, in steps. */
  vocabulary?: readonly VocabularyRow[];
  sliceMs: number;
  /** Bytes at most (default {@link PACKED_BOUND}). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** True when the index state changed (the scan stops: its postings would be of the old state). */
  changed: () => boolean;
}

/** What a scan did. */
export interface PackReport {
  stopped: 'done' | 'budget' | 'aborted' | 'index-changed';
  terms: number;
  bytes: number;
  /** The longest slice, in milliseconds: how long a query arriving meanwhile waited at most. */
  longestSliceMs: number;
}

/**
 * Packs every term's postings and body offsets of the corpus' index state into
 * `corpus.packed`, in slices; marks them complete when every term not skipped
 * is held. Never changes an answer: searches read the same numbers from there.
 */
export async function packAllPostings(store: IndexStore, corpus: Corpus, options: PackOptions): Promise<PackReport> {
  const db = indexConnection(store);
  const maxBytes = options.maxBytes ?? PACKED_BOUND;
  const view = instanceView(db);
  const statements = occurrenceStatements(db, view);
  const packed = corpus.packed ?? (corpus.packed = emptyPacked());
  const timing = { longestSliceMs: 0 };
  const report = (stopped: PackReport['stopped']): PackReport => {
    releasePackScratch();
    return { stopped, terms: packed.records.size, bytes: packed.bytes, longestSliceMs: timing.longestSliceMs };
  };
  if (packed.complete) {
    // Carried from an earlier state (postings-corpus.ts): only the terms its edits touched are read again.
    const pending = [...packed.pending].filter((term) => !options.skip(term));
    const stopped = await inSlices(pending.length, options, timing, (i) => {
      const term = pending[i]!;
      packRows(packed, corpus, (statements.term.all(term) as Array<[string, string | null]>).filter(([held]) => held === term));
      // A term that occurs nowhere now is absent, as complete says.
      packed.pending.delete(term);
    });
    return report(stopped ?? 'done');
  }
  // Read in steps (a whole read blocked a query for ~0.4 s on an 11k-file tree), unless the caller has it.
  const vocabulary = options.vocabulary ?? (await vocabularyInSteps(store, async () => (await yieldToEventLoop(), !options.signal?.aborted && !options.changed())));
  if (!vocabulary) return report(options.signal?.aborted ? 'aborted' : 'index-changed');
  const units = planUnits(vocabulary, options.skip);
  const stopped = await inSlices(units.length, options, timing, (i) => {
    const [first, last] = units[i]!;
    const rows = (first === last ? statements.term.all(first) : statements.range.all(first, last)) as Array<[string, string | null]>;
    packRows(packed, corpus, rows.filter(([term]) => term !== null && !packed.records.has(term)));
    return packed.bytes > maxBytes ? 'budget' : undefined;
  });
  if (stopped) return report(stopped);
  packed.complete = true;
  return report('done');
}

/**
 * Runs `step(0)` to `step(count - 1)` in slices of `options.sliceMs`, yielding
 * to the event loop before each; returns why it stopped early (aborted, the
 * index state changed, or `step` said its budget is spent), else null.
 */
async function inSlices(
  count: number,
  options: PackOptions,
  timing: { longestSliceMs: number },
  step: (i: number) => 'budget' | undefined | void,
): Promise<PackReport['stopped'] | null> {
  let next = 0;
  while (next < count) {
    await yieldToEventLoop();
    if (options.signal?.aborted) return 'aborted';
    if (options.changed()) return 'index-changed';
    const started = performance.now();
    const until = started + options.sliceMs;
    do {
      if (step(next++) === 'budget') return 'budget';
    } while (next < count && performance.now() < until);
    timing.longestSliceMs = Math.max(timing.longestSliceMs, performance.now() - started);
  }
  return null;
}

/**
 * The vocabulary (term order; its rows as read, the occurrence count third) cut into `[first, last]`
 * term ranges, none holding a skipped term. The rows are read in place: a copy of ~160k pairs held
 * the event loop in one piece on an 11k-file tree.
 */
export function planUnits(vocabulary: readonly VocabularyRow[], skip: (term: string) => boolean): Array<[string, string]> {
  const units: Array<[string, string]> = [];
  let first: string | null = null;
  let last = '';
  let occurrences = 0;
  const flush = () => {
    if (first !== null) units.push([first, last]);
    first = null;
    occurrences = 0;
  };
  for (const [term, , count] of vocabulary) {
    if (skip(term)) {
      flush();
      continue;
    }
    if (count >= RANGE_OCCURRENCES) {
      flush();
      units.push([term, term]);
      continue;
    }
    if (first === null) first = term;
    last = term;
    occurrences += count;
    if (occurrences >= RANGE_OCCURRENCES) flush();
  }
  flush();
  return units;
}
