/**
 * A file watcher for long-lived processes (MCP server, web view): it records
 * which paths changed since the last refresh, so a freshness check with nothing
 * changed costs no listing at all.
 *
 * Built on Node's non-recursive `fs.watch`, one inotify watch per folder, not on
 * a library: @parcel/watcher and chokidar deliver events from another thread or
 * after a debounce / stat, so an edit made just before a tool call may not have
 * arrived when the call asks — the answer would be stale. `fs.watch` events come
 * from the kernel's queue through this thread's event loop in order: an edit
 * finished before a request was sent is readable when the request is, and one
 * loop turn (`settle()`) delivers it. Node 20's `recursive: true` on Linux
 * watches every file (one watch per file, node_modules and .git included), which
 * runs out of inotify watches on large trees; here folders the listing skips are
 * never watched.
 *
 * The kernel drops events when its queue overflows and Node does not report it,
 * so a burst of more events than `overflowAt` between two refreshes counts as an
 * overflow: the caller then lists the whole tree.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What changed since the last `take()`. */
export interface WatchedChanges {
  /** Repository-relative paths (files or folders) that saw an event. */
  paths: Set<string>;
  /** True when events may have been lost: the caller must list everything. */
  overflow: boolean;
}

/** Options of a TreeWatcher. */
export interface TreeWatcherOptions {
  /** More events than this between two takes count as an overflow (default: half the kernel's queue, at most 8192). */
  overflowAt?: number;
}

/** Watches a set of folders of one tree; see the module comment. */
export class TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private pending = new Set<string>();
  private events = 0;
  private overflowed = false;
  private closed = false;
  private readonly overflowAt: number;

  constructor(
    readonly root: string,
    options: TreeWatcherOptions = {},
  ) {
    this.overflowAt = options.overflowAt ?? defaultOverflowLimit();
  }

  /** True once every watch is set and no event was lost since the last take. */
  get healthy(): boolean {
    return !this.closed && !this.overflowed;
  }

  /** True when `dir` is watched. */
  watches(dir: string): boolean {
    return this.watchers.has(dir);
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watchers.size;
  }

  /**
   * Starts watching `dir` (repository-relative, '' for the root). A folder that
   * cannot be watched (out of inotify watches, gone) marks the watcher
   * overflowed, so the next refresh lists everything instead of trusting it.
   */
  add(dir: string): void {
    if (this.closed || this.watchers.has(dir)) return;
    try {
      const watcher = watch(dir ? join(this.root, dir) : this.root, { persistent: false }, (_event, name) => this.record(dir, name));
      watcher.on('error', () => {
        this.overflowed = true;
        this.remove(dir);
      });
      this.watchers.set(dir, watcher);
    } catch {
      this.overflowed = true;
    }
  }

  /** Stops watching `dir` and every folder below it (it was deleted, renamed or is now skipped). */
  removeTree(dir: string): void {
    const prefix = dir + '/';
    for (const watched of [...this.watchers.keys()]) {
      if (watched === dir || (dir === '' ? true : watched.startsWith(prefix))) this.remove(watched);
    }
  }

  /** Watches exactly `dirs` (the folders a full listing walked). */
  sync(dirs: Iterable<string>): void {
    const wanted = new Set(dirs);
    for (const watched of [...this.watchers.keys()]) if (!wanted.has(watched)) this.remove(watched);
    for (const dir of wanted) this.add(dir);
  }

  /**
   * Lets events the kernel queued before this call reach this thread. Two
   * immediates: called from an I/O callback, the first runs before the loop
   * polls again; the second runs after a poll that began after this call.
   */
  async settle(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** True when nothing was recorded since the last take and no event can have been lost (takes nothing). */
  get quiet(): boolean {
    return this.pending.size === 0 && !this.overflowed && !this.closed;
  }

  /** The changes recorded since the last take, and starts a new record. */
  take(): WatchedChanges {
    const changes = { paths: this.pending, overflow: this.overflowed || this.closed };
    this.pending = new Set();
    this.events = 0;
    this.overflowed = false;
    return changes;
  }

  /** Marks the record as incomplete (used by tests and when a caller knows events were lost). */
  markOverflow(): void {
    this.overflowed = true;
  }

  /** Stops every watch. */
  close(): void {
    this.closed = true;
    for (const dir of [...this.watchers.keys()]) this.remove(dir);
  }

  private remove(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private record(dir: string, name: string | Buffer | null): void {
    if (++this.events > this.overflowAt) this.overflowed = true;
    if (this.overflowed) {
      this.pending.clear();
      return;
    }
    // No name: something happened to the folder itself; re-list it (the root: everything).
    if (!name && !dir) this.overflowed = true;
    else this.pending.add(name ? (dir ? `${dir}/${String(name)}` : String(name)) : dir);
  }
}

function defaultOverflowLimit(): number {
  try {
    const queue = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    if (queue > 0) return Math.min(8192, Math.floor(queue / 2));
  } catch {
    // Not Linux: the platform's watcher has no such queue limit we can read.
  }
  return 8192;
}
