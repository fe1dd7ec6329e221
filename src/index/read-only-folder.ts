import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ReponavError } from '../errors.js';
import { writtenBy, type IndexSettings } from './index-settings.js';
import { displayPath, type RepositorySource } from './sources/index.js';
import { unwritableFolder, type IndexStore, type WriterLock } from './store/index.js';
import { readOnlyUnchanged, storedSummary, type IndexReport } from './write/index.js';

/** An index in a folder that cannot be written: why, the index's own path, and the private copy it is read from. */
export interface UnwritableIndex {
  reason: string;
  indexPath: string;
  /** The folder of the private copy (see readableCopy); null when there was no index to copy. */
  copy: string | null;
}

/**
 * Checks the folder of `indexPath`: null when it can be written (or the index
 * is in memory). Otherwise an index already there is used read-only (while it
 * matches the tree), so `access.readonly` is set and the index copied to a
 * private folder; with none there, throws INDEX_UNAVAILABLE unless the caller
 * opened read-only anyway.
 */
export function openUnwritable(indexPath: string, access: { readonly: boolean }): UnwritableIndex | null {
  const reason = indexPath === ':memory:' ? null : unwritableFolder(indexPath);
  if (reason === null) return null;
  if (!existsSync(indexPath) && !access.readonly) {
    throw new ReponavError(
      'INDEX_UNAVAILABLE',
      `Cannot create the index at ${displayPath(indexPath)}: ${reason}; set REPONAV_CACHE_DIR (or --index-path) to a writable folder.`,
    );
  }
  access.readonly = true;
  return { reason, indexPath, copy: existsSync(indexPath) ? readableCopy(indexPath) : null };
}

/** The path to open for `indexPath`: inside the private copy when there is one. */
export function readablePath(unwritable: UnwritableIndex | null, indexPath: string): string {
  return unwritable?.copy ? join(unwritable.copy, basename(indexPath)) : indexPath;
}

/** Removes the private copy, if any (on close). */
export function removeReadableCopy(unwritable: UnwritableIndex | null): void {
  if (unwritable?.copy) rmSync(unwritable.copy, { recursive: true, force: true });
}

/**
 * The refresh of an index in a folder that cannot be written: it answers while
 * it matches the tree at `root` (checked from reads alone); anything else would
 * need a write, so it throws INDEX_UNAVAILABLE, one sentence saying what to do.
 */
export async function checkReadOnly(
  index: { store: IndexStore; source: RepositorySource; lock: WriterLock; settings: IndexSettings; root: string },
  unwritable: UnwritableIndex,
): Promise<IndexReport> {
  // Failed parses cannot be tried again without a write: they are what this index holds, not a change.
  const failures = JSON.stringify(storedSummary(index.store)?.failedPaths ?? []);
  const expected = () => ({ writtenBy: writtenBy(index.store), settings: JSON.stringify(index.settings), retriedFailures: failures });
  const unchanged = await readOnlyUnchanged(index.store, index.source, index.lock, expected).catch(() => null);
  if (unchanged) return unchanged;
  throw new ReponavError(
    'INDEX_UNAVAILABLE',
    `The index at ${displayPath(unwritable.indexPath)} cannot be updated (${unwritable.reason}) and it no longer matches ${displayPath(index.root)} (or that cannot be checked without writing); ` +
      'run `reponav index` where the folder is writable, or set REPONAV_CACHE_DIR (or --index-path) to a writable folder.',
  );
}

/**
 * A private copy of an index in a folder that cannot be written, in the
 * temporary folder: SQLite cannot open a write-ahead-log database read-only
 * where it cannot create the log's shared-memory file, and this build of it
 * has no URI filenames (`immutable=1`). Returns the copy's folder.
 */
function readableCopy(indexPath: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'reponav-readonly-'));
  for (const suffix of ['', '-wal']) {
    if (existsSync(indexPath + suffix)) copyFileSync(indexPath + suffix, join(folder, basename(indexPath) + suffix));
  }
  return folder;
}
