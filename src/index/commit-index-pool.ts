/**
 * The one owner of "the index of repository R at commit C" for everything
 * that visits many commits: the LocBench retrieval localizer, the localization
 * agent's runs and the SWE-QA harness. It holds one naming rule for the index
 * files and a bound on the indexes open at once.
 *
 * An index file follows one commit at a time. Leases at the same commit of the
 * same repository share one open index (refresh() coalesces concurrent calls
 * and reads are synchronous, so sharing is safe); a lease at another commit
 * takes an idle index of that repository and moves it (switchCommit re-parses
 * only blobs that differ), or opens a new slot, a second file. At most
 * `maxOpen` indexes are open: past that, the least recently used idle one is
 * closed, and when every open index is leased, acquire waits for a release.
 *
 * It lives in src/index/ because it is about index files and RepositoryIndex
 * lifetimes, and every user (eval, agents, servers) sits above this layer.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../errors.js';
import { quotedPath } from './sources/index.js';
import { silentLogger, type Logger } from '../logger.js';
import { defaultIndexPath } from './store/index.js';
import { findGitDir } from './sources/index.js';
import type { IndexReport } from './write/index.js';
import { RepositoryIndex } from './repository-index.js';

/** Longest file-name stem before it is shortened with a hash (file systems allow 255 bytes). */
const MAX_STEM = 160;

/**
 * The index file name of `repo` (`owner/name`, any characters) in slot `slot`
 * (0 for the first): `owner+name.db`, then `owner+name@2.db`, …
 * Letters, digits, `.`, `_` and `-` stay; `/` becomes `+`; every other byte is
 * percent-encoded (`%2B` for `+`, `%40` for `@`), so distinct names never
 * share a file and no name can leave the folder. Very long names are cut and
 * end with a hash of the whole name.
 */
export function commitIndexFileName(repo: string, slot = 0): string {
  if (repo === '') throw new ReponavError('BAD_INPUT', 'A repository name is needed to name its index file.');
  if (!Number.isInteger(slot) || slot < 0) throw new ReponavError('BAD_INPUT', `Index slot must be a whole number, got ${slot}.`);
  let stem = '';
  for (const byte of Buffer.from(repo, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9._-]/.test(ch)) stem += ch;
    else if (ch === '/') stem += '+';
    else stem += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (stem.length > MAX_STEM) stem = `${stem.slice(0, MAX_STEM - 17)}~${createHash('sha256').update(repo).digest('hex').slice(0, 16)}`;
  return `${stem}${slot === 0 ? '' : `@${slot + 1}`}.db`;
}

/** Options of {@link CommitIndexPool}. */
export interface CommitIndexPoolOptions {
  /** Folder for index files named by {@link commitIndexFileName}; default: the user cache, beside the repository's own commit index. */
  indexDir?: string;
  /** Most indexes open at once, leased or idle (default 4, at least 1). */
  maxOpen?: number;
  logger?: Logger;
}

/** An index leased from the pool, fresh at the requested commit. */
export interface CommitIndexLease {
  index: RepositoryIndex;
  /** The refresh that brought the index to the commit (shared by leases that shared it). */
  report: IndexReport;
  /** Gives the index back. Idempotent. Do not use the index afterwards. */
  release(): void;
}

interface Entry {
  gitDir: string;
  repo: string;
  slot: number;
  commit: string;
  index: RepositoryIndex;
  users: number;
  /** Settles when the index is at `commit`; rejects when opening or moving failed. */
  ready: Promise<IndexReport>;
  lastUsed: number;
}

