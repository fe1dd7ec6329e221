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
 * The corpus (N, |D|, norms) is postings-corpus.ts's, the postings term-postings.ts's.
 */
import type Database from 'better-sqlite3';
import { CHUNK_KINDS, type ChunkKind } from '../store/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import { corpusOf, FIELD_COUNT, K1, slotKinds, type Corpus, type Postings } from './postings-corpus.js';
import { kthLargest } from './kth-largest.js';
import { postingsOf } from './term-postings.js';
import { maxScoreApplies, maxScoreBest, type ExactScores, type QueryTerms } from './max-score.js';

/** One group of a query: its phrases (distinct tokens, in query order) and the repeat count they share. */
export interface PhraseGroup {
  repeat: number;
  tokens: readonly string[];
}

export type { ExactScores } from './max-score.js';

/**
 * The chunks matching any token of `groups`, with the score bm25Chunks
 * reports (`generation`: chunk-queries.ts's indexGeneration, the cache key):
 * Σ over groups (in order) of repeat × the group's bm25 with column
 * `weights`. With a `limit`, only the chunks whose key is at least the
 * limit-th best key (so every chunk tied with it too), in no promised order;
 * without, every matching chunk. Null when a term cannot be scored here (its
 * counts overflow); the caller then asks FTS5.
 */
export function exactBm25(
  store: IndexStore,
  generation: string,
  groups: readonly PhraseGroup[],
  weights: readonly number[],
  kinds?: readonly ChunkKind[],
  limit = Infinity,
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
  const weightsKey = weights.join(' ');
  const single = groups.length === 1;
  const slots: Int32Array[] = [];
  const values: Float64Array[] = [];
  const groupEnds: number[] = [];
  for (const list of lists) {
    for (const postings of list) {
      slots.push(postings.slots);
      values.push(termScores(db, corpus, postings, weights, weightsKey, integral));
    }
    groupEnds.push(slots.length);
  }
  const terms: QueryTerms = { slots, values, groupEnds, repeats: groups.map((g) => g.repeat), single };
  const allowed = kinds ? kindMask(db, corpus, kinds) : null;
  observer?.({ corpus, terms, weights, limit, allowed });
  return scoreQuery(corpus, terms, weights, limit, allowed, 'auto');
}

/** One query as {@link exactBm25} scores it: the arguments of {@link scoreQuery}. */
export interface ScoredQuery {
  corpus: Corpus;
  terms: QueryTerms;
  weights: readonly number[];
  limit: number;
  allowed: boolean[] | null;
}

let observer: ((query: ScoredQuery) => void) | null = null;

/**
 * Calls `observe` with every query this process scores from postings from
 * now on (null: stop), before it is scored; for bench/max-score-bench.mjs,
 * which scores the queries of real searches by each method. Returns the observer before.
 */
export function observeScoredQueries(observe: ((query: ScoredQuery) => void) | null): ((query: ScoredQuery) => void) | null {
  const before = observer;
  observer = observe;
  return before;
}

/** How {@link scoreQuery} scores: `auto` as searches do (the exhaustive scan, block by block or by lists as the density picks); `blocks`: block by block; `max-score`: block-max MaxScore (max-score.ts). */
export type ScanMethod = 'auto' | 'blocks' | 'max-score';

/**
 * {@link exactBm25}'s answer for a query's scored terms (`allowed`: the kinds
 * kept, by CHUNK_KINDS index, null: all). Searches (`auto`) use the exhaustive
 * scan: MaxScore returns the block scan's answer to the bit and in its order
 * (max-score.test.ts), but on the development splits' issue texts it took
 * 1.6–17× the block scan's CPU (docs/benchmarks.md, "Block-max MaxScore"), so it is there to be
 * measured (bench/max-score-bench.mjs), not chosen.
 */
