/**
 * Selection of a ranking's cut: the score of the k-th best of many, without
 * sorting them. A search cuts ~7·10^4 chunk scores at the 160th and ~10^4
 * file scores at the 50th; a sort (or a quickselect's copy and passes) cost
 * more than the scoring loops around it.
 */

/**
 * The k-th largest of `values[0..count)` (1 ≤ k ≤ count; `values` is not
 * changed): one pass keeping the k largest seen in a min-heap, so a value
 * below the heap's least costs one comparison. Equal values count once
 * each (the k-th largest of 3, 3, 1 at k = 2 is 3). NaN is not allowed.
 */
export function kthLargest(values: ArrayLike<number>, k: number, count = values.length): number {
  if (!(k >= 1 && k <= count)) throw new RangeError(`kthLargest: k = ${k} outside 1..${count}`);
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) heap[i] = values[i]!;
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, i, k);
  for (let i = k; i < count; i++) {
    const value = values[i]!;
    if (value > heap[0]!) {
      heap[0] = value;
      siftDown(heap, 0, k);
    }
  }
  return heap[0]!;
}

/** Restores the min-heap order below `at`. */
function siftDown(heap: Float64Array, at: number, size: number): void {
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
