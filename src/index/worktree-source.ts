import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { ReponavError } from '../errors.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  hasBinaryExtension,
  recordSkip,
  VCS_DIRECTORIES,
  VENDORED_DIRECTORIES,
  type RepositorySource,
  type SourceFile,
  type SourceListing,
  type SourceOptions,
} from './source-file.js';

/** Options for reading a working tree. */
export type WorktreeSourceOptions = SourceOptions;

interface IgnoreLayer {
  /** Directory of the .gitignore, relative to the root ('' for the root). */
  base: string;
  rules: Ignore;
}

/**
 * A working tree on disk. Honours `.gitignore` files at every level (and
 * `.git/info/exclude`), skips vendored folders, binaries and files over the size
 * limit, and never follows a symlink that leaves the root.
 */
export class WorktreeSource implements RepositorySource {
  readonly mode = 'worktree' as const;
  readonly commit = null;
  private readonly maxFileBytes: number;
  private readonly excluded: Set<string>;
  /**
   * Parsed ignore files by path, kept while their text is unchanged: the rule
   * objects memoize every path they have tested, so a refresh of an unchanged
   * tree answers its ignore checks from memory (half of a listing's time otherwise).
   */
  private readonly ignoreFiles = new Map<string, { text: string; rules: Ignore }>();

  private constructor(
    readonly root: string,
    options: WorktreeSourceOptions,
  ) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.excluded = new Set([...VENDORED_DIRECTORIES, ...(options.excludeDirectories ?? [])]);
  }

  /** Opens `path` as a working tree; throws BAD_INPUT when it is not a readable directory. */
  static async open(path: string, options: WorktreeSourceOptions = {}): Promise<WorktreeSource> {
    let root: string;
    try {
      root = await realpath(path);
      if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new ReponavError('BAD_INPUT', `Cannot read repository folder '${path}': it does not exist or is not a directory.`);
    }
    return new WorktreeSource(root, options);
  }

  async list(): Promise<SourceListing> {
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    const layers: IgnoreLayer[] = [];
    const exclude = this.readIgnoreFile(join(this.root, '.git', 'info', 'exclude'));
    if (exclude) layers.push({ base: '', rules: exclude });
    // Synchronous on purpose: thousands of readdir/stat calls are several times
    // faster without a promise per call, and freshness checks run before every tool answer.
    this.walk('', layers, listing);
    listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return listing;
  }

  private walk(dir: string, parentLayers: IgnoreLayer[], listing: SourceListing): void {
    const absoluteDir = dir ? join(this.root, dir) : this.root;
    const own = this.readIgnoreFile(join(absoluteDir, '.gitignore'));
    const layers = own ? [...parentLayers, { base: dir, rules: own }] : parentLayers;
    let entries;
    try {
      entries = readdirSync(absoluteDir, { withFileTypes: true });
    } catch {
      recordSkip(listing, 'unreadable', dir || '.');
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = this.resolveInside(join(absoluteDir, entry.name));
        if (!target) {
          recordSkip(listing, 'symlink-outside-root', path);
          continue;
        }
        // Links to directories are not followed even inside the root: they would index files twice or loop.
        if (target.isDirectory) continue;
        isFile = true;
        isDirectory = false;
      }
      if (isDirectory) {
        if (this.excluded.has(entry.name)) {
          // Version-control metadata is not repository content: skipped without being counted.
          if (!VCS_DIRECTORIES.has(entry.name)) recordSkip(listing, 'vendored', path + '/');
          continue;
        }
        if (isIgnored(layers, path, true)) {
          recordSkip(listing, 'ignored', path + '/');
          continue;
        }
        this.walk(path, layers, listing);
        continue;
      }
      if (!isFile) continue;
      if (isIgnored(layers, path, false)) {
        recordSkip(listing, 'ignored', path);
        continue;
      }
      if (hasBinaryExtension(path)) {
        recordSkip(listing, 'binary', path);
        continue;
      }
      let info: { size: number; mtimeMs: number } | null = null;
      try {
        info = statSync(join(absoluteDir, entry.name));
      } catch {
        info = null;
      }
      if (!info) {
        recordSkip(listing, 'unreadable', path);
        continue;
      }
      if (info.size > this.maxFileBytes) {
        recordSkip(listing, 'too-large', path);
        continue;
      }
      listing.files.push({ path, size: info.size, mtimeMs: info.mtimeMs, blobId: null });
    }
  }

  /** The rules of an ignore file, or null when it is absent or unreadable. */
  private readIgnoreFile(path: string): Ignore | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      this.ignoreFiles.delete(path);
      return null;
    }
    const cached = this.ignoreFiles.get(path);
    if (cached && cached.text === text) return cached.rules;
    const rules = ignore().add(text);
    this.ignoreFiles.set(path, { text, rules });
    return rules;
  }

  /** Resolves a symlink; returns null when its target is outside the root or dangling. */
  private resolveInside(linkPath: string): { isDirectory: boolean } | null {
    try {
      const target = realpathSync(linkPath);
      const rel = relative(this.root, target);
      if (rel.startsWith('..') || rel.startsWith(sep) || rel === '' || /^[a-zA-Z]:/.test(rel)) return null;
      return { isDirectory: statSync(target).isDirectory() };
    } catch {
      return null;
    }
  }

  async *readMany(files: SourceFile[]): AsyncIterable<{ file: SourceFile; bytes: Buffer | null }> {
    for (const file of files) {
      let bytes: Buffer | null = null;
      try {
        const absolute = join(this.root, file.path);
        // Re-check at read time: a file may have become a link since listing.
        const info = await lstat(absolute);
        if (info.isSymbolicLink() && !this.resolveInside(absolute)) bytes = null;
        else bytes = await readFile(absolute);
      } catch {
        bytes = null;
      }
      yield { file, bytes };
    }
  }
}

function isIgnored(layers: IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  // Deeper .gitignore files override shallower ones, so `!keep.log` in a
  // subfolder re-includes what the root's `*.log` excluded (as git does).
  let ignored = false;
  for (const layer of layers) {
    const rel = layer.base ? path.slice(layer.base.length + 1) : path;
    if (!rel) continue;
    const verdict = layer.rules.test(isDirectory ? rel + '/' : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

