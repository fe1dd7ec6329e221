import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { refuseGitDirectory, workTreeRoot } from './work-tree-root.js';
import { ReponavError } from '../../errors.js';
import { quotedPath } from './display-path.js';
import {
  changeStamp,
  DEFAULT_MAX_FILE_BYTES,
  excludedFolderRule,
  hasBinaryExtension,
  recordSkip,
  VCS_DIRECTORIES,
  type RepositorySource,
  type SourceFile,
  type SourceListing,
  type SourceOptions,
  type ChangeCheck,
  type ListingDelta,
  type SkipReason,
} from './source-file.js';
import { describeRule, reincludeHint, skipReasonOf, sparesTracked, verdictOf, type RuleVerdict } from './ignore-layers.js';
import { WorktreeRules, type Place } from './worktree-rules.js';
import { TreeWatcher, type TreeWatcherOptions } from './tree-watcher.js';
import { WorktreeChanges } from './worktree-changes.js';

/** Options for reading a working tree. */
export interface WorktreeSourceOptions extends SourceOptions {
  /** Ask git what changed since the last run (default true); false: list everything each time. */
  useGit?: boolean;
  /**
   * A folder inside a git work tree stands for that work tree (as for git):
   * for a command run in the folder it stands in, where the user named no
   * other. Off, the folder given is the root (a sample inside a repository).
   */
  findWorkTreeRoot?: boolean;
}

/**
 * A working tree on disk. Honours the rule layers of ignore-layers.ts (each
 * folder's `.gitignore`, `.ignore`, `.rgignore` and `.reponavignore`,
 * `.git/info/exclude`, the default folder rules, `--include`/`--exclude`),
 * skips binaries and files over the size limit, and never follows a symlink
 * that leaves the root. A file git tracks is never left out by `.gitignore`,
 * `.git/info/exclude` or a default folder rule (a left-out folder holding
 * tracked files is walked for them alone); the other rules, and folders the
 * index settings exclude, leave out tracked files too.
 */
export class WorktreeSource implements RepositorySource {
  readonly mode = 'worktree' as const;
  readonly commit = null;
  private readonly maxFileBytes: number;
  /** What the listing enters and lists (worktree-rules.ts). */
  private readonly rules: WorktreeRules;
  /** The watcher of a long-lived process, or null (see watch()). */
  watcher: TreeWatcher | null = null;
  /** Symlinked files of the last full listing: their target can change with no change at their own path. */
  listedLinks: string[] = [];
  /** Folders walked and links found by the listing in progress. */
  private walkedDirs: string[] | null = null;
  /** While counting (countUpTo): the walk stops once this many files are listed. */
  private stopAt: number | null = null;
  private links: Set<string> | null = null;
  /** While leftOutFiles walks: told each path (a folder ends in `/`) a rule leaves out. */
  private onRuleSkip: ((path: string) => void) | null = null;
  private readonly changes: WorktreeChanges;

