/**
 * Block-max MaxScore: the best `limit` chunks of a query without adding
 * every posting of every term (exact-bm25.ts' exhaustive scan), to the same
 * bits and in the same order.
 *
 * Each term's postings are cut into blocks of {@link BLOCK_SLOTS} slots and
 * each block keeps the term's largest per-posting score there (cached with
 * the term's scores). Terms are ranked by their largest score; those whose
 * bounds sum below the current cut (the limit-th best key so far) are
 * non-essential: a chunk matching only them cannot reach the cut, so blocks
 * where no essential term occurs are never visited, a block whose terms'
 * block maxima sum below the cut is skipped whole, and a chunk whose
 * essential scores plus the block maxima of the others fall below it is not
 * scored. Every other chunk is scored exactly as the exhaustive scan does:
 * its terms in query order, each group folded in order, so its key and score
 * are bitwise the scan's (max-score.test.ts compares them on generated
 * corpora and queries). Bounds are taken with a relative margin of
 * {@link MARGIN}, far above the rounding of a float sum of a few thousand
 * non-negative terms, so no chunk at or above the final cut is left out.
 */
import { siftDown } from './kth-largest.js';
import type { Corpus } from './postings-corpus.js';

/** A query's terms in order, group by group: each term's postings' slots and per-posting scores, where each group ends, its repeat. */
export interface QueryTerms {
  slots: Int32Array[];
  values: Float64Array[];
  /** Index (into slots/values) one past each group's last term. */
  groupEnds: number[];
  repeats: number[];
  single: boolean;
}

/** Chunks' exact FTS5 results: `key` orders as FTS5's rank does (higher first), `score` is bm25Chunks' score. */
export interface ExactScores {
  ids: Float64Array;
  keys: Float64Array;
  scores: Float64Array;
}

/** log2 of the slots per block of a term's block maxima: small blocks bound tightly, and a query visits a block per ~90 terms' check. */
const SHIFT = 7;
const BLOCK_SLOTS = 1 << SHIFT;
/** Bounds are multiplied by this before a comparison with the cut (see the module comment). */
const MARGIN = 1 + 1e-6;

/** A term's blocks that hold postings: block number, first posting (one more entry: the end), largest score (≥ 0). */
interface TermBlocks {
  blocks: Int32Array;
  starts: Int32Array;
  maxes: Float64Array;
  max: number;
}

/** Block maxima of a term's scores, cached with the scores array (itself cached per postings and weights). */
const blockCache = new WeakMap<Float64Array, TermBlocks>();

function termBlocks(slots: Int32Array, values: Float64Array): TermBlocks {
  const cached = blockCache.get(values);
  if (cached) return cached;
  let count = 0;
  let last = -1;
  for (let p = 0; p < slots.length; p++) {
    const block = slots[p]! >> SHIFT;
    if (block !== last) {
      count++;
      last = block;
    }
  }
  const blocks = new Int32Array(count);
  const starts = new Int32Array(count + 1);
  const maxes = new Float64Array(count);
  let max = 0;
  let b = -1;
  last = -1;
  for (let p = 0; p < slots.length; p++) {
    const block = slots[p]! >> SHIFT;
    if (block !== last) {
      b++;
      blocks[b] = block;
      starts[b] = p;
      last = block;
    }
    const value = values[p]!;
    if (value > maxes[b]!) maxes[b] = value;
    if (value > max) max = value;
  }
  starts[count] = slots.length;
  const made = { blocks, starts, maxes, max };
  blockCache.set(values, made);
  return made;
}

/** Whether {@link maxScoreBest} may score a query: scores must be non-negative (weights ≥ 0) and repeats positive, for the bounds to hold. */
export function maxScoreApplies(weights: readonly number[], repeats: readonly number[]): boolean {
  return weights.every((w) => Number.isFinite(w) && w >= 0) && repeats.every((r) => Number.isFinite(r) && r > 0);
}

/**
 * The chunks (of `allowed` kinds, null: all) whose key is at least the
 * `limit`-th best key, every chunk tied with it too, in ascending slot order:
 * what exact-bm25.ts' block scan and its cut return, with the same keys and
 * scores to the bit.
 */
