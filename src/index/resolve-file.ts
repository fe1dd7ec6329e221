import { join } from 'node:path';
import { ReponavError } from '../errors.js';
import { closestPaths, displayPath, explainSkip, explainSkipOnDisk, quotedPath as quoted, toRepositoryPath, type RepositorySource, type SkipReason } from './sources/index.js';
import type { FileRow, IndexStore } from './store/index.js';

/**
 * Resolves a user path to an indexed file of `store`, or throws
 * FILE_NOT_FOUND: for a file the index left out on purpose, why (and the rule
 * behind it); otherwise with the closest indexed paths.
 */
export function resolveIndexedFile(store: IndexStore, source: RepositorySource, maxFileBytes: number, userPath: string): FileRow {
  const path = toRepositoryPath(source.root, userPath, { checkSymlinks: source.mode === 'worktree' });
  const file = store.file(path);
  if (file) return file;
  // A file the index skipped on purpose gets its reason, not a list of other paths.
  const skip = store.skippedFiles().get(path)?.reason ?? source.skipReason?.(path) ?? null;
  if (skip) {
    // In a working tree the file itself can say more than the recorded reason (its encoding, the system's error).
    const why =
      source.mode === 'worktree' ? explainSkipOnDisk(skip as SkipReason, maxFileBytes, join(source.root, path)) : explainSkip(skip as SkipReason, maxFileBytes);
    const rule = skip === 'ignored' || skip === 'vendored' || skip === 'excluded' ? source.skipRule?.(path) : null;
    throw new ReponavError('FILE_NOT_FOUND', `${quoted(userPath)} was not indexed: ${why}${rule ? ` (${rule})` : ''}.`, { suggestions: [] });
  }
  const suggestions = closestPaths(path, store.files().map((f) => f.path));
  const hint = suggestions.length ? ` Closest indexed paths: ${suggestions.map(displayPath).join(', ')}.` : '';
  throw new ReponavError('FILE_NOT_FOUND', `${quoted(userPath)} is not an indexed file of ${displayPath(source.root)}.${hint}`, { suggestions });
}
