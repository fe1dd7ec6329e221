/**
 * The folder an agent's shell commands run in. For a commit, the tree is
 * materialised once into a temporary folder (regular files only: symlinks and
 * submodules are left out, so nothing in the view points elsewhere) and made
 * read-only; views are shared by concurrent runs of the same commit and
 * removed when no longer used. For a working tree, the tree itself is the
 * view and only the program allow-list keeps it unmodified.
 *
 * File permissions are a second line of defence only: a process running as
 * root ignores them. The first line is that no write-capable program runs.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ReponavError } from '../errors.js';
import { GitCommitSource } from '../index/index.js';
import type { SourceFile } from '../index/index.js';
import { silentLogger, type Logger } from '../logger.js';
import { countOf } from '../plural.js';

/** A read-only folder holding the repository as the agent should see it. */
export interface RepositoryView {
  /** Real absolute path of the folder; commands start here. */
  readonly root: string;
  readonly kind: 'worktree' | 'commit';
  /** Full commit id for commit views, else null. */
  readonly commit: string | null;
  /** True when the view holds no symlinks (commit views), so symlink-following options are harmless. */
  readonly symlinkFree: boolean;
  /** Entries of the commit left out (symlinks, submodules); 0 for working trees. */
  readonly skipped: number;
  /** Gives the view back; a commit view is deleted once unused and evicted. Idempotent. */
  release(): Promise<void>;
}

/**
 * The working tree at `path` as a view. Throws BAD_INPUT when it is not a
 * directory (a bare git dir has no tree: use a commit view).
 */
export function openWorktreeView(path: string): RepositoryView {
  let root: string;
  try {
    root = realpathSync(path);
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new ReponavError('BAD_INPUT', `'${path}' is not a directory; give a repository folder (or a git dir together with a commit).`);
  }
  return { root, kind: 'worktree', commit: null, symlinkFree: false, skipped: 0, release: async () => undefined };
}

/**
 * Writes the tree of `commit` (in the git dir `gitDir`) into `destination`
 * (created; must not exist) as regular read-only files in read-only folders.
 * Returns how many files were written and how many entries were left out.
 */
export async function materializeCommit(gitDir: string, commit: string, destination: string): Promise<{ files: number; skipped: number }> {
  const listing = spawnSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (listing.status !== 0) {
    throw new ReponavError('UNKNOWN_REVISION', `Cannot list commit ${commit} in ${gitDir}: ${(listing.stderr ?? '').trim()}`);
  }
  const files: SourceFile[] = [];
  let skipped = 0;
  for (const record of listing.stdout.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, blobId] = record.slice(0, tab).split(' ');
    if (type !== 'blob' || mode === '120000') {
      skipped++; // submodules and symlinks: nothing outside the tree may be reachable from the view
      continue;
    }
    files.push({ path: record.slice(tab + 1), size: 0, mtimeMs: null, blobId: blobId! });
  }
  await mkdir(destination, { recursive: false });
  const folders = new Set<string>([destination]);
  const source = await GitCommitSource.open(gitDir, commit);
  let written = 0;
  for await (const { file, bytes } of source.readMany(files)) {
    if (bytes === null) {
      skipped++; // a blob missing from a partial clone
      continue;
    }
    const target = join(destination, file.path);
    const folder = dirname(target);
    if (!folders.has(folder)) {
      await mkdir(folder, { recursive: true });
      for (let f = folder; f.length > destination.length && !folders.has(f); f = dirname(f)) folders.add(f);
    }
    await writeFile(target, bytes, { mode: 0o444 });
    written++;
  }
  // Deepest first, so a parent never becomes read-only before its children are done.
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) await chmod(folder, 0o555);
  return { files: written, skipped };
}

/** Deletes a view folder made read-only by {@link materializeCommit}. */
export async function removeViewFolder(folder: string): Promise<void> {
  await makeWritable(folder).catch(() => undefined);
  await rm(folder, { recursive: true, force: true });
}

async function makeWritable(folder: string): Promise<void> {
  await chmod(folder, 0o755);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(folder, entry.name));
  }
}

function removeViewFolderSync(folder: string): void {
  const walk = (dir: string): void => {
    chmodSync(dir, 0o755);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  try {
    walk(folder);
  } catch {
    // best effort: rm below may still succeed (e.g. as root)
  }
  rmSync(folder, { recursive: true, force: true });
}

/** Options of {@link CommitViewCache}. */
export interface CommitViewCacheOptions {
  /** Parent of the temporary folders; default the OS temp dir. */
  tempRoot?: string;
  /** Unused views kept for reuse (LRU); default 2. */
  keepIdle?: number;
  logger?: Logger;
}

interface CacheEntry {
  key: string;
  ready: Promise<{ folder: string; skipped: number; commit: string }>;
  refs: number;
  lastUsed: number;
}

/** The caches' temporary folders still present, removed when the process exits (one listener for them all). */
const FOLDERS_AT_EXIT = new Set<string>();
let exitHooked = false;

function removeAtExit(folder: string): void {
  FOLDERS_AT_EXIT.add(folder);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const left of FOLDERS_AT_EXIT) removeViewFolderSync(left);
  });
}