export function maxScoreBest(corpus: Corpus, terms: QueryTerms, limit: number, allowed: boolean[] | null): ExactScores {
  const n = terms.slots.length;
  const factor = new Float64Array(n);
  for (let g = 0, t = 0; g < terms.groupEnds.length; g++) for (; t < terms.groupEnds[g]!; t++) factor[t] = terms.single ? 1 : terms.repeats[g]!;
  const info: TermBlocks[] = [];
  for (let t = 0; t < n; t++) info.push(termBlocks(terms.slots[t]!, terms.values[t]!));
  // Terms by ascending bound; a prefix whose bounds sum below the cut is non-essential.
  const order = Array.from({ length: n }, (_, t) => t).sort((a, b) => factor[a]! * info[a]!.max - factor[b]! * info[b]!.max);
  const prefix = new Float64Array(n + 1);
  for (let j = 0; j < n; j++) prefix[j + 1] = prefix[j]! + factor[order[j]!]! * info[order[j]!]!.max;
  const essential = new Uint8Array(n).fill(1);
  let cut = 0;

  const heap = new Float64Array(limit);
  let heapSize = 0;
  let theta = -Infinity;
  const out = new Scored();

  const blockAt = new Int32Array(n);
  const postingAt = new Int32Array(n);
  const present = new Int32Array(n);
  const survivor = new Int32Array(BLOCK_SLOTS);
  const probeAt = new Int32Array(n);
  const others = new Int32Array(n);
  const otherMax = new Float64Array(n);
  const totals = new Float64Array(BLOCK_SLOTS);
  const { group: estimate, mark, kinds } = corpus;
  const slotCount = corpus.ids.length;
  let lastBlock = -1;
  for (;;) {
    // The next block holding an essential term's postings.
    let block = 0x7fffffff;
    for (let t = 0; t < n; t++) {
      if (essential[t] === 0) continue;
      const { blocks } = info[t]!;
      let c = blockAt[t]!;
      while (c < blocks.length && blocks[c]! <= lastBlock) c++;
      blockAt[t] = c;
      if (c < blocks.length && blocks[c]! < block) block = blocks[c]!;
    }
    if (block === 0x7fffffff) break;
    lastBlock = block;
    // Every term's place at this block: the bound of the whole block and of the non-essential terms there.
    let presentCount = 0;
    let otherCount = 0;
    let blockBound = 0;
    let otherBound = 0;
    for (let t = 0; t < n; t++) {
      const { blocks, maxes, starts } = info[t]!;
      let c = blockAt[t]!;
      while (c < blocks.length && blocks[c]! < block) c++;
      blockAt[t] = c;
      if (c < blocks.length && blocks[c] === block) {
        present[presentCount++] = t;
        postingAt[t] = starts[c]!;
        probeAt[t] = starts[c]!;
        const bound = factor[t]! * maxes[c]!;
        blockBound += bound;
        if (essential[t] === 0) {
          otherBound += bound;
          // Kept in descending bound order (a few terms: insertion).
          let i = otherCount++;
          for (; i > 0 && factor[others[i - 1]!]! * otherMax[i - 1]! < bound; i--) {
            others[i] = others[i - 1]!;
            otherMax[i] = otherMax[i - 1]!;
          }
          others[i] = t;
          otherMax[i] = maxes[c]!;
        }
      }
    }
    if (blockBound * MARGIN < theta) continue;
    const start = block << SHIFT;
    const end = Math.min(start + BLOCK_SLOTS, slotCount);
    // The essential terms' scores summed per chunk (any order: a bound, not a key); the exhaustive scan leaves keys in this scratch.
    estimate.fill(0, start, end);
    for (let i = 0; i < presentCount; i++) {
      const t = present[i]!;
      if (essential[t] === 0) continue;
      const c = blockAt[t]!;
      const { starts } = info[t]!;
      const slots = terms.slots[t]!;
      const values = terms.values[t]!;
      const f = factor[t]!;
      for (let p = starts[c]!, end = starts[c + 1]!; p < end; p++) {
        const slot = slots[p]!;
        estimate[slot] = estimate[slot]! + f * values[p]!;
        mark[slot] = 1;
      }
    }
    // The chunks that may still reach the cut.
    let survivors = 0;
    for (let slot = start; slot < end; slot++) {
      if (mark[slot] === 0) continue;
      mark[slot] = 0;
      if (allowed && !allowed[kinds![slot]!]) continue;
      let bound = estimate[slot]! + otherBound;
      if (bound * MARGIN < theta) continue;
      // The non-essential terms' block maxima replaced by the chunk's own scores, largest first, until it cannot reach the cut.
      for (let i = 0; i < otherCount && bound * MARGIN >= theta; i++) {
        const t = others[i]!;
        const f = factor[t]!;
        bound -= f * otherMax[i]!;
        const slots = terms.slots[t]!;
        const p = (probeAt[t] = seek(slots, probeAt[t]!, info[t]!.starts[blockAt[t]! + 1]!, slot));
        if (p < slots.length && slots[p] === slot) bound += f * terms.values[t]![p]!;
      }
      if (bound * MARGIN < theta) continue;
      survivor[survivors++] = slot;
    }
    if (survivors === 0) continue;
    // Their exact sums: a search per term and chunk when they are few, else the block's postings added as the scan adds them.
    let blockPostings = 0;
    for (let i = 0; i < presentCount; i++) blockPostings += info[present[i]!]!.starts[blockAt[present[i]!]! + 1]! - postingAt[present[i]!]!;
    if (survivors * presentCount * 6 < blockPostings) {
      for (let i = 0; i < survivors; i++) totals[i] = exactTotal(terms, info, present, presentCount, blockAt, postingAt, survivor[i]!);
    } else blockTotals(terms, info, present, presentCount, blockAt, start, end, survivor, survivors, totals);
    for (let i = 0; i < survivors; i++) {
      const total = totals[i]!;
      const key = terms.single ? total : -total;
      if (key < theta) continue;
      out.push(survivor[i]!, key, terms.single ? -(-total) * terms.repeats[0]! : -total);
      // The heap keeps the `limit` best keys; its least is the cut once it is full.
      if (heapSize < limit) {
        heapUp(heap, heapSize++, key);
        if (heapSize === limit) theta = heap[0]!;
      } else if (key > heap[0]!) {
        heap[0] = key;
        siftDown(heap, 0, limit);
        theta = heap[0]!;
      } else continue;
      while (cut < n && prefix[cut + 1]! * MARGIN < theta) essential[order[cut++]!] = 0;
    }
  }
  return out.from(corpus, theta);
}

