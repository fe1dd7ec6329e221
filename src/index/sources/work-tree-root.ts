/**
 * Which folder a working-tree index is of, found as git finds it: a path
 * inside a git work tree (a subfolder) means that work tree, whose root holds
 * `.git` (a folder, or a file in a linked worktree or submodule), so running
 * from a subfolder uses the repository's one index instead of building a
 * second one of the subfolder. A git directory itself (bare, or `X/.git`) has
 * no working tree to read: it is indexed at a commit.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ReponavError } from '../../errors.js';
import { quotedPath } from './display-path.js';

/** The root of the git work tree holding `dir` (a real path), `dir` itself when none holds it. */
export function workTreeRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return dir;
  }
}

/** Throws a usage sentence when `dir` is, or is inside, a git directory (bare, or a work tree's `.git`). */
export function refuseGitDirectory(dir: string): void {
  let inside = false;
  for (let current = dir; dirname(current) !== current; current = dirname(current)) {
    if (basename(current) === '.git') inside = true;
  }
  const bare = !existsSync(join(dir, '.git')) && ['HEAD', 'objects', 'refs'].every((entry) => existsSync(join(dir, entry)));
  if (inside || bare) {
    throw new ReponavError(
      'BAD_INPUT',
      `${quotedPath(dir)} is a git directory, not a working tree: index one of its commits with --commit HEAD (or another revision), or give the working tree's folder.`,
    );
  }
}
