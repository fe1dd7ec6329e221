import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ReponavError } from '../../errors.js';
import { quotedPath } from './display-path.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  excludedFolderRule,
  hasBinaryExtension,
  recordSkip,
  type ChangeCheck,
  type RepositorySource,
  type SkipReason,
  type SourceFile,
  type SourceListing,
  type SourceOptions,
} from './source-file.js';
import { describeRule, FOLDER_IGNORE_FILES, isFolderIgnoreFile, newIgnore, reincludeHint, sparesTracked, verdictOf, type IgnoreLayer, type RuleVerdict } from './ignore-layers.js';
import { optionLayer } from './rule-options.js';

/** Options for reading one commit. */
export type GitCommitSourceOptions = SourceOptions;

/**
 * One commit of a git repository, read without a checkout through
 * `git ls-tree -r -l` and `git cat-file --batch`. Works on clones and bare
 * mirrors; blobs missing from a partial mirror are reported, not fatal.
 */
export class GitCommitSource implements RepositorySource {
  readonly mode = 'commit' as const;
  private readonly maxFileBytes: number;
  /** Folders the index settings exclude. */
  private readonly excluded: Set<string>;
  /** The `--include`/`--exclude` layer, or null. */
  private readonly option: IgnoreLayer | null;
  /** The commit's `.ignore`, `.rgignore` and `.reponavignore` files as layers, read on first need. */
  private layers: IgnoreLayer[] | null = null;
  /** What a run over this source stores as its freshness token: the commit and every setting that changes its listing. */
  private readonly token: string;
  /** The files whose blob this run could not read (a partial mirror): the next run reads them again, to retry them. */
  private missed: SourceFile[] = [];

  private constructor(
    readonly root: string,
    readonly commit: string,
    options: GitCommitSourceOptions,
  ) {
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    // Every file of a commit is tracked: the default folder rules and .gitignore never leave one out.
    this.excluded = new Set(options.excludeDirectories ?? []);
    this.option = optionLayer(options.include ?? [], options.exclude ?? []);
    this.token = JSON.stringify({ commit, maxFileBytes: this.maxFileBytes, excluded: [...this.excluded].sort(), include: options.include ?? [], exclude: options.exclude ?? [] });
  }

  /**
   * See RepositorySource.changesSince. A commit never changes: a run that
   * completed over the same commit with the same settings (the token it
   * stored) leaves nothing to do, unless failed parses are to be tried again;
   * anything else is a full listing. Without this a refresh with nothing to
   * do rewrote the index's marks, starting a new index state that threw away
   * every value derived from the last one. A run that met missing blobs
   * stores them in its token, so the next run reads those files again (the
   * mirror may have fetched them since) and nothing else.
   */
  changesSince(previous: string | null, recheck: readonly string[] = []): Promise<ChangeCheck> {
    // A run begins here: what an earlier run missed and this one reads (the mirror fetched it) is no longer missing.
    this.missed = [];
    const token = () => (this.missed.length === 0 ? this.token : JSON.stringify({ ...(JSON.parse(this.token) as object), missing: missingEntries(this.missed) }));
    if (recheck.length > 0) return Promise.resolve({ token, delta: null });
    if (previous === this.token) return Promise.resolve({ token, delta: { files: [], candidates: [] } });
    const missing = this.missingSince(previous);
    // Still all missing: only they are read again. One arrived: the listing applies its rules (the size limit) to it.
    const stillMissing = missing !== null && this.allMissing(missing.map((file) => file.blobId!));
    return Promise.resolve({ token, delta: stillMissing ? { files: missing, candidates: missing.map((file) => file.path) } : null });
  }

  /** True when the repository lacks every one of these blobs (one `git cat-file --batch-check`). */
  private allMissing(blobIds: readonly string[]): boolean {
    const result = spawnSync('git', ['--git-dir', this.root, 'cat-file', '--batch-check'], { input: blobIds.join('\n') + '\n', encoding: 'utf8' });
    if (result.status !== 0) return false;
    const lines = result.stdout.split('\n').filter(Boolean);
    return lines.length === blobIds.length && lines.every((line) => line.endsWith(' missing'));
  }

  /** The files a run over this commit and settings stored as missing in `previous`, or null when it is no such token. */
  private missingSince(previous: string | null): SourceFile[] | null {
    if (!previous) return null;
    try {
      const { missing, ...rest } = JSON.parse(previous) as { missing?: unknown };
      if (JSON.stringify(rest) !== this.token || !Array.isArray(missing) || missing.length === 0) return null;
      const files: SourceFile[] = [];
      for (const entry of missing as unknown[]) {
        if (!Array.isArray(entry) || entry.length !== 3) return null;
        const [path, blobId, size] = entry as unknown[];
        // A size git could not tell (a missing blob's, NaN) is stored as null.
        if (typeof path !== 'string' || typeof blobId !== 'string' || (typeof size !== 'number' && size !== null)) return null;
        files.push({ path, blobId, size: size ?? NaN, mtimeMs: null });
      }
      return files;
    } catch {
      return null;
    }
  }