  private constructor(
    readonly root: string,
    options: WorktreeSourceOptions,
  ) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.rules = new WorktreeRules(root, options);
    const rules = JSON.stringify([[...this.rules.settingsExcluded].sort(), options.include ?? [], options.exclude ?? []]);
    this.changes = new WorktreeChanges(this, `${this.maxFileBytes}|${rules}`, options.useGit ?? true);
  }

  /** Opens `path` as a working tree; throws BAD_INPUT when it is not a readable directory. */
  static async open(path: string, options: WorktreeSourceOptions = {}): Promise<WorktreeSource> {
    let root: string;
    try {
      root = await realpath(path);
      if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new ReponavError('BAD_INPUT', `Cannot read repository folder ${quotedPath(path)}: it does not exist or is not a directory.`);
    }
    // A subfolder of a git work tree is that work tree (as for git); a git directory is refused.
    refuseGitDirectory(root);
    return new WorktreeSource(options.findWorkTreeRoot ? workTreeRoot(root) : root, options);
  }

  async list(): Promise<SourceListing> {
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    const layers = this.rules.rootLayers();
    // Synchronous on purpose: thousands of readdir/stat calls are several times
    // faster without a promise per call, and freshness checks run before every tool answer.
    this.walkedDirs = [];
    this.links = new Set();
    try {
      this.walk('', { layers, outside: null }, listing);
      this.watcher?.sync(this.walkedDirs);
      this.listedLinks = [...this.links];
    } finally {
      this.walkedDirs = null;
      this.links = null;
    }
    listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return listing;
  }

  /**
   * How many files {@link list} would list, counted up to `limit`: the walk
   * stops there. A first search asks only whether a tree is large enough for
   * a provisional answer, and a full listing of an 11k-file tree (~0.5 s of
   * readdir, stat and ignore matching) cost more than the answer's own scan.
   * Sets no watches (the watcher is set by a full listing).
   */
  async countUpTo(limit: number): Promise<number> {
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    const layers = this.rules.rootLayers();
    const watcher = this.watcher;
    this.watcher = null;
    this.stopAt = limit;
    try {
      this.walk('', { layers, outside: null }, listing);
    } finally {
      this.watcher = watcher;
      this.stopAt = null;
    }
    return Math.min(listing.files.length, limit);
  }

  /** See RepositorySource.changesSince: git's status and, when watching, the watcher's events. */
  changesSince(previous: string | null, recheck: readonly string[] = []): Promise<ChangeCheck> {
    return this.changes.check(previous, recheck);
  }

  /** See RepositorySource.peekChanges. */
  peekChanges(previous: string | null, recheck: readonly string[] = []): Promise<ListingDelta | 'full-listing' | null> {
    return this.changes.peek(previous, recheck);
  }

  /**
   * Starts watching the tree (long-lived processes): the watches are set as the
   * next full listing walks each folder, and from then on a refresh with no
   * event since the last one lists nothing. Idempotent.
   */
  watch(options: TreeWatcherOptions = {}): TreeWatcher {
    this.watcher ??= new TreeWatcher(this.root, options);
    return this.watcher;
  }

  /** Stops the watcher, if any. */
  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private walk(dir: string, parent: Place, listing: SourceListing): void {
    const absoluteDir = dir ? join(this.root, dir) : this.root;
    // Watched before it is read: a change after this line is an event, one before it is in the listing.
    this.watcher?.add(dir);
    this.walkedDirs?.push(dir);
    const place: Place = this.rules.withOwnRules(dir, parent);
    let entries;
    try {
      entries = readdirSync(absoluteDir, { withFileTypes: true });
    } catch {
      recordSkip(listing, 'unreadable', dir || '.');
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (this.stopAt !== null && listing.files.length >= this.stopAt) return;
      const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      this.visit(dir, entry.name, kind, place, listing);
    }
  }

  /**
   * Lists one folder entry as the walk does (a file is pushed, a folder walked);
   * returns false when it is not listed (skipped, ignored, not a file).
   */
  private visit(dir: string, name: string, kind: 'file' | 'dir' | 'link' | 'other', place: Place, listing: SourceListing): boolean {
    const { layers, outside } = place;
    const absoluteDir = dir ? join(this.root, dir) : this.root;
    const path = dir ? `${dir}/${name}` : name;
    let isDirectory = kind === 'dir';
    let isFile = kind === 'file';
    if (kind === 'link') {
      const target = this.resolveInside(join(absoluteDir, name));
      if ('skip' in target) {
        recordSkip(listing, target.skip, path);
        return false;
      }
      // Links to directories are not followed even inside the root: they would index files twice or loop.
      if (target.isDirectory) {
        recordSkip(listing, 'symlink-folder', path);
        return false;
      }
      isFile = true;
      isDirectory = false;
      this.links?.add(path);
    }
    if (isDirectory) {
      // Version-control metadata is not repository content: skipped without being counted.
      if (VCS_DIRECTORIES.has(name)) return false;
      const entered = this.rules.enter(name, path, place);
      if (!entered) {
        const verdict = this.rules.settingsExcluded.has(name) ? null : verdictOf(layers, path, true);
        recordSkip(listing, verdict?.excluded ? skipReasonOf(verdict.source) : outside ? skipReasonOf(outside.source) : 'vendored', path + '/');
        this.onRuleSkip?.(path + '/');
        return false;
      }
      // A left-out folder holding tracked files is walked for those files only.
      this.walk(path, entered, listing);
      return true;
    }
    if (!isFile) return false;
    const left = this.rules.fileVerdict(path, place);
    if (left) {
      recordSkip(listing, skipReasonOf(left.source), path);
      this.onRuleSkip?.(path);
      return false;
    }
    if (hasBinaryExtension(path)) {
      recordSkip(listing, 'binary', path);
      return false;
    }
    let info: { size: number; mtimeMs: number; ctimeMs: number } | null = null;
    try {
      info = statSync(join(absoluteDir, name));
    } catch {
      info = null;
    }
    if (!info) {
      recordSkip(listing, 'unreadable', path);
      return false;
    }
    if (info.size > this.maxFileBytes) {
      recordSkip(listing, 'too-large', path);
      return false;
    }
    listing.files.push({ path, size: info.size, mtimeMs: changeStamp(info), blobId: null });
    return true;
  }

  /**
   * Lists only `candidates` (files or folders, repository-relative), with the
   * same rules as a full listing: a candidate folder is walked whole. Returns
   * the listed files and the folders walked; a candidate that is not listed
   * (deleted, ignored, skipped) is simply absent from `files`.
   */
  listPaths(candidates: Iterable<string>): { files: SourceFile[]; walked: string[]; links: string[] } {
    return this.listCandidates(candidates, { files: [], skipped: {}, skippedExamples: {} });
  }

  /** See WorktreeRules.bringsBackIgnored (WorktreeChanges asks it). */
  bringsBackIgnored(): boolean {
    return this.rules.bringsBackIgnored();
  }

  /** See RepositorySource.leftOutFiles: a listing's rule skips, and every file below a skipped folder, up to `limit`. */
  leftOutFiles(limit: number): string[] {
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    const out: string[] = [];
    // A listing keeps three examples per reason; this walk keeps every rule's skip.
    const skips: string[] = [];
    const watcher = this.watcher;
    this.watcher = null;
    try {
      this.onRuleSkip = (path) => skips.push(path);
      this.walk('', { layers: this.rules.rootLayers(), outside: null }, listing);
    } finally {
      this.onRuleSkip = null;
      this.watcher = watcher;
    }
    for (const path of skips) {
      if (out.length >= limit) break;
      if (path.endsWith('/')) allFilesBelow(this.root, path.slice(0, -1), out, limit);
      else out.push(path);
    }
    return out;
  }

  /** Why a listing would skip `path` (a file, repository-relative), or null. */
  skipReason(path: string): SkipReason | null {
    return this.skipOf(path)?.reason ?? null;
  }

  /**
   * The rule behind an 'ignored', 'vendored' or 'excluded' skip of `path`
   * (see RepositorySource), with what brings it back: "the default rule
   * 'venv/'; add '!venv/' to .reponavignore to index it".
   */
  skipRule(path: string): string | null {
    const skip = this.skipOf(path);
    if (!skip) return null;
    if (typeof skip.rule === 'string') return skip.rule;
    if (!skip.rule) return null;
    // A rule that spares tracked files could not spare them when git could not say which they are.
    const unknown = sparesTracked(skip.rule.source) ? this.rules.tracked.current().unknown : null;
    const caveat = unknown ? ` (${unknown}, so whether git tracks it could not be checked: a tracked file is left out by this rule too)` : '';
    return `${describeRule(skip.rule)}${caveat}; ${reincludeHint(skip.rule)}`;
  }

  /** Why `path` is not listed, and the verdict (or folder setting, as text) behind a rule's skip. */
  private skipOf(path: string): { reason: SkipReason; rule: RuleVerdict | string | null } | null {
    const cache = new Map<string, Place | null>();
    const parts = path.split('/');
    // A path below a folder the listing does not enter gets that folder's reason.
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (this.rules.placeOf(dir, cache)) continue;
      const name = parts[i - 1];
      if (VCS_DIRECTORIES.has(name)) return null;
      if (this.rules.settingsExcluded.has(name)) return { reason: 'vendored', rule: excludedFolderRule(name) };
      const parent = this.rules.placeOf(parts.slice(0, i - 1).join('/'), cache);
      if (!parent) return null;
      const verdict = verdictOf(parent.layers, dir, true);
      const rule = verdict?.excluded ? verdict : parent.outside;
      return rule ? { reason: skipReasonOf(rule.source), rule } : null;
    }
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    this.listCandidates([path], listing);
    for (const [reason, examples] of Object.entries(listing.skippedExamples)) {
      if (!examples.includes(path)) continue;
      const place = reason === 'ignored' || reason === 'vendored' || reason === 'excluded' ? this.rules.placeOf(parts.slice(0, -1).join('/'), cache) : null;
      return { reason: reason as SkipReason, rule: place ? this.rules.fileVerdict(path, place) : null };
    }
    return null;
  }

  private listCandidates(candidates: Iterable<string>, listing: SourceListing): { files: SourceFile[]; walked: string[]; links: string[] } {
    const placeCache = new Map<string, Place | null>();
    this.walkedDirs = [];
    this.links = new Set();
    try {
      for (const path of [...new Set(candidates)].sort()) {
        if (!path || path.split('/').some((part) => part === '' || part === '.' || part === '..')) continue;
        const slash = path.lastIndexOf('/');
        const dir = slash < 0 ? '' : path.slice(0, slash);
        const place = this.rules.placeOf(dir, placeCache);
        if (!place) continue;
        let kind: 'file' | 'dir' | 'link' | 'other';
        try {
          const info = lstatSync(join(this.root, path));
          kind = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'other';
        } catch {
          continue;
        }
        this.visit(dir, path.slice(slash + 1), kind, place, listing);
      }
      return { files: listing.files, walked: this.walkedDirs, links: [...this.links] };
    } finally {
      this.walkedDirs = null;
      this.links = null;
    }
  }

  /** Where a link leads: a target inside the root, or why it is skipped (outside, a loop, nothing there). */
  private resolveInside(linkPath: string): { isDirectory: boolean } | { skip: SkipReason } {
    try {
      const target = realpathSync(linkPath);
      const rel = relative(this.root, target);
      if (rel.startsWith('..') || rel.startsWith(sep) || rel === '' || /^[a-zA-Z]:/.test(rel)) return { skip: 'symlink-outside-root' };
      return { isDirectory: statSync(target).isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { skip: code === 'ELOOP' ? 'symlink-loop' : code === 'ENOENT' || code === 'ENOTDIR' ? 'symlink-dangling' : 'unreadable' };
    }
  }

  /**
   * Reads synchronously: the indexer's thread also writes every file to SQLite and
   * is the cold index's bottleneck, and fs/promises' readFile costs it four thread-pool
   * round trips (open, fstat, read, close) per file, several times the CPU of
   * readFileSync on files in the page cache.
   */
  async *readMany(files: SourceFile[]): AsyncIterable<{ file: SourceFile; bytes: Buffer | null }> {
    for (const file of files) {
      let bytes: Buffer | null = null;
      try {
        const absolute = join(this.root, file.path);
        // Re-check at read time: a file may have become a link since listing.
        const info = lstatSync(absolute);
        if (info.isSymbolicLink() && 'skip' in this.resolveInside(absolute)) bytes = null;
        else bytes = readFileSync(absolute);
      } catch {
        bytes = null;
      }
      yield { file, bytes };
    }
  }
}

/** Appends the files below the folder `dir` (repository-relative) to `out` until it holds `limit`; version-control folders and links are not entered. */
function allFilesBelow(root: string, dir: string, out: string[], limit: number): void {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (out.length >= limit) return;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && !VCS_DIRECTORIES.has(entry.name)) allFilesBelow(root, path, out, limit);
    else if (entry.isFile()) out.push(path);
  }
}