export function scoreQuery(corpus: Corpus, terms: QueryTerms, weights: readonly number[], limit: number, allowed: boolean[] | null, method: ScanMethod): ExactScores {
  let postingCount = 0;
  let low = corpus.ids.length;
  let high = -1;
  for (const slots of terms.slots) {
    postingCount += slots.length;
    if (slots.length > 0) {
      low = Math.min(low, slots[0]!);
      high = Math.max(high, slots[slots.length - 1]!);
    }
  }
  const dense = postingCount * DENSE_RATIO >= high - low + 1;
  const cut = Number.isInteger(limit) && limit >= 1 && limit < corpus.ids.length;
  if (method === 'max-score') {
    if (!cut || !maxScoreApplies(weights, terms.repeats)) throw new RangeError(`max-score needs a limit below the corpus size and non-negative weights (limit ${limit})`);
    return maxScoreBest(corpus, terms, limit, allowed);
  }
  // Each loop is its own small function: one function holding them all is compiled on-stack while its first
  // loop runs, then thrown away at each later loop it had no type feedback for, so the first searches of a
  // process ran its loops unoptimized (a large tree's first timed issue text took 3x its warm time).
  const count = dense || method === 'blocks' ? scoreByBlocks(corpus, terms, low, high, allowed) : scoreByLists(corpus, terms, allowed);
  return best(corpus, count, limit, terms.single, terms.repeats[0] ?? 1);
}

/**
 * Block scoring pays a scan of the postings' slot range per group; it takes
 * over once the query has a posting per DENSE_RATIO slots of that range (the
 * issue texts of a 118k-chunk index have 1–4 per slot).
 */
const DENSE_RATIO = 4;
/**
 * Slots per block: a block's accumulators (16 bytes a slot) stay in the CPU's
 * cache while every term adds to them, where the whole corpus' do not (a
 * 118k-chunk index: 1.9 MB), and a posting's add was a cache miss.
 */
const BLOCK = 4096;

/**
 * Scores block by block of slots: in each block, every group's terms in
 * order, then the group folded in, then the block's chunks collected. Each
 * chunk sees the same additions in the same order as {@link scoreByLists}
 * (a group it does not match adds −0, which changes no sum), so the sums are
 * bitwise the same. Returns the count collected (see {@link collect}).
 */
function scoreByBlocks(corpus: Corpus, terms: QueryTerms, low: number, high: number, allowed: boolean[] | null): number {
  const cursors = new Int32Array(terms.slots.length);
  // Each term's first posting in the current block.
  const froms = new Int32Array(terms.slots.length);
  const { group, total } = corpus;
  let count = 0;
  for (let start = low; start <= high; start += BLOCK) {
    const end = Math.min(start + BLOCK, high + 1);
    // Dense per block: every slot starts at 0 and every group is folded into every slot, so the hot loop has no
    // first-touch branch (half of a common term's postings are first touches, a mispredicted branch each).
    group.fill(0, start, end);
    total.fill(0, start, end);
    let t = 0;
    for (let g = 0; g < terms.groupEnds.length; g++) {
      const first = t;
      let added = 0;
      for (; t < terms.groupEnds[g]!; t++) {
        froms[t] = cursors[t]!;
        cursors[t] = addTermInBlock(corpus, terms.slots[t]!, terms.values[t]!, froms[t]!, end);
        added += cursors[t]! - froms[t]!;
      }
      if (added >= end - start) {
        if (terms.single) total.set(group.subarray(start, end), start);
        else foldBlock(corpus, start, end, terms.repeats[g]!);
      } else {
        // Fewer postings than slots: folded at the group's postings (a chunk met twice adds −0 the second time).
        for (let u = first; u < t; u++) foldPostings(corpus, terms.slots[u]!, froms[u]!, cursors[u]!, terms.single, terms.repeats[g]!);
      }
    }
    count = collectBlock(corpus, start, end, allowed, terms.single, count);
  }
  return count;
}

/** Adds a term's per-posting scores from posting `from` up to the first slot at or past `end`, marking the chunks; returns that posting's index. */
function addTermInBlock(corpus: Corpus, slots: Int32Array, values: Float64Array, from: number, end: number): number {
  const { group: acc, mark } = corpus;
  let p = from;
  for (; p < slots.length; p++) {
    const slot = slots[p]!;
    if (slot >= end) break;
    acc[slot] = acc[slot]! + values[p]!;
    mark[slot] = 1;
  }
  return p;
}

