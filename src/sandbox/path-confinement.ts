/**
 * Keeps every path an agent's command names inside the repository view:
 * relative paths that climb out with `..`, absolute paths elsewhere and (in
 * a working tree, which may hold symlinks) symlinks leading out are refused
 * before anything runs.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/** Where commands run and what they may touch. */
export interface ConfinementRoot {
  /** Real (symlink-free) absolute path of the view; commands start here. */
  root: string;
  /** True when the view holds no symlinks (a materialised commit), so symlinks need no check. */
  symlinkFree: boolean;
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Null when `arg`, read as a path relative to the view root, stays inside
 * the view; otherwise the reason to give the model. `-` (stdin) and the
 * empty string are not paths and always pass.
 */
export function pathProblem(view: ConfinementRoot, arg: string): string | null {
  if (arg === '-' || arg === '') return null;
  if (arg.includes('\0')) return 'a path contains a NUL byte';
  const absolute = resolve(view.root, arg);
  if (!within(view.root, absolute)) {
    return isAbsolute(arg)
      ? `'${arg}' is outside the repository: paths are relative to the repository root, which is the current directory (use e.g. 'src/x.py', not an absolute path)`
      : `'${arg}' leads outside the repository (via '..'); stay inside the repository root`;
  }
  if (!view.symlinkFree) {
    let real: string | null = null;
    try {
      real = realpathSync(absolute);
    } catch {
      real = null; // missing: the program itself says so
    }
    if (real !== null && !within(view.root, real)) return `'${arg}' is a symlink that leads outside the repository`;
  }
  return null;
}

/** The repository-relative `/` path of `arg` when it names an existing regular file in the view, else null. */
export function viewFile(view: ConfinementRoot, arg: string): string | null {
  if (arg === '-' || arg === '') return null;
  const absolute = resolve(view.root, arg);
  if (!within(view.root, absolute)) return null;
  try {
    if (!statSync(absolute).isFile()) return null;
  } catch {
    return null;
  }
  return relative(view.root, absolute).split('\\').join('/');
}
