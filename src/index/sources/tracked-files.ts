/**
 * The files git tracks in a working tree, read with `git ls-files` and kept
 * while git's index file is unchanged. A tracked file is repository content
 * whatever an ignore pattern or a default folder exclusion says: git itself
 * keeps tracking a file a later `.gitignore` pattern matches, and a tracked
 * `venv/` or `build/` folder (typeshed's `stdlib/venv`, Bazel's
 * `devtools/build`) is source, not a virtualenv or build output.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirOf } from './git-worktree-status.js';

/** Tracked paths and every folder that holds one (repository-relative, no trailing slash). */
export interface TrackedSet {
  files: ReadonlySet<string>;
  folders: ReadonlySet<string>;
  /**
   * Why git's tracked files could not be read in a git working tree (git not
   * installed, a damaged index), else null: the set is then empty although
   * files may be tracked, and whoever explains a skip must say so.
   */
  unknown: string | null;
}

const EMPTY: TrackedSet = { files: new Set(), folders: new Set(), unknown: null };

/** The tracked files of one working tree, re-read when git's index changes. */
export class TrackedFiles {
  private cached: { stamp: string; set: TrackedSet } | null = null;

  constructor(private readonly root: string) {}

  /**
   * What git tracks now; empty when the root is not the top of a git working
   * tree, and empty with `unknown` set when git cannot list it (kept until
   * git's index changes, so a missing git is not started again per file).
   */
  current(): TrackedSet {
    const gitDir = gitDirOf(this.root);
    if (!gitDir) return EMPTY;
    let stamp: string;
    try {
      const info = statSync(join(gitDir, 'index'));
      stamp = `${info.mtimeMs}:${info.size}:${info.ino}`;
    } catch {
      return EMPTY; // no index yet: nothing is tracked
    }
    if (this.cached?.stamp === stamp) return this.cached.set;
    let out: string;
    try {
      out = execFileSync('git', ['--no-optional-locks', 'ls-files', '-z'], { cwd: this.root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
      const unknown = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed' : 'git ls-files failed';
      const set = { ...EMPTY, unknown };
      this.cached = { stamp, set };
      return set;
    }
    const files = new Set<string>();
    const folders = new Set<string>();
    for (const path of out.split('\0')) {
      if (!path) continue;
      files.add(path);
      for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        const folder = path.slice(0, slash);
        if (folders.has(folder)) break;
        folders.add(folder);
      }
    }
    const set = { files, folders, unknown: null };
    this.cached = { stamp, set };
    return set;
  }
}
