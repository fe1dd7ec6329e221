import { closeSync, openSync, readSync } from 'node:fs';
import { formatBytes } from '../../plural.js';

/**
 * What the indexer reads: a list of files with cheap change signals, from a
 * working tree or from a git commit, and the reasons anything was skipped.
 */

/** One file offered to the indexer. Paths are repository-relative with `/` separators. */
export interface SourceFile {
  path: string;
  size: number;
  /**
   * Working tree only: the file's change stamp in ms, the cheap first change check. The later of its
   * modification and status-change times (see {@link changeStamp}): a same-length edit whose
   * modification time is put back (`touch -r`) still moves the status-change time, which no
   * editor or checkout can keep equal.
   */
  mtimeMs: number | null;
  /** Git blob id when known without reading the file (commit mode), else null. */
  blobId: string | null;
}

/** Why a file was not indexed. */
export type SkipReason =
  /** Left out by `.gitignore` or `.git/info/exclude` (never a file git tracks). */
  | 'ignored'
  /** In a folder a default rule leaves out (`venv/`, `build/` …; never a file git tracks), or one the index settings exclude. */
  | 'vendored'
  /** Left out by `.reponavignore`, `.ignore`, `.rgignore` or `--exclude` (tracked or not). */
  | 'excluded'
  | 'binary'
  | 'too-large'
  | 'symlink-outside-root'
  /** A link that resolves to itself, directly or through other links. */
  | 'symlink-loop'
  /** A link whose target does not exist. */
  | 'symlink-dangling'
  /** A link to a folder: never followed (it would index files twice, or loop); the folder's files are indexed where they are. */
  | 'symlink-folder'
  | 'unreadable'
  | 'missing-blob';

/** A listing of a source, before any file is read. */
export interface SourceListing {
  files: SourceFile[];
  /** Counts of files skipped at listing time, by reason (ignored files are counted, not listed). */
  skipped: Partial<Record<SkipReason, number>>;
  /** A few example paths per reason, for messages. */
  skippedExamples: Partial<Record<SkipReason, string[]>>;
}

/** Candidate paths and what a cheap check found at them; every other path is unchanged since the last run. */
export interface ListingDelta {
  /** Files listed among the candidates (a candidate folder contributes every file below it), with fresh identities. */
  files: SourceFile[];
  /**
   * The candidate paths. An indexed file at a candidate path, or below a
   * candidate folder, that is not in `files` is gone (deleted, ignored, skipped).
   */
  candidates: string[];
}

/** What a source can tell cheaply about changes since the run that stored `previous`. */
export interface ChangeCheck {
  /**
   * The state to store once this run has succeeded (evaluated after the
   * listing); null: nothing to store. `wrote`: whether the run wrote anything;
   * a run that wrote nothing is given back the stored token when the state it
   * saw is the one that token records, so storing it writes nothing.
   */
  token: (wrote: boolean) => string | null;
  /** The changes since `previous`, or null when only a full listing can tell. */
  delta: ListingDelta | null;
}

/** A readable snapshot of a repository: a working tree or one commit. */
export interface RepositorySource {
  /** `worktree` or `commit`. */
  readonly mode: 'worktree' | 'commit';
  /** Absolute path of the working tree root, or of the git dir in commit mode. */
  readonly root: string;
  /** The commit id in commit mode, else null. */
  readonly commit: string | null;
  list(): Promise<SourceListing>;
  /**
   * Optional: what changed since the run that stored `previous` (the token a
   * ChangeCheck returned), without listing everything when it can tell.
   * `recheck` names paths to look at again even when nothing changed at them
   * (files whose parse failed): they join a delta's candidates.
   */
  changesSince?(previous: string | null, recheck?: readonly string[]): Promise<ChangeCheck>;
  /**
   * Optional, read-only: what changesSince would find (the candidates and the
   * files listed at them); 'full-listing' when only a full listing can tell
   * and list() may be called for it; null when it cannot tell without side
   * effects. Consumes nothing (no watcher event, no token), so changesSince
   * after it sees the same.
   */
  peekChanges?(previous: string | null, recheck?: readonly string[]): Promise<ListingDelta | 'full-listing' | null>;
  /**
   * Optional: why a listing would skip this one repository path, or null when
   * it would list it, the path is absent, or the source cannot tell cheaply.
   */
  skipReason?(path: string): SkipReason | null;
  /**
   * Optional: the rule behind an 'ignored' or 'vendored' skip of this path (a
   * file below a skipped folder included), as a message shows it, e.g.
   * "'build/' in .gitignore"; null when there is none.
   */
  skipRule?(path: string): string | null;
  /**
   * Optional, present only on a source with no repository on this host (a
   * shard a team server serves): the files it holds, `size` null when
   * unknown. Its root is a name, not a folder: nothing may run git or read the
   * disk for such a source, and what needs git (history, changes) refuses it.
   */
  detachedFiles?(): readonly { path: string; size: number | null }[];
  /**
   * Optional: files the rules leave out ('ignored', 'vendored', 'excluded'),
   * in walk order, up to `limit` (files inside left-out folders included,
   * version-control folders never): where a lookup that found nothing looks
   * for the name it was asked.
   */
  leftOutFiles?(limit: number): string[];
  /** Optional: releases watchers and other resources. */
  close?(): void;
  /** Reads many files; missing ones come back as null (never a throw for a single missing blob). */
  readMany(paths: SourceFile[]): AsyncIterable<{ file: SourceFile; bytes: Buffer | null }>;
}

/** Version-control metadata folders: never indexed, and not reported as skipped content either. */
export const VCS_DIRECTORIES: ReadonlySet<string> = new Set(['.git', '.hg', '.svn']);