/** See the module comment. Safe for concurrent `acquire` calls. */
export class CommitIndexPool {
  /** Open indexes, and those being opened (their `index` is set once `ready` passes the open). */
  private readonly entries: Entry[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly logger: Logger;
  private readonly maxOpen: number;
  private clock = 0;
  private closed = false;

  constructor(private readonly options: CommitIndexPoolOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.maxOpen = Math.max(1, Math.floor(options.maxOpen ?? 4));
  }

  /** Indexes open now (leased or idle). */
  get openCount(): number {
    return this.entries.length;
  }

  /**
   * The index of `repo` (`owner/name`, which names its file) whose git
   * directory is `gitDir`, at `commit`, refreshed. Waits while `maxOpen`
   * indexes are all leased. Rejects when the commit is unknown or indexing
   * fails (the slot is then closed).
   */
  async acquire(gitDir: string, repo: string, commit: string): Promise<CommitIndexLease> {
    for (;;) {
      if (this.closed) throw new ReponavError('BAD_INPUT', 'The index pool is closed.');
      const entry = this.claim(gitDir, repo, commit);
      if (entry) return this.lease(entry);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Closes every idle index; leased ones close when released. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.entries.filter((e) => e.users === 0)) this.drop(entry);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** An entry for the request, counted as used, or null when the caller must wait. */
  private claim(gitDir: string, repo: string, commit: string): Entry | null {
    const same = this.entries.find((e) => e.gitDir === gitDir && e.commit === commit);
    if (same) {
      // Idle at this commit: refresh again (cheap), so the lease's report is this visit's. Leased: join its refresh.
      if (same.users === 0) same.ready = same.index.refresh();
      same.users += 1;
      return same;
    }
    const idle = this.leastRecent(this.entries.filter((e) => e.gitDir === gitDir && e.users === 0));
    if (idle) {
      idle.users = 1;
      idle.commit = commit;
      const index = idle.index;
      idle.ready = index.switchCommit(commit).then(() => index.refresh());
      return idle;
    }
    if (this.openCount >= this.maxOpen) {
      const victim = this.leastRecent(this.entries.filter((e) => e.users === 0));
      if (!victim) return null;
      this.drop(victim);
    }
    return this.open(gitDir, repo, commit);
  }

  private open(gitDir: string, repo: string, commit: string): Entry {
    const taken = new Set(this.entries.filter((e) => e.gitDir === gitDir).map((e) => e.slot));
    let slot = 0;
    while (taken.has(slot)) slot++;
    const entry = { gitDir, repo, slot, commit, users: 1, lastUsed: 0 } as Entry;
    this.entries.push(entry);
    entry.ready = (async () => {
      entry.index = await RepositoryIndex.open(gitDir, { commit, indexPath: this.indexPath(gitDir, repo, slot), logger: this.logger });
      return entry.index.refresh();
    })();
    return entry;
  }

  private async lease(entry: Entry): Promise<CommitIndexLease> {
    let report: IndexReport;
    try {
      report = await entry.ready;
    } catch (error) {
      entry.users -= 1;
      if (this.entries.includes(entry)) this.drop(entry);
      this.wake();
      throw error;
    }
    let released = false;
    return {
      index: entry.index,
      report,
      release: () => {
        if (released) return;
        released = true;
        entry.users -= 1;
        entry.lastUsed = ++this.clock;
        if (entry.users === 0 && this.closed) this.drop(entry);
        this.wake();
      },
    };
  }

  private leastRecent(candidates: Entry[]): Entry | undefined {
    return candidates.sort((a, b) => a.lastUsed - b.lastUsed)[0];
  }

  private drop(entry: Entry): void {
    const at = this.entries.indexOf(entry);
    if (at >= 0) this.entries.splice(at, 1);
    entry.index?.close();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private indexPath(gitDir: string, repo: string, slot: number): string | undefined {
    if (this.options.indexDir) return join(this.options.indexDir, commitIndexFileName(repo, slot));
    if (slot === 0) return undefined; // the repository's own commit index in the user cache
    const root = findGitDir(gitDir);
    if (!root) throw new ReponavError('NOT_A_GIT_REPOSITORY', `${quotedPath(gitDir)} is not a git repository.`);
    return defaultIndexPath(realpathSync(root), 'commit').replace(/\.db$/, `@${slot + 1}.db`);
  }
}
