/**
 * Git's own view of a working tree, for a freshness check that costs
 * O(changes) in reponav: git keeps a stat cache of every tracked file in its
 * index, so `git status` names the files that differ from HEAD (and the
 * untracked ones) without reponav listing or stat-ing the tree itself.
 *
 * Read-only: `--no-optional-locks` keeps git from rewriting the user's index,
 * and the user's global excludes file is not applied, because reponav's own
 * listing honours only the repository's .gitignore files and .git/info/exclude.
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** What git says about a working tree now. */
export interface GitWorktreeState {
  /** The commit HEAD points at, or null on an unborn branch. */
  head: string | null;
  /** Paths that differ from HEAD (modified, added, deleted, untracked), repository-relative. */
  dirty: string[];
  /** Folders git reports as a whole (submodules, nested repositories): every file below them is a candidate. */
  dirtyFolders: string[];
  /** A stamp of the ignore rules git and reponav share outside .gitignore files (.git/info/exclude). */
  excludeStamp: string;
}

/** Runs git in `cwd`; resolves with stdout, or null when git fails or is missing. */
function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['--no-optional-locks', ...args], { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) =>
      resolve(error ? null : stdout),
    );
  });
}

/**
 * Reads git's view of `root`, or null when `root` is not the top of a git
 * working tree (then only a full listing can tell what changed).
 */
export class GitWorktree {
  private constructor(
    readonly root: string,
    private readonly gitDir: string,
  ) {}

  /**
   * Null when `root` is not the top folder of a git working tree. Decided from
   * `root/.git` (a folder, or a file naming the git dir in linked worktrees and
   * submodules) without starting git: a process per search counts.
   */
  static async open(root: string): Promise<GitWorktree | null> {
    const dotGit = join(root, '.git');
    try {
      const info = await stat(dotGit);
      if (info.isDirectory()) return new GitWorktree(root, dotGit);
      const text = await readFile(dotGit, 'utf8');
      const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
      return match ? new GitWorktree(root, resolve(root, match[1])) : null;
    } catch {
      return null;
    }
  }

  /** HEAD, the paths that differ from it and the exclude stamp; null when git fails. */
  async state(): Promise<GitWorktreeState | null> {
    const [out, excludeStamp] = await Promise.all([
      git(this.root, [
        '-c',
        'core.excludesFile=/dev/null',
        'status',
        '--porcelain=v2',
        '--branch',
        // Only HEAD's commit is read from the branch lines: counting commits ahead of and behind the
        // upstream walks history (60-80 ms on a flask clone 3,000 commits behind, ~10 ms without).
        '--no-ahead-behind',
        '-z',
        '--no-renames',
        '--untracked-files=all',
        '--ignore-submodules=none',
      ]),
      this.stampOf(join(this.gitDir, 'info', 'exclude')),
    ]);
    if (out === null) return null;
    return { ...parsePorcelainV2(out), excludeStamp };
  }

  /** Paths that differ between two commits, or null when either is unknown (e.g. garbage-collected). */
  async changedBetween(from: string, to: string): Promise<string[] | null> {
    if (from === to) return [];
    const out = await git(this.root, ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', from, to, '--']);
    return out === null ? null : out.split('\0').filter(Boolean);
  }

  private async stampOf(path: string): Promise<string> {
    try {
      const info = await stat(path);
      return `${info.size}:${info.mtimeMs}`;
    } catch {
      return 'none';
    }
  }
}

/**
 * Parses `git status --porcelain=v2 --branch -z --no-renames`: `# branch.oid`,
 * ordinary (`1`), unmerged (`u`) and untracked (`?`) entries. A submodule
 * entry (`S...` in the fourth field) or an untracked folder (trailing `/`, a
 * nested repository) is a folder.
 */
export function parsePorcelainV2(out: string): Omit<GitWorktreeState, 'excludeStamp'> {
  let head: string | null = null;
  const dirty: string[] = [];
  const dirtyFolders: string[] = [];
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    const kind = entry[0];
    let path: string;
    let submodule = false;
    if (kind === '1') {
      const fields = splitFields(entry, 8);
      submodule = fields[2]?.startsWith('S') ?? false;
      path = fields[8] ?? '';
    } else if (kind === 'u') {
      const fields = splitFields(entry, 10);
      submodule = fields[2]?.startsWith('S') ?? false;
      path = fields[10] ?? '';
    } else if (kind === '?') {
      path = entry.slice(2);
    } else continue;
    if (!path) continue;
    if (submodule || path.endsWith('/')) dirtyFolders.push(path.replace(/\/+$/, ''));
    else dirty.push(path);
  }
  return { head, dirty, dirtyFolders };
}

/** Splits the first `n` space-separated fields off a line; the rest (a path may hold spaces) is the last element. */
function splitFields(line: string, n: number): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const space = line.indexOf(' ', start);
    if (space < 0) return fields;
    fields.push(line.slice(start, space));
    start = space + 1;
  }
  fields.push(line.slice(start));
  return fields;
}