/**
 * Materialised commit views, one per (git dir, commit), shared by concurrent
 * users and reference counted. Safe for concurrent `acquire` calls: the tree
 * is written once. Folders left behind at process exit are removed.
 */
export class CommitViewCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly keepIdle: number;
  private readonly logger: Logger;
  private base: Promise<string> | null = null;
  private counter = 0;
  private baseFolder: string | null = null;
  /** Set by close(): an acquire still opening its commit then is refused instead of materialising after the cleanup. */
  private closed = false;

  constructor(private readonly options: CommitViewCacheOptions = {}) {
    this.keepIdle = Math.max(0, options.keepIdle ?? 2);
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * A read-only view of `revision` in the repository at `repositoryPath` (a
   * working tree, `.git` folder or bare mirror). Throws NOT_A_GIT_REPOSITORY
   * or UNKNOWN_REVISION. Call `release()` on the view when done.
   */
  async acquire(repositoryPath: string, revision: string): Promise<RepositoryView> {
    this.refuseClosed();
    const source = await GitCommitSource.open(repositoryPath, revision);
    this.refuseClosed();
    const key = `${source.root}\0${source.commit}`;
    let entry = this.entries.get(key);
    if (!entry) {
      const created: CacheEntry = { key, ready: this.materialize(source.root, source.commit), refs: 0, lastUsed: Date.now() };
      entry = created;
      this.entries.set(key, created);
      created.ready.catch(() => this.entries.get(key) === created && this.entries.delete(key));
    }
    entry.refs++;
    let view: { folder: string; skipped: number; commit: string };
    try {
      view = await entry.ready;
    } catch (error) {
      entry.refs--;
      throw error;
    }
    let released = false;
    const held = entry;
    return {
      root: realpathSync(view.folder),
      kind: 'commit',
      commit: view.commit,
      symlinkFree: true,
      skipped: view.skipped,
      release: async () => {
        if (released) return;
        released = true;
        held.refs--;
        held.lastUsed = Date.now();
        await this.evict();
      },
    };
  }

  /**
   * Removes every view (also ones still in use) and the temporary folder (and
   * drops it from the folders removed at exit); later acquires, and ones still
   * opening their commit, are refused.
   */
  async close(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((e) => e.ready.catch(() => null)));
    if (this.baseFolder) {
      await removeViewFolder(this.baseFolder);
      FOLDERS_AT_EXIT.delete(this.baseFolder);
    }
    this.baseFolder = null;
    this.base = null;
  }

  private refuseClosed(): void {
    if (this.closed) throw new ReponavError('INTERNAL', 'This commit view cache is closed; create a new one to materialise commits.');
  }

  private async materialize(gitDir: string, commit: string): Promise<{ folder: string; skipped: number; commit: string }> {
    this.base ??= mkdtemp(join(this.options.tempRoot ?? tmpdir(), 'reponav-views-')).then((folder) => {
      this.baseFolder = folder;
      removeAtExit(folder);
      return folder;
    });
    const base = await this.base;
    const folder = join(base, `${commit.slice(0, 12)}-${++this.counter}`);
    const partial = `${folder}.partial`;
    const started = Date.now();
    try {
      const { files, skipped } = await materializeCommit(gitDir, commit, partial);
      await chmod(partial, 0o755);
      await rename(partial, folder);
      await chmod(folder, 0o555);
      this.logger.debug(`materialised ${commit.slice(0, 12)} (${countOf(files, 'file')}, ${skipped} left out) in ${Date.now() - started} ms`);
      return { folder, skipped, commit };
    } catch (error) {
      await removeViewFolder(partial).catch(() => undefined);
      throw error;
    }
  }

  private async evict(): Promise<void> {
    const idle = [...this.entries.values()].filter((e) => e.refs === 0).sort((a, b) => b.lastUsed - a.lastUsed);
    for (const entry of idle.slice(this.keepIdle)) {
      // Re-check: the entry may have been acquired again while an earlier removal awaited.
      if (entry.refs !== 0 || this.entries.get(entry.key) !== entry) continue;
      this.entries.delete(entry.key);
      const view = await entry.ready.catch(() => null);
      if (view) await removeViewFolder(view.folder);
    }
  }
}
