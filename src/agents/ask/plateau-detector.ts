/**
 * Early stopping when the search stops finding better evidence: the best node
 * score seen so far is recorded after every iteration, and once `window`
 * iterations have passed without it rising by at least `epsilon` points, more
 * iterations are unlikely to pay for their tokens.
 */

/** Tracks the best score per iteration; see the module comment. */
export class PlateauDetector {
  private readonly history: number[] = [];

  /** `window` 0 disables detection. */
  constructor(
    readonly window: number,
    readonly epsilon: number,
  ) {}

  /** Records the best score after one iteration (null counts as 0: nothing found yet). */
  record(bestScore: number | null): void {
    this.history.push(bestScore ?? 0);
  }

  /**
   * True when at least `window` iterations were recorded after the first and
   * the best score rose by less than `epsilon` over the last `window` of them.
   */
  plateaued(): boolean {
    const n = this.history.length;
    if (this.window <= 0 || n <= this.window) return false;
    return this.history[n - 1]! - this.history[n - 1 - this.window]! < this.epsilon;
  }
}