/** Folds a group into the totals of slots `start` to `end` (exclusive) and clears its sums for the next group. */
function foldBlock(corpus: Corpus, start: number, end: number, repeat: number): void {
  const { group: acc, total } = corpus;
  for (let slot = start; slot < end; slot++) {
    // bm25Chunks' FTS5 path: Σ repeat × rank (rank = −score) over the groups, in order.
    total[slot] = total[slot]! + repeat * -acc[slot]!;
    acc[slot] = 0;
  }
}

/** {@link foldBlock} (or, for one group, the copy) at the slots of postings `from` to `to` (exclusive) only. */
function foldPostings(corpus: Corpus, slots: Int32Array, from: number, to: number, single: boolean, repeat: number): void {
  const { group: acc, total } = corpus;
  for (let p = from; p < to; p++) {
    const slot = slots[p]!;
    if (single) total[slot] = acc[slot]!;
    else {
      total[slot] = total[slot]! + repeat * -acc[slot]!;
      acc[slot] = 0;
    }
  }
}

/** {@link collect} for the slots `start` to `end` (exclusive), appended after the `count` collected so far; returns the new count. */
function collectBlock(corpus: Corpus, start: number, end: number, allowed: boolean[] | null, single: boolean, count: number): number {
  // The accumulators below `end` are done with: `group` takes the keys (count never passes the slot).
  const { total, mark, kinds, group: keys, inGroup } = corpus;
  for (let slot = start; slot < end; slot++) {
    if (mark[slot] === 0) continue;
    mark[slot] = 0;
    if (allowed && !allowed[kinds![slot]!]) continue;
    inGroup[count] = slot;
    keys[count++] = single ? total[slot]! : -total[slot]!;
  }
  return count;
}

/** Scores term by term over the whole corpus, visiting only touched slots (by list): for queries of few postings. */
function scoreByLists(corpus: Corpus, terms: QueryTerms, allowed: boolean[] | null): number {
  let touchedCount = 0;
  let t = 0;
  for (let g = 0; g < terms.groupEnds.length; g++) {
    let inGroupCount = 0;
    for (; t < terms.groupEnds[g]!; t++) inGroupCount = addTerm(corpus, terms.slots[t]!, terms.values[t]!, inGroupCount);
    touchedCount = foldGroup(corpus, inGroupCount, touchedCount, terms.single, terms.repeats[g]!);
  }
  return collect(corpus, touchedCount, allowed, terms.single);
}

/** Adds one term's per-posting scores to the group accumulator; returns the group's new slot count. */
function addTerm(corpus: Corpus, slots: Int32Array, values: Float64Array, inGroupCount: number): number {
  const { group: acc, mark, inGroup } = corpus;
  for (let p = 0; p < slots.length; p++) {
    const slot = slots[p]!;
    if ((mark[slot]! & 2) === 0) {
      mark[slot] = mark[slot]! | 2;
      acc[slot] = 0;
      inGroup[inGroupCount++] = slot;
    }
    acc[slot] = acc[slot]! + values[p]!;
  }
  return inGroupCount;
}

/** Folds a finished group into the totals (repeat × its rank); returns the new count of touched slots. */
function foldGroup(corpus: Corpus, inGroupCount: number, touchedCount: number, single: boolean, repeat: number): number {
  const { group: acc, total, mark, touched, inGroup } = corpus;
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
  return touchedCount;
}

