import { realpathSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { ReponavError } from '../../errors.js';
import { displayPath, quotedPath } from './display-path.js';

/**
 * Turns a user-supplied path into a repository-relative `/` path, refusing
 * anything that leaves the root: `..` segments, absolute paths elsewhere, NUL
 * bytes, and (for working trees) symlinks whose target is outside.
 */
export function toRepositoryPath(root: string, userPath: string, options: { checkSymlinks: boolean }): string {
  if (typeof userPath !== 'string' || userPath.length === 0) {
    throw new ReponavError('BAD_INPUT', 'A file path is required.');
  }
  if (userPath.length > 4096 || userPath.includes('\0')) {
    throw new ReponavError('BAD_INPUT', 'The path is too long or contains a NUL byte.');
  }
  const cleaned = userPath.replace(/\\/g, '/');
  let rel: string;
  if (isAbsolute(cleaned)) {
    rel = relative(root, normalize(cleaned));
  } else {
    rel = normalize(cleaned.replace(/^\.\/+/, ''));
  }
  rel = rel.split(sep).join('/');
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
    throw new ReponavError('PATH_OUTSIDE_ROOT', `Path ${quotedPath(userPath)} is outside the repository root ${displayPath(root)}; give a path inside it.`);
  }
  if (rel === '.' || rel === '') return '';
  if (options.checkSymlinks) {
    let real: string | null = null;
    try {
      real = realpathSync(join(root, rel));
    } catch {
      real = null; // a missing file is reported by the caller with suggestions
    }
    if (real !== null) {
      const back = relative(root, real);
      if (back === '..' || back.startsWith('..' + sep) || isAbsolute(back)) {
        throw new ReponavError('PATH_OUTSIDE_ROOT', `Path ${quotedPath(userPath)} is a symlink that leads outside the repository root; it is not readable here.`);
      }
    }
  }
  return rel;
}

/** Up to `count` known paths closest to `wanted` (same basename first, then edit distance). */
export function closestPaths(wanted: string, known: string[], count = 3): string[] {
  const base = wanted.split('/').pop()!.toLowerCase();
  const scored = known.map((path) => {
    const pathBase = path.split('/').pop()!.toLowerCase();
    const score = (pathBase === base ? 0 : 1000) + (path.endsWith(wanted) ? 0 : 100) + editDistance(base, pathBase);
    return { path, score };
  });
  scored.sort((a, b) => a.score - b.score || (a.path < b.path ? -1 : 1));
  return scored.slice(0, count).map((s) => s.path);
}

/** Levenshtein distance between two strings (one row of the table kept). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}