/**
 * A chunk's sum as the exhaustive scan forms it: one group, its terms' scores
 * added in query order from 0; several, Σ repeat × −(the group's sum) over the
 * groups in order (a group it does not match adds −0, as in the scan).
 */
function exactTotal(
  terms: QueryTerms,
  info: readonly TermBlocks[],
  present: Int32Array,
  presentCount: number,
  blockAt: Int32Array,
  postingAt: Int32Array,
  slot: number,
): number {
  let total = 0;
  let group = 0;
  let acc = 0;
  for (let i = 0; i < presentCount; i++) {
    const t = present[i]!;
    while (t >= terms.groupEnds[group]!) {
      if (!terms.single) total = total + terms.repeats[group]! * -acc;
      acc = 0;
      group++;
    }
    // The term's posting at the slot, if any: binary search from the last one found in this block (slots ascend).
    const slots = terms.slots[t]!;
    const p = (postingAt[t] = seek(slots, postingAt[t]!, info[t]!.starts[blockAt[t]! + 1]!, slot));
    if (p < slots.length && slots[p] === slot) acc = acc + terms.values[t]![p]!;
  }
  if (terms.single) return acc;
  for (; group < terms.groupEnds.length; group++) {
    total = total + terms.repeats[group]! * -acc;
    acc = 0;
  }
  return total;
}

/** The first posting in `[low, high)` whose slot is at least `slot` (`high` if none): slots ascend. */
function seek(slots: Int32Array, low: number, high: number, slot: number): number {
  while (low < high) {
    const mid = (low + high) >> 1;
    if (slots[mid]! < slot) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Per-block accumulators of {@link blockTotals}. */
const blockGroup = new Float64Array(BLOCK_SLOTS);
const blockTotal = new Float64Array(BLOCK_SLOTS);

/**
 * {@link exactTotal} of each survivor of the block at `start`, into `totals`:
 * every present term's postings in the block added in query order, group by
 * group, as the exhaustive scan adds them (so the same sums).
 */
function blockTotals(
  terms: QueryTerms,
  info: readonly TermBlocks[],
  present: Int32Array,
  presentCount: number,
  blockAt: Int32Array,
  start: number,
  end: number,
  survivor: Int32Array,
  survivors: number,
  totals: Float64Array,
): void {
  const width = end - start;
  blockGroup.fill(0, 0, width);
  blockTotal.fill(0, 0, width);
  let i = 0;
  for (let g = 0; g < terms.groupEnds.length; g++) {
    for (; i < presentCount && present[i]! < terms.groupEnds[g]!; i++) {
      const t = present[i]!;
      const c = blockAt[t]!;
      const { starts } = info[t]!;
      const slots = terms.slots[t]!;
      const values = terms.values[t]!;
      for (let p = starts[c]!, last = starts[c + 1]!; p < last; p++) {
        const at = slots[p]! - start;
        blockGroup[at] = blockGroup[at]! + values[p]!;
      }
    }
    if (terms.single) break;
    const repeat = terms.repeats[g]!;
    for (let at = 0; at < width; at++) {
      blockTotal[at] = blockTotal[at]! + repeat * -blockGroup[at]!;
      blockGroup[at] = 0;
    }
  }
  const sums = terms.single ? blockGroup : blockTotal;
  for (let k = 0; k < survivors; k++) totals[k] = sums[survivor[k]! - start]!;
}

/** Inserts `value` at the end of a min-heap of `size` entries. */
function heapUp(heap: Float64Array, size: number, value: number): void {
  let i = size;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = value;
}

/** The chunks scored at or above the cut of their time, in slot order; {@link Scored.from} keeps those at or above the final cut. */
class Scored {
  slots: number[] = [];
  keys: number[] = [];
  scores: number[] = [];

  push(slot: number, key: number, score: number): void {
    this.slots.push(slot);
    this.keys.push(key);
    this.scores.push(score);
  }

  from(corpus: Corpus, cut: number): ExactScores {
    let kept = 0;
    for (const key of this.keys) if (key >= cut) kept++;
    const ids = new Float64Array(kept);
    const keys = new Float64Array(kept);
    const scores = new Float64Array(kept);
    for (let i = 0, k = 0; i < this.keys.length; i++) {
      if (this.keys[i]! < cut) continue;
      ids[k] = corpus.ids[this.slots[i]!]!;
      keys[k] = this.keys[i]!;
      scores[k++] = this.scores[i]!;
    }
    return { ids, keys, scores };
  }
}
