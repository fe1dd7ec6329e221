/**
 * One folder's children as the source holds them (the working tree on disk,
 * or a commit's tree through `git ls-tree`), indexed or not: what list_files
 * shows beside the index's rows. Paths never leave the root (path-guard).
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../../errors.js';
import { displayPath } from '../sources/index.js';
import { indexConnection, type IndexStore } from '../store/index.js';
import { toRepositoryPath } from '../sources/index.js';
import { VCS_DIRECTORIES, type RepositorySource, type SkipReason } from '../sources/index.js';

/** One child of a folder: a file (with its size when known) or a folder. */
export interface FolderChild {
  /** Repository-relative path with `/` separators. */
  path: string;
  kind: 'file' | 'folder';
  /** Bytes for a file (null when unknown: a blob missing from a partial mirror); null for a folder. */
  size: number | null;
}

/**
 * A user's folder path as a repository path (`''` for the root), refusing
 * what is outside the root; throws FILE_NOT_FOUND when neither a folder nor a
 * file is there. `kind` says which it is.
 */
export function resolveListingPath(source: RepositorySource, userPath: string): { path: string; kind: 'file' | 'folder' } {
  const trimmed = userPath.trim();
  const path = trimmed === '' || trimmed === '.' || trimmed === './' ? '' : toRepositoryPath(source.root, trimmed, { checkSymlinks: source.mode === 'worktree' }).replace(/\/+$/, '');
  if (path === '') return { path, kind: 'folder' };
  if (source.mode === 'worktree') {
    try {
      return { path, kind: statSync(join(source.root, path)).isDirectory() ? 'folder' : 'file' };
    } catch {
      throw notFound(path);
    }
  }
  const record = source.detachedFiles ? detachedEntry(source, path) : lsTree(source, ['--', path])[0];
  if (!record || record.path !== path) throw notFound(path);
  return { path, kind: record.kind };
}

function notFound(path: string): ReponavError {
  return new ReponavError('FILE_NOT_FOUND', `${displayPath(path)} is neither a folder nor a file of this repository; list_files with no path shows the top level.`);
}

/** The children of folder `dir` (`''`: the root), sorted by path; version-control folders are left out. */
export function folderChildren(source: RepositorySource, dir: string): FolderChild[] {
  const children =
    source.mode === 'worktree' ? worktreeChildren(source.root, dir) : source.detachedFiles ? detachedChildren(source, dir) : lsTree(source, dir === '' ? [] : ['--', `${dir}/`]);
  return children.filter((c) => !VCS_DIRECTORIES.has(c.path.slice(c.path.lastIndexOf('/') + 1))).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function worktreeChildren(root: string, dir: string): FolderChild[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return [];
  }
  return names.map((name) => {
    const path = dir === '' ? name : `${dir}/${name}`;
    try {
      const info = lstatSync(join(root, path));
      // A symlink is listed as a file (the index decides whether its target is inside the root).
      return info.isDirectory() ? { path, kind: 'folder' as const, size: null } : { path, kind: 'file' as const, size: info.isSymbolicLink() ? null : info.size };
    } catch {
      return { path, kind: 'file' as const, size: null };
    }
  });
}

/** A detached source's children of `dir`, from its own file list (never the disk or git). */
function detachedChildren(source: RepositorySource, dir: string): FolderChild[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  const children = new Map<string, FolderChild>();
  for (const file of source.detachedFiles!()) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    const path = prefix + (slash < 0 ? rest : rest.slice(0, slash));
    if (!children.has(path)) children.set(path, slash < 0 ? { path, kind: 'file', size: file.size } : { path, kind: 'folder', size: null });
  }
  return [...children.values()];
}

/** `path` in a detached source: a file it holds, or a folder above one; undefined when neither. */
function detachedEntry(source: RepositorySource, path: string): FolderChild | undefined {
  for (const file of source.detachedFiles!()) {
    if (file.path === path) return { path, kind: 'file', size: file.size };
    if (file.path.startsWith(`${path}/`)) return { path, kind: 'folder', size: null };
  }
  return undefined;
}

function lsTree(source: RepositorySource, pathArgs: string[]): FolderChild[] {
  const result = spawnSync('git', ['--git-dir', source.root, 'ls-tree', '-l', '-z', source.commit!, ...pathArgs], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) throw new ReponavError('UNKNOWN_REVISION', `Cannot list commit ${source.commit}: ${(result.stderr ?? '').trim()}`);
  const out: FolderChild[] = [];
  for (const record of result.stdout.split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [, type, , sizeText] = record.slice(0, tab).split(/\s+/);
    const path = record.slice(tab + 1);
    if (type === 'tree') out.push({ path, kind: 'folder', size: null });
    else if (type === 'blob') out.push({ path, kind: 'file', size: sizeText === '-' ? null : Number(sizeText) });
  }
  return out;
}

/**
 * Why the listing does not index `path` (a file, or a folder when `folder`):
 * the skip the last run recorded, else what the source says; null when it
 * would index it (or cannot tell). The rule behind an ignore is given too.
 */
export function notIndexedReason(
  source: RepositorySource,
  skipped: ReadonlyMap<string, { reason: string }>,
  path: string,
  folder: boolean,
): { reason: SkipReason; rule: string | null } | null {
  // A folder's reason is that of a path below it (the listing never enters a skipped folder).
  const probe = folder ? `${path}/-` : path;
  const recorded = folder ? undefined : skipped.get(path)?.reason;
  const reason = (recorded as SkipReason | undefined) ?? source.skipReason?.(probe) ?? (source.skipRule?.(probe) ? 'vendored' : null);
  if (!reason) return null;
  return { reason, rule: reason === 'ignored' || reason === 'vendored' || reason === 'excluded' ? (source.skipRule?.(probe) ?? null) : null };
}

/** The number of symbols each of `paths` defines (paths without symbols are absent). */
export function symbolCounts(store: IndexStore, paths: readonly string[]): Map<string, number> {
  if (paths.length === 0) return new Map();
  const rows = indexConnection(store)
    .prepare(
      `SELECT f.path AS path, COUNT(s.id) AS n FROM files f JOIN symbols s ON s.file_id = f.id
       WHERE f.path IN (SELECT value FROM json_each(?)) GROUP BY f.path`,
    )
    .all(JSON.stringify(paths)) as { path: string; n: number }[];
  return new Map(rows.map((r) => [r.path, r.n]));
}
