/**
 * Selection of a ranking's cut: the score of the k-th best of many, without
 * sorting them. A search cuts ~7·10^4 chunk scores at the 160th and ~10^4
 * file scores at the 50th; a sort (or a quickselect's copy and passes) cost
 * more than the scoring loops around it.
 */

/**
 * The k-th largest of `values[0..count)` (1 ≤ k ≤ count; `values` is not
 * changed). Equal values count once each (the k-th largest of 3, 3, 1 at
 * k = 2 is 3). NaN is not allowed. Many values and a small k (a search's
 * cut): a sample of the values gives a bound below which the k-th largest
 * is unlikely to lie, one pass keeps the values at or above it, and those
 * few are selected from (all of them again if the bound was too high).
 */
export function kthLargest(values: ArrayLike<number>, k: number, count = values.length): number {
  if (!(k >= 1 && k <= count)) throw new RangeError(`kthLargest: k = ${k} outside 1..${count}`);
  if (count >= SAMPLED_FROM && count >= 8 * k) {
    // The sample's rank of about 2k of the whole: some 2k values pass the bound, and fewer than k is very unlikely.
    const step = Math.floor(count / SAMPLE);
    const sample = new Float64Array(SAMPLE);
    for (let i = 0; i < SAMPLE; i++) sample[i] = values[i * step]!;
    const bound = heapSelect(sample, Math.ceil((2 * k * SAMPLE) / count) + 1, SAMPLE);
    // One pass keeps up to 8k of the values at or above the bound (some 2k are expected), counting them all.
    const kept = new Float64Array(8 * k);
    let passing = 0;
    for (let i = 0; i < count; i++) {
      const value = values[i]!;
      if (value >= bound) {
        if (passing < kept.length) kept[passing] = value;
        passing++;
      }
    }
    // Enough values at or above the bound: the k-th largest is one of them, so it is theirs.
    if (passing >= k && passing <= kept.length) return heapSelect(kept, k, passing);
    if (passing > kept.length) {
      const all = new Float64Array(passing);
      let n = 0;
      for (let i = 0; i < count; i++) if (values[i]! >= bound) all[n++] = values[i]!;
      return heapSelect(all, k, passing);
    }
  }
  return heapSelect(values, k, count);
}

/** Values from which {@link kthLargest} samples first (when k is at most an eighth of them), and the sample's size. */
const SAMPLED_FROM = 8192;
const SAMPLE = 2048;

/**
 * The k-th largest by one pass keeping the k largest seen in a min-heap (a
 * value below the heap's least costs one comparison).
 */
function heapSelect(values: ArrayLike<number>, k: number, count: number): number {
  // Visited in a scattered order (a stride coprime to count): scores that rise along the array, as chunk
  // scores in slot order can, would otherwise each enter the heap (an ascending array: 20x the random case).
  const stride = coprimeStride(count);
  const heap = new Float64Array(k);
  let at = 0;
  for (let i = 0; i < k; i++) {
    heap[i] = values[at]!;
    at += stride;
    if (at >= count) at -= count;
  }
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, i, k);
  for (let i = k; i < count; i++) {
    const value = values[at]!;
    at += stride;
    if (at >= count) at -= count;
    if (value > heap[0]!) {
      heap[0] = value;
      siftDown(heap, 0, k);
    }
  }
  return heap[0]!;
}

/** A step near count × 0.618 sharing no factor with count, so stepping by it visits every index once. */
function coprimeStride(count: number): number {
  let stride = Math.max(1, Math.round(count * 0.6180339887));
  while (gcd(stride, count) !== 1) stride++;
  return stride % count || 1;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Restores the min-heap order of `heap[0..size)` below `at` (whose value may have grown). */
export function siftDown(heap: Float64Array, at: number, size: number): void {
  const value = heap[at]!;
  let i = at;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
    if (heap[child]! >= value) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = value;
}
