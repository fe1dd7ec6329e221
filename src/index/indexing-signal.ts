/**
 * When one refresh starts indexing: it takes the writer lock because it found
 * (or could not rule out) a change, or because another process writes. A
 * refresh that only confirms nothing changed never starts. Callers that join
 * the refresh after it started are told at once.
 */
export class IndexingSignal {
  private started = false;
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` once indexing starts; at once when it has. */
  listen(listener: () => void): void {
    if (this.started) listener();
    else this.listeners.add(listener);
  }

  /** Indexing starts now: tells every listener, once. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }
}
