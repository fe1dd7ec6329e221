/**
 * Idle-time warm-up of what exact scoring reads lazily, term by term: the
 * postings (term-postings.ts), the document frequencies (term-statistics.ts)
 * and the body offsets of phrase lookups (body-phrases.ts) of the index
 * state's most frequent terms, pinned; then every other term's postings and
 * body offsets, packed (packed-postings.ts, in one scan: postings-scan.ts).
 *
 * Why: a long-lived process (MCP server, web view, agent) answers issue texts
 * it has never seen; each brings ~90 informative terms, and reading a common
 * term's postings from FTS5's instance view is most of the first search of a
 * text (yt-dlp, 26 LocBench issue texts: CPU 1.1-1.2 s for their first runs
 * against 0.47-0.52 s for repeats; warmed, 0.62-0.74 s). Repeats are cheap
 * because those reads are cached; the warm-up fills the same caches ahead of
 * time, so answers are identical by construction (the same functions read the
 * same rows) and only their cost moves to idle time.
 *
 * It runs in slices of a few milliseconds between which the event loop runs
 * (the vocabulary too is read in pages), so a query arriving meanwhile waits
 * at most one slice, or one frequent term's read, or the corpus' first read; it stops when the
 * index state changes (its caches would be of the old state), when aborted, or
 * at its entry budget (below the caches' own bounds, so the next search does
 * not drop them). Most frequent first: a term's read cost grows with its
 * postings, and rare terms (in one chunk) are cheap to read on demand.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { warmBodyOffsets } from './body-phrases.js';
import { indexGeneration } from '../store/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import { corpusInSteps, corpusOf, POSTINGS_BOUND, readCorpus } from './postings-corpus.js';
import { packAllPostings } from './postings-scan.js';
import { isPlainIndexToken, postingsOf } from './term-postings.js';
import { byFrequency, primeTermStatistics, TERM_STATISTICS_BOUND, vocabularyInSteps } from './term-statistics.js';

/** Options of {@link warmScoring}. */
export interface WarmScoringOptions {
  /** Stops the warm-up at the next slice. */
  signal?: AbortSignal;
  /** Postings entries to read at most (default: a quarter of the postings cache's bound). */
  maxEntries?: number;
  /** Milliseconds of work between two yields to the event loop (default 8). */
  sliceMs?: number;
  /**
   * After the pinned terms, pack every other term's postings and body offsets (postings-scan.ts; default true),
   * in at most this many bytes (default: postings-scan.ts's PACKED_BOUND) when a number.
   */
  pack?: boolean | number;
  /**
   * Run after the postings, once per index state, each in a turn of its own
   * (see {@link IdleWarmer}); skipped when the warm-up is aborted or the state changes.
   */
  warmers?: readonly IdleWarmer[];
}

/**
 * Idle-time work of a layer above the index for one index state (the search
 * pipeline's per-state data: documentation corpus, file documents, priors,
 * and the compiled code of a whole search). The index cannot call upward, so
 * the layer that owns the work passes it in. Must not change any answer:
 * only fill caches an answer would fill itself.
 */
export type IdleWarmer = (store: IndexStore) => void | Promise<void>;

/** What a warm-up did. */
export interface WarmScoringReport {
  /** Terms whose postings (and body offsets) are now cached. */
  terms: number;
  /** Postings entries read. */
  entries: number;
  /** Why it stopped. */
  stopped: 'done' | 'budget' | 'aborted' | 'index-changed';
  /** Idle warmers that ran (WarmScoringOptions.warmers). */
  warmers: number;
  /** Terms held packed (packed-postings.ts) and the bytes they take; `packedComplete`: every term of the state is held (pinned or packed). */
  packedTerms?: number;
  packedBytes?: number;
  packedComplete?: boolean;
  /** The packing scan's longest slice in milliseconds (a query arriving meanwhile waited at most that). */
  packedLongestSliceMs?: number;
}

/** Document frequencies stored per step of the warm-up (a few milliseconds each). */
const PRIME_STEP = 20_000;

/** Terms in fewer chunks than this are left to on-demand reads (cheap: one short posting list each). */
const MIN_DOCUMENTS = 2;

/**
 * Warms the scoring caches of the store's current index state (see the module
 * comment). Resolves when done, aborted or out of budget; never changes what
 * a search answers.
 */