/** The touched chunks of allowed kinds: their slots into `inGroup`, their keys into `group` (visiting the touched list); clears the marks. Returns their count. */
function collect(corpus: Corpus, touchedCount: number, allowed: boolean[] | null, single: boolean): number {
  // The group accumulator and list are free once every group is folded: they take the keys and slots.
  const { total, mark, touched, kinds, group: keys, inGroup } = corpus;
  let count = 0;
  for (let i = 0; i < touchedCount; i++) {
    const slot = touched[i]!;
    mark[slot] = 0;
    if (allowed && !allowed[kinds![slot]!]) continue;
    inGroup[count] = slot;
    // One group: FTS5 orders by the group's own bm25; several: by −Σ repeat × rank.
    keys[count++] = single ? total[slot]! : -total[slot]!;
  }
  return count;
}

/**
 * Of the `count` collected chunks (slots in `inGroup`, keys in `group`), those
 * whose key is at least the limit-th best, with ids and scores: the only ones
 * a cut at `limit` can keep, so the rest are never sorted or copied.
 */
function best(corpus: Corpus, count: number, limit: number, single: boolean, repeat: number): ExactScores {
  const { total, group: keys, inGroup } = corpus;
  const boundary = count > limit ? kthLargest(keys, limit, count) : -Infinity;
  // The kept positions into the touched list, free once collected (one pass, then outputs of their exact size).
  const { touched: at } = corpus;
  let kept = 0;
  for (let i = 0; i < count; i++) if (keys[i]! >= boundary) at[kept++] = i;
  const ids = new Float64Array(kept);
  const keptKeys = new Float64Array(kept);
  const scores = new Float64Array(kept);
  for (let k = 0; k < kept; k++) {
    const i = at[k]!;
    const slot = inGroup[i]!;
    ids[k] = corpus.ids[slot]!;
    keptKeys[k] = keys[i]!;
    // One group: the score is its bm25 × repeat (−rank × repeat); several: −Σ.
    scores[k] = single ? -(-total[slot]!) * repeat : -total[slot]!;
  }
  return { ids, keys: keptKeys, scores };
}

/** Each term's part of the score per posting (idf × saturated frequency) under the weights it was last scored with. */
const termScoreCache = new WeakMap<Postings, { weights: string; generation: string; values: Float64Array }>();

/**
 * idf × f(t, D)(k1 + 1) / (f(t, D) + norm(D)) for each posting of a term: FTS5's
 * per-phrase part of bm25, which depends only on the term, the chunk and the
 * weights. Cached with the postings (dropped with them), so a warm query adds
 * one number per posting, and keyed by the index state too (not by the corpus object, which it would keep alive): a postings list carried
 * to the next index state (postings-corpus.ts) keeps its chunks, but N and the
 * length norms change. Computed by the same expression, so the sums stay bitwise FTS5's.
 */
function termScores(db: Database.Database, corpus: Corpus, postings: Postings, weights: readonly number[], weightsKey: string, integral: boolean): Float64Array {
  const cached = termScoreCache.get(postings);
  if (cached?.weights === weightsKey && cached.generation === corpus.generation) return cached.values;
  // The loop apart from the cache lookup: compiled on-stack within this function, it was deoptimized at
  // every later cache hit (62 bailouts in 80 warm searches of a large tree).
  const values = computeTermScores(idfOf(db, corpus, postings.slots.length), corpus.norms, postings, weights, integral);
  termScoreCache.set(postings, { weights: weightsKey, generation: corpus.generation, values });
  return values;
}

function computeTermScores(idf: number, norms: Float64Array, postings: Postings, weights: readonly number[], integral: boolean): Float64Array {
  const { slots, counts } = postings;
  const values = new Float64Array(slots.length);
  for (let p = 0; p < slots.length; p++) {
    const f = integral ? integralFrequency(counts, p, weights) : repeatedFrequency(counts, p, weights);
    values[p] = idf * ((f * (K1 + 1.0)) / (f + norms[slots[p]!]!));
  }
  return values;
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

function kindMask(db: Database.Database, corpus: Corpus, kinds: readonly ChunkKind[]): boolean[] {
  slotKinds(db, corpus);
  const allowed = new Array<boolean>(256).fill(false);
  for (const kind of kinds) {
    const index = CHUNK_KINDS.indexOf(kind);
    if (index >= 0) allowed[index] = true;
  }
  return allowed;
}
