/**
 * When one refresh starts indexing: its run found a file added, changed or
 * deleted (IndexOptions.onIndexing), or it waits for another process's
 * writer. A refresh that only confirms nothing changed (failed parses tried
 * again included) never starts. Callers that join the refresh after it
 * started are told at once.
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