export async function warmScoring(store: IndexStore, options: WarmScoringOptions = {}): Promise<WarmScoringReport> {
  const maxEntries = options.maxEntries ?? Math.floor(POSTINGS_BOUND / 4);
  const sliceMs = options.sliceMs ?? 8;
  const generation = indexGeneration(store);
  // Idle time starts after the current turn: a refresh that starts the warm-up resolves first, so the call that
  // refreshed answers before the vocabulary pass below (tens of milliseconds on a mid-size tree) instead of after it.
  await yieldToEventLoop();
  if (options.signal?.aborted) return { terms: 0, entries: 0, stopped: 'aborted', warmers: 0 };
  if (indexGeneration(store) !== generation) return { terms: 0, entries: 0, stopped: 'index-changed', warmers: 0 };
  const db = indexConnection(store);
  const between = async () => (await yieldToEventLoop(), !options.signal?.aborted && indexGeneration(store) === generation);
  const halted = (): WarmScoringReport => ({ terms: 0, entries: 0, stopped: options.signal?.aborted ? 'aborted' : 'index-changed', warmers: 0 });
  // The corpus and the vocabulary in pages, the event loop running between them: read whole they blocked a call
  // for ~70 and ~400 ms on an 11k-file tree.
  const corpus = await corpusInSteps(db, generation, between);
  if (!corpus) return halted();
  // A state carried from a warmed one (postings-corpus.ts) holds that warm-up's postings and frequencies less the terms
  // its edits touched: only those are pinned again, the pinned and the packed ones alike (a one-file edit: a few hundred
  // terms, mostly patched from their lists before the edit: postings-patch.ts), not the vocabulary.
  const touched = corpus.carried ? [...new Set([...corpus.carried.repin, ...(corpus.packed?.pending ?? [])])] : [];
  const rows = corpus.carried ? null : await vocabularyInSteps(store, between);
  if (!corpus.carried && !rows) return halted();
  const vocabulary = rows ? byFrequency(rows, 1) : touched.map((term): [string, number] => [term, MIN_DOCUMENTS]);
  // Every term, those in one chunk too: their frequencies are one pass, their postings are left to on-demand reads.
  // Document frequencies first, all in one pass: the vocabulary read already holds them.
  if (!corpus.carried) {
    // In steps too: all at once it held a query for ~60 ms on an 11k-file tree.
    const primed = vocabulary.slice(0, TERM_STATISTICS_BOUND - 1);
    for (let from = 0; from < primed.length; from += PRIME_STEP) {
      primeTermStatistics(store, generation, primed.slice(from, from + PRIME_STEP));
      if (!(await between())) return halted();
    }
  }
  let terms = 0;
  let entries = 0;
  let next = 0;
  const changed = () => indexGeneration(store) !== generation || corpusOf(db, generation) !== corpus;
  let stopped: 'done' | 'budget' = 'done';
  filling: while (next < vocabulary.length) {
    await yieldToEventLoop();
    if (options.signal?.aborted) return { terms, entries, stopped: 'aborted', warmers: 0 };
    if (changed()) return { terms, entries, stopped: 'index-changed', warmers: 0 };
    const until = performance.now() + sliceMs;
    while (next < vocabulary.length && performance.now() < until) {
      const [term, documents] = vocabulary[next++]!;
      if (documents < MIN_DOCUMENTS) {
        next = vocabulary.length;
        break;
      }
      if (!isPlainIndexToken(term)) continue;
      // A carried state's touched terms take the place of lists the edit dropped: no budget of their own.
      if (!corpus.carried && entries + documents > maxEntries) {
        stopped = 'budget';
        break filling;
      }
      const postings = postingsOf(db, corpus, term, true);
      // Pinned now, so never looked up packed: no longer waiting to be packed again.
      if (corpus.carried) corpus.packed?.pending.delete(term);
      if (!postings) continue;
      // A touched term's body offsets are left to the phrase lookup that needs one (most never do).
      if (!corpus.carried) warmBodyOffsets(store, generation, term);
      entries += postings.slots.length;
      terms++;
    }
  }
  // Then every other term, packed: a text's mid-frequency terms are most of a large tree's first-sight reads.
  const packing = options.pack ?? true;
  let packedLongestSliceMs = 0;
  const packedReport = () => ({ packedTerms: corpus.packed?.records.size ?? 0, packedBytes: corpus.packed?.bytes ?? 0, packedComplete: corpus.packed?.complete ?? false, packedLongestSliceMs });
  if (packing !== false) {
    const packed = await packAllPostings(store, corpus, {
      vocabulary: rows ?? undefined,
      skip: (term) => corpus.pinned.has(term),
      sliceMs,
      maxBytes: typeof packing === 'number' ? packing : undefined,
      signal: options.signal,
      changed,
    });
    packedLongestSliceMs = packed.longestSliceMs;
    if (packed.stopped === 'aborted' || packed.stopped === 'index-changed') return { terms, entries, stopped: packed.stopped, warmers: 0, ...packedReport() };
    if (packed.stopped === 'budget') stopped = 'budget';
  }
  // After the postings, so a warmer's search finds them read (and does not read them itself, out of slices).
  let warmers = 0;
  for (const warmer of options.warmers ?? []) {
    await yieldToEventLoop();
    if (options.signal?.aborted) return { terms, entries, stopped: 'aborted', warmers, ...packedReport() };
    if (changed()) return { terms, entries, stopped: 'index-changed', warmers, ...packedReport() };
    await warmer(store);
    warmers++;
  }
  if (changed()) return { terms, entries, stopped: 'index-changed', warmers, ...packedReport() };
  corpus.warmed = true;
  return { terms, entries, stopped, warmers, ...packedReport() };
}

/** Whether the store's current index state was warmed in this process and its caches are still whole. */
export function scoringWarm(store: IndexStore): boolean {
  return readCorpus(store, indexGeneration(store))?.warmed === true;
}
