/**
 * A server's local cache of shards: downloaded on first use (checksum
 * checked), opened read-only, kept while in use, and evicted least recently
 * used first once their total size passes the limit.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexReport } from '../index/index.js';
import { RepositoryIndex, removeDerivedCaches } from '../index/index.js';
import type { Logger } from '../logger.js';
import { RepositoryHandle } from '../tools/index.js';
import type { ShardRecord } from './shard-registry.js';
import type { ShardStore } from './shard-store.js';
import { emptyClaimedFolder } from './work-folders.js';

/**
 * A repository handle over a shard: its index never changes, so "refreshing"
 * it before a tool call is a no-op that reports every file unchanged.
 */
class ShardHandle extends RepositoryHandle {
  private readonly report: IndexReport;

  constructor(name: string, index: RepositoryIndex, commit: string, files: number) {
    super(name, index);
    this.report = {
      mode: 'commit', root: index.root, commit, listed: files, unchanged: files, parsed: 0, reused: 0, deleted: 0,
      partial: 0, failed: 0, failures: [], skipped: {}, skippedExamples: {}, durationMs: 0,
    };
    this.lastReport = this.report;
  }

  override refresh(): Promise<IndexReport> {
    return Promise.resolve(this.report);
  }
}

interface Entry {
  shard: ShardRecord;
  path: string;
  ready: Promise<ShardHandle>;
  pins: number;
  lastUsed: number;
  /** Dropped while a call held it: deleted when that call releases it. */
  dropped?: boolean;
}

/** A pinned shard: release it when the call is done. */
export interface ShardLease {
  handle: RepositoryHandle;
  /** True when this acquire downloaded the shard (a cold cache). */
  downloaded: boolean;
  release(): void;
}

/** Cache statistics, for heartbeats and benchmarks. */
export interface ShardCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  downloads: number;
  evictions: number;
  /** Acquisitions answered by a shard already here (or downloading). */
  hits: number;
  /** Acquisitions that started a download. */
  misses: number;
}

/** The LRU shard cache of one server process. */
export class ShardCache {
  private readonly entries = new Map<string, Entry>();
  private downloads = 0;
  private evictions = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly store: ShardStore,
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly logger: Logger,
  ) {
    // Files left by an earlier run are not trusted (the registry's checksum was checked on download only); the claim on the folder stays.
    emptyClaimedFolder(dir);
  }

  /** The shard's handle, downloading and opening it first if needed. */
  async acquire(shard: ShardRecord): Promise<ShardLease> {
    let entry = this.entries.get(shard.location);
    let downloaded = false;
    if (entry) this.hits++;
    else {
      this.misses++;
      downloaded = true;
      // One file per location, not per checksum: two builds with equal bytes must not share a file that evicting one deletes.
      const path = join(this.dir, `${createHash('sha256').update(shard.location).digest('hex').slice(0, 32)}.db`);
      entry = { shard, path, pins: 0, lastUsed: Date.now(), ready: this.load(shard, path) };
      this.entries.set(shard.location, entry);
      entry.ready.catch(() => this.entries.delete(shard.location));
    }
    entry.pins++;
    entry.lastUsed = Date.now();
    try {
      const handle = await entry.ready;
      const pinned = entry;
      let released = false;
      this.evict();
      return {
        handle,
        downloaded,
        release: () => {
          if (released) return;
          released = true;
          pinned.pins--;
          if (pinned.dropped && pinned.pins === 0) this.discard(pinned);
          this.evict();
        },
      };
    } catch (error) {
      entry.pins--;
      throw error;
    }
  }

  /** True when the shard is downloaded (or downloading) here. */
  has(location: string): boolean {
    return this.entries.has(location);
  }

  /** The shards held here (repository and commit), for sweeps against the registry. */
  held(): { repo: string; commit: string }[] {
    return [...this.entries.values()].map((e) => ({ repo: e.shard.repo, commit: e.shard.commit }));
  }

  /**
   * Drops the shards whose `repo@commit` is in `keys` (purged commits): never
   * handed out again, their files deleted now, or when the call using one
   * releases it. Returns how many.
   */
  drop(keys: ReadonlySet<string>): number {
    let dropped = 0;
    for (const [location, entry] of [...this.entries]) {
      if (!keys.has(`${entry.shard.repo}@${entry.shard.commit}`)) continue;
      this.entries.delete(location);
      dropped++;
      entry.dropped = true;
      if (entry.pins === 0) this.discard(entry);
    }
    return dropped;
  }

  stats(): ShardCacheStats {
    const bytes = [...this.entries.values()].reduce((sum, e) => sum + e.shard.sizeBytes, 0);
    return { entries: this.entries.size, bytes, maxBytes: this.maxBytes, downloads: this.downloads, evictions: this.evictions, hits: this.hits, misses: this.misses };
  }

  private async load(shard: ShardRecord, path: string): Promise<ShardHandle> {
    const started = Date.now();
    await this.store.get(shard.location, shard.sha256, path);
    this.downloads++;
    const index = await RepositoryIndex.openStored(path, { root: `/${shard.repo}`, commit: shard.commit, logger: this.logger });
    this.logger.debug(`shard ${shard.repo}@${shard.commit.slice(0, 12)} ready in ${Date.now() - started} ms (${shard.sizeBytes} bytes)`);
    return new ShardHandle(shard.repo, index, shard.commit, index.store.fileCounts().files);
  }

  /** Closes and deletes unpinned shards, least recently used first, until the total fits (a pinned one is never evicted). */
  private evict(): void {
    let bytes = this.stats().bytes;
    if (bytes <= this.maxBytes) return;
    const idle = [...this.entries.entries()].filter(([, e]) => e.pins === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [location, entry] of idle) {
      if (bytes <= this.maxBytes) break;
      this.entries.delete(location);
      bytes -= entry.shard.sizeBytes;
      this.evictions++;
      this.discard(entry);
    }
  }

  /** Closes an entry no longer in the map and deletes its file. */
  private discard(entry: Entry): void {
    void entry.ready
      .then((handle) => handle.close())
      .catch(() => undefined)
      .finally(() => {
        rmSync(entry.path, { force: true });
        removeDerivedCaches(entry.path);
      });
  }

  /** Closes every shard and empties the folder. */
  async close(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.ready.then((h) => h.close()).catch(() => undefined)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