/**
 * Folders that usually hold vendored or generated code: left out by default at
 * any depth, but only for files git does not track (a tracked `venv/` or
 * `build/` folder is source: typeshed's `stdlib/venv`, Bazel's
 * `devtools/build`), and a `!name/` line in `.reponavignore` (or `--include`)
 * brings them back.
 */
export const VENDORED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'vendor',
  'third_party',
  'bower_components',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  'dist',
  'build',
  'target',
  '.next',
  '.reponav',
]);

/** What both sources skip beyond their defaults. */
export interface SourceOptions {
  /** Larger files are skipped as `too-large` (default 1 MiB). */
  maxFileBytes?: number;
  /** Extra folder names to skip at any depth, tracked files included. */
  excludeDirectories?: string[];
  /** Gitignore-syntax globs, relative to the root, to index even where another rule leaves them out (`--include`). */
  include?: string[];
  /** Gitignore-syntax globs, relative to the root, to leave out, tracked files included (`--exclude`). */
  exclude?: string[];
}

/** Default maximum file size: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Extensions that are binary for certain; other files are sniffed for NUL bytes. */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff psd pdf zip gz tgz bz2 xz 7z rar jar war class so dylib dll exe ' +
    'o a lib bin dat db sqlite sqlite3 woff woff2 ttf otf eot mp3 mp4 m4a wav ogg flac avi mov mkv webm ' +
    'pyc pyo whl egg wasm node pack idx npy npz pkl h5 parquet'
  ).split(' '),
);

/** True when the extension alone says the file is binary. */
export function hasBinaryExtension(path: string): boolean {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return false;
  return BINARY_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/** True when the first 8 KiB contain a NUL byte (git's own heuristic). */
export function looksBinary(bytes: Buffer): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * A working-tree file's change stamp: the later of its modification time and
 * its status-change time (ctime). Writing a file moves its ctime, and so does
 * replacing it by a rename (a new inode), and neither can be set back.
 */
export function changeStamp(info: { mtimeMs: number; ctimeMs: number }): number {
  return Math.max(info.mtimeMs, info.ctimeMs);
}

/**
 * True when a listed file still has the identity recorded for it: the same blob
 * id when the source knows blob ids (commit mode), else the same size and change
 * stamp (a differing stamp is then settled by the file's content, stale-files.ts).
 */
export function sameIdentity(file: SourceFile, recorded: { blobId: string | null; size: number | null; mtimeMs: number | null }): boolean {
  return file.blobId ? recorded.blobId === file.blobId : recorded.size === file.size && recorded.mtimeMs === file.mtimeMs;
}

/** Adds one skip to a listing's counters, keeping up to three examples per reason. */
export function recordSkip(listing: SourceListing, reason: SkipReason, path: string): void {
  listing.skipped[reason] = (listing.skipped[reason] ?? 0) + 1;
  const examples = (listing.skippedExamples[reason] ??= []);
  if (examples.length < 3) examples.push(path);
}

/** The rule behind a 'vendored' skip of a folder the index settings exclude (`excludeDirectories`). */
export function excludedFolderRule(name: string): string {
  return `${name}/ is a folder excluded by the index settings`;
}

/** Why a file was not indexed, as the end of a sentence ("it is binary"), naming the option that changes it where one does. */
export function explainSkip(reason: SkipReason, maxFileBytes: number): string {
  switch (reason) {
    case 'binary':
      return 'it is binary';
    case 'too-large':
      return `it is larger than the ${formatBytes(maxFileBytes)} limit (--max-file-size)`;
    case 'ignored':
      return 'it is ignored by a .gitignore rule';
    case 'vendored':
      return 'it is in a folder left out by default or by the index settings';
    case 'excluded':
      return 'it is excluded by a .reponavignore, .ignore or .rgignore rule or by --exclude';
    case 'symlink-outside-root':
      return 'it is a symbolic link to a target outside the repository';
    case 'symlink-loop':
      return 'it is a symbolic link that loops';
    case 'symlink-dangling':
      return 'it is a symbolic link whose target does not exist';
    case 'symlink-folder':
      return 'it is a symbolic link to a folder, which is not followed (the folder is indexed where it is)';
    case 'unreadable':
      return 'it could not be read';
    case 'missing-blob':
      return 'its blob is missing from the git repository';
  }
}

/** The encoding a byte-order mark names, or null (UTF-8's own mark is text reponav reads). */
function byteOrderMark(head: Buffer): string | null {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x0000feff) return 'UTF-32BE';
  if (head.length >= 4 && head.readUInt32BE(0) === 0xfffe0000) return 'UTF-32LE';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'UTF-16BE';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'UTF-16LE';
  return null;
}

/**
 * explainSkip with what the file on disk says now, for a file skipped as
 * binary or unreadable: a UTF-16/UTF-32 file "is not UTF-8 text" (with what to
 * do), an unreadable one names the system's reason (permission denied, …).
 * Any other reason, or a file that cannot be looked at, gets explainSkip's words.
 */
export function explainSkipOnDisk(reason: SkipReason, maxFileBytes: number, absolutePath: string): string {
  if (reason !== 'binary' && reason !== 'unreadable') return explainSkip(reason, maxFileBytes);
  let fd: number | null = null;
  try {
    fd = openSync(absolutePath, 'r');
    const head = Buffer.alloc(4);
    const read = readSync(fd, head, 0, 4, 0);
    const encoding = byteOrderMark(head.subarray(0, read));
    if (encoding) return `it is not UTF-8 text (${encoding}, by its byte-order mark); re-encode it as UTF-8 to have it indexed`;
    return explainSkip(reason, maxFileBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : code;
    return reason === 'unreadable' && why ? `it could not be read (${why})` : explainSkip(reason, maxFileBytes);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
