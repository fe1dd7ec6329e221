/**
 * The windows of a listwise rerank, RankGPT / SweRank style: a window of
 * `window` candidates slides from the bottom of the list to the top by `step`,
 * so a relevant candidate found low can climb window by window to the top.
 */

/** One window: candidates `start` (inclusive) to `end` (exclusive) of the current order. */
export interface WindowSpan {
  start: number;
  end: number;
}

/**
 * The windows over `n` candidates, bottom first; the last one always starts
 * at 0 (RankGPT's loop skips the top window when `n - window` is not a
 * multiple of `step`; here the top is always ranked). `window` and `step`
 * must be at least 1; `step` above `window` leaves gaps, which is allowed.
 */
export function slidingWindows(n: number, window: number, step: number): WindowSpan[] {
  if (n <= 0) return [];
  if (n <= window) return [{ start: 0, end: n }];
  const spans: WindowSpan[] = [];
  for (let end = n; ; end -= step) {
    const start = Math.max(0, end - window);
    spans.push({ start, end: start === 0 ? Math.min(n, window) : end });
    if (start === 0) break;
  }
  return spans;
}
