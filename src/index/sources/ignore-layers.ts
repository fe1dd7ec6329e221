/**
 * The `.gitignore` rules a working-tree listing applies: one layer per ignore
 * file on the way down (the root's, then each folder's, `.git/info/exclude`
 * first), tested deepest last so that a nested `!pattern` re-includes what a
 * shallower file excluded, as git does. Used by worktree-source.ts.
 */
import { createRequire } from 'node:module';
import type { Ignore } from 'ignore';

/** The rules of one ignore file and where they apply. */
export interface IgnoreLayer {
  /** Directory of the .gitignore, relative to the root ('' for the root). */
  base: string;
  rules: Ignore;
  /** The ignore file, relative to the root, for messages. */
  file: string;
}

/**
 * The ignore package, required on first use: a process whose freshness check
 * reads no ignore file (nothing changed, or git named no path) never loads it.
 */
let ignoreFactory: (() => Ignore) | undefined;

/** A fresh rule set of the ignore package. */
export function newIgnore(): Ignore {
  ignoreFactory ??= createRequire(import.meta.url)('ignore') as () => Ignore;
  return ignoreFactory();
}

/** The last rule that ignores `path`, as "'rule' in file", or null when it is not ignored. */
export function ignoringRule(layers: IgnoreLayer[], path: string, isDirectory: boolean): string | null {
  let found: string | null = null;
  for (const layer of layers) {
    const rel = layer.base ? path.slice(layer.base.length + 1) : path;
    if (!rel) continue;
    const verdict = layer.rules.test(isDirectory ? rel + '/' : rel);
    if (verdict.ignored) found = verdict.rule ? `'${verdict.rule.pattern}' in ${layer.file}` : layer.file;
    else if (verdict.unignored) found = null;
  }
  return found;
}

/** The root-relative name of a folder's ignore file, for messages. */
export function ignoreFileName(dir: string): string {
  return dir ? `${dir}/.gitignore` : '.gitignore';
}

/** True when the layers ignore `path` (a folder when `isDirectory`). */
export function isIgnored(layers: IgnoreLayer[], path: string, isDirectory: boolean): boolean {
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