  /**
   * Resolves `revision` in the repository at `path` (a working tree, a `.git`
   * dir or a bare mirror). Throws NOT_A_GIT_REPOSITORY or UNKNOWN_REVISION with
   * one clear sentence.
   */
  static async open(path: string, revision: string, options: GitCommitSourceOptions = {}): Promise<GitCommitSource> {
    const gitDir = findGitDir(path);
    if (!gitDir) {
      throw new ReponavError('NOT_A_GIT_REPOSITORY', `${quotedPath(path)} is not a git repository, so --commit cannot be used there.`);
    }
    const result = git(gitDir, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
    const commit = result.status === 0 ? result.stdout.trim() : '';
    if (!commit) {
      throw new ReponavError('UNKNOWN_REVISION', `Revision '${revision}' does not name a commit in ${gitDir}.`);
    }
    return new GitCommitSource(gitDir, commit, options);
  }

  async list(): Promise<SourceListing> {
    const listing: SourceListing = { files: [], skipped: {}, skippedExamples: {} };
    const result = git(this.root, ['ls-tree', '-r', '-l', '-z', this.commit]);
    if (result.status !== 0) {
      throw new ReponavError('UNKNOWN_REVISION', `Cannot list commit ${this.commit}: ${result.stderr.trim()}`);
    }
    const entries = treeEntries(result.stdout);
    this.layers = this.ruleLayers(entries);
    for (const { mode, type, blobId, size, path } of entries) {
      if (type !== 'blob') continue; // submodules (commit) are not part of this repository's text
      if (mode === '120000') continue; // symlinks are never followed in commit mode
      const skip = this.skipOf(path, size);
      if (skip) {
        recordSkip(listing, skip, path);
        continue;
      }
      listing.files.push({ path, size, mtimeMs: null, blobId });
    }
    listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return listing;
  }

  /** Why the listing skips a blob at `path` of `size` bytes, or null when it lists it. */
  private skipOf(path: string, size: number): SkipReason | null {
    if (path.split('/').slice(0, -1).some((part) => this.excluded.has(part))) return 'vendored';
    if (this.excludingVerdict(path)) return 'excluded';
    if (hasBinaryExtension(path)) return 'binary';
    if (size > this.maxFileBytes) return 'too-large';
    return null;
  }

  /** The folder setting or rule behind a 'vendored' or 'excluded' skip of `path` (see RepositorySource), or null. */
  skipRule(path: string): string | null {
    const folder = path.split('/').slice(0, -1).find((part) => this.excluded.has(part));
    if (folder) return excludedFolderRule(folder);
    const verdict = this.excludingVerdict(path);
    return verdict ? `${describeRule(verdict)}; ${reincludeHint(verdict)}` : null;
  }

  /**
   * The rule that leaves out `path` (its own, or a folder's above it, which
   * the walk of a working tree would not enter), or null. Only the rules that
   * leave out tracked files count: a commit holds nothing else.
   */
  private excludingVerdict(path: string): RuleVerdict | null {
    const layers = (this.layers ??= this.ruleLayers(treeEntries(git(this.root, ['ls-tree', '-r', '-l', '-z', this.commit]).stdout)));
    if (layers.length === 0) return null;
    const parts = path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const verdict = verdictOf(layers, parts.slice(0, i).join('/'), i < parts.length);
      if (verdict?.excluded && !sparesTracked(verdict.source)) return verdict;
    }
    return null;
  }

  /** The option layer and the commit's `.ignore`, `.rgignore` and `.reponavignore` files among its tree `entries`. */
  private ruleLayers(entries: readonly TreeEntry[]): IgnoreLayer[] {
    const layers: IgnoreLayer[] = this.option ? [this.option] : [];
    for (const { type, blobId, path } of entries) {
      if (type !== 'blob' || !isFolderIgnoreFile(path) || path.endsWith('.gitignore')) continue;
      const text = git(this.root, ['cat-file', 'blob', blobId]);
      if (text.status !== 0) continue;
      const slash = path.lastIndexOf('/');
      const name = path.slice(slash + 1);
      const source = FOLDER_IGNORE_FILES.find((file) => file.name === name)!.source;
      layers.push({ base: slash < 0 ? '' : path.slice(0, slash), rules: newIgnore().add(text.stdout), file: path, source });
    }
    // Shallow folders first: verdictOf reads a source's layers deepest first from the end.
    const depth = (layer: IgnoreLayer) => (layer.base ? layer.base.split('/').length : 0);
    return layers.sort((a, b) => depth(a) - depth(b));
  }

  /** Why the listing skips the blob at `path` (one `git ls-tree`), or null when it lists it or there is none. */
  skipReason(path: string): SkipReason | null {
    const result = git(this.root, ['ls-tree', '-l', '-z', this.commit, '--', path]);
    const entry = result.status === 0 ? treeEntries(result.stdout)[0] : undefined;
    if (!entry || entry.path !== path || entry.type !== 'blob' || entry.mode === '120000') return null;
    return this.skipOf(path, entry.size);
  }

