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
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The root's rule files beside .gitignore, stamped with .git/info/exclude. */
const ROOT_RULE_FILES = ['.ignore', '.rgignore', '.reponavignore'];

/** What git says about a working tree now. */
export interface GitWorktreeState {
  /** The commit HEAD points at, or null on an unborn branch. */
  head: string | null;
  /** Paths that differ from HEAD (modified, added, deleted, untracked), repository-relative. */
  dirty: string[];
  /** Folders git reports as a whole (submodules, nested repositories): every file below them is a candidate. */
  dirtyFolders: string[];
  /** A stamp of the rule files git's status may not report (.git/info/exclude, the root's .ignore, .rgignore and .reponavignore). */
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
 * The git dir of the working tree whose top folder is `root`, from `root/.git`
 * (a folder, or a file naming the git dir in linked worktrees and submodules),
 * without starting git: a process per search counts. Null when there is none.
 */
export function gitDirOf(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return match ? resolve(root, match[1]) : null;
  } catch {
    return null;
  }
}

/** States started by GitWorktree.startEarly, by real root; each is taken by the first state({ early: true }) there. */
const early = new Map<string, Promise<GitWorktreeState | null>>();

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
    const gitDir = gitDirOf(root);
    return gitDir ? new GitWorktree(root, gitDir) : null;
  }

  /**
   * Starts state() for the working tree at `path` now, before anything asks
   * for it: the CLI calls this first thing, so `git status` (110-160 ms on an
   * 11k-file tree) runs while the process loads its modules and opens the
   * index instead of after. The first state({ early: true }) of a GitWorktree
   * on the same root (the real path, as the working-tree source resolves it)
   * takes this result instead of running git again. What it reports is the
   * tree at the process's start: good for the read-only no-change check,
   * which writes nothing, but not for a run that stores git's view in its
   * token (another writer may have run since, with a newer view). Does nothing
   * when `path` is not the top of a git working tree; never throws. Returns
   * the state started (or already started), null when none (for tests).
   */
  static startEarly(path: string): Promise<GitWorktreeState | null> | null {
    let root: string;
    try {
      root = realpathSync(path);
    } catch {
      return null; // The source says what is wrong with the folder.
    }
    const gitDir = gitDirOf(root);
    if (!gitDir) return null;
    if (!early.has(root)) early.set(root, new GitWorktree(root, gitDir).readState());
    return early.get(root)!;
  }

  /**
   * HEAD, the paths that differ from it and the exclude stamp; null when git
   * fails. With `early`, a state startEarly began is taken (once) if there is one.
   */
  state(options: { early?: boolean } = {}): Promise<GitWorktreeState | null> {
    const started = options.early ? early.get(this.root) : undefined;
    if (started) {
      early.delete(this.root);
      return started;
    }
    return this.readState();
  }

  private async readState(): Promise<GitWorktreeState | null> {
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
      this.rulesStamp(),
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

  /**
   * The stamps of the rule files git's status may not report: `.git/info/exclude`,
   * and the root's `.ignore`, `.rgignore` and `.reponavignore` (a file that is
   * itself ignored changes without a line in git's status).
   */
  private async rulesStamp(): Promise<string> {
    const stamps = await Promise.all([join(this.gitDir, 'info', 'exclude'), ...ROOT_RULE_FILES.map((name) => join(this.root, name))].map((path) => this.stampOf(path)));
    return stamps.join('|');
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