  async *readMany(files: SourceFile[]): AsyncIterable<{ file: SourceFile; bytes: Buffer | null }> {
    if (files.length === 0) return;
    const child = spawn('git', ['--git-dir', this.root, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const reader = new BatchReader(child.stdout);
    // A git that is gone (killed below when the reader stops early, or by a stop signal) fails the pending
    // writes with EPIPE: that ends the writing, it is not an error of the read (the reader sees git's end).
    child.stdin.on('error', () => undefined);
    child.on('error', () => undefined);
    const stdinClosed = new Promise<void>((resolve) => child.stdin.once('close', resolve));
    // Write requests in the background; the pipe's back-pressure paces it, and a closed pipe stops it.
    const writer = (async () => {
      for (const file of files) {
        if (child.stdin.destroyed) return;
        if (!child.stdin.write(`${file.blobId}\n`)) await Promise.race([new Promise((r) => child.stdin.once('drain', r)), stdinClosed]);
      }
      child.stdin.end();
    })();
    try {
      for (const file of files) {
        const header = await reader.readLine();
        if (header === null) throw new ReponavError('INTERNAL', 'git cat-file ended early');
        if (header.endsWith(' missing')) {
          this.missed.push(file);
          yield { file, bytes: null };
          continue;
        }
        const size = Number(header.split(' ')[2]);
        const bytes = await reader.readBytes(size + 1); // content + trailing LF
        yield { file, bytes: bytes.subarray(0, size) };
      }
    } finally {
      child.stdin.destroy();
      child.kill();
      await writer.catch(() => undefined);
    }
  }
}

/** The stored form of missed files: `[path, blob id, size or null]`, by path. */
function missingEntries(files: readonly SourceFile[]): [string, string, number | null][] {
  return files
    .map((f): [string, string, number | null] => [f.path, f.blobId!, Number.isFinite(f.size) ? f.size : null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** One entry of `git ls-tree -l`: mode, object type and id, size (NaN for a tree or commit) and path. */
interface TreeEntry {
  mode: string;
  type: string;
  blobId: string;
  size: number;
  path: string;
}

/** The entries of `git ls-tree -l -z` output (records `<mode> <type> <id> <size>\t<path>`, NUL-terminated). */
function treeEntries(output: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = '', blobId = '', sizeText] = record.slice(0, tab).split(/\s+/);
    entries.push({ mode, type, blobId, size: Number(sizeText), path: record.slice(tab + 1) });
  }
  return entries;
}

/** Finds the git dir for a working tree, a `.git` folder or a bare repository; null when none. */
export function findGitDir(path: string): string | null {
  const absolute = resolve(path);
  if (!existsSync(absolute)) return null;
  const result = git(absolute, ['rev-parse', '--absolute-git-dir'], true);
  if (result.status === 0 && result.stdout.trim()) return result.stdout.trim();
  if (existsSync(join(absolute, '.git'))) return join(absolute, '.git');
  return null;
}

function git(gitDirOrTree: string, args: string[], asWorkTree = false) {
  const prefix = asWorkTree ? ['-C', gitDirOrTree] : ['--git-dir', gitDirOrTree];
  const result = spawnSync('git', [...prefix, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/**
 * Reads lines and exact byte counts from a stream without losing data between
 * calls. Keeps received chunks in a list and joins only what a read needs, so
 * a consumer that falls behind never causes quadratic copying.
 */
class BatchReader {
  private chunks: Buffer[] = [];
  private length = 0;
  private ended = false;
  private waiting: (() => void) | null = null;

  constructor(stream: NodeJS.ReadableStream) {
    stream.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.length += chunk.length;
      this.wake();
    });
    stream.on('end', () => {
      this.ended = true;
      this.wake();
    });
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    await new Promise<void>((r) => (this.waiting = r));
    return true;
  }

  /** Removes and returns the first `count` bytes (count ≤ length). */
  private take(count: number): Buffer {
    if (this.chunks[0].length >= count) {
      const head = this.chunks[0];
      const out = head.subarray(0, count);
      if (head.length === count) this.chunks.shift();
      else this.chunks[0] = head.subarray(count);
      this.length -= count;
      return out;
    }
    const parts: Buffer[] = [];
    let need = count;
    while (need > 0) {
      const head = this.chunks[0];
      if (head.length <= need) {
        parts.push(head);
        this.chunks.shift();
        need -= head.length;
      } else {
        parts.push(head.subarray(0, need));
        this.chunks[0] = head.subarray(need);
        need = 0;
      }
    }
    this.length -= count;
    return Buffer.concat(parts, count);
  }

  async readLine(): Promise<string | null> {
    for (;;) {
      let offset = 0;
      for (const chunk of this.chunks) {
        const newline = chunk.indexOf(10);
        if (newline >= 0) {
          const line = this.take(offset + newline + 1);
          return line.subarray(0, line.length - 1).toString('utf8');
        }
        offset += chunk.length;
      }
      if (!(await this.more())) return null;
    }
  }

  async readBytes(count: number): Promise<Buffer> {
    while (this.length < count) {
      if (!(await this.more())) throw new ReponavError('INTERNAL', 'git cat-file output was cut short');
    }
    return Buffer.from(this.take(count));
  }
}
