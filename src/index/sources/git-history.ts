/**
 * Reading a repository's git history for the change-awareness tools: which
 * files changed between two revisions (or in the working tree against HEAD),
 * a file's text at a revision, its commits (`git log`, `-L` for a line span),
 * blame for a line range and a unified diff. Works on a working tree (also
 * one that is a subfolder of its git repository) and on a bare mirror in
 * commit mode. Paths in and out are repository-relative; every user path goes
 * through path-guard first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../../errors.js';
import { quotedPath } from './display-path.js';
import { findGitDir } from './git-commit-source.js';
import { toRepositoryPath } from './path-guard.js';
import type { RepositorySource } from './source-file.js';

/** Largest git output read (a diff or log past this is cut by git's reader, not parsed whole). */
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

/** Where git commands run for one repository source. */
export interface GitContext {
  gitDir: string;
  /** The working tree root (worktree mode), else null (commit mode: a bare read of `commit`). */
  workTree: string | null;
  /** The commit the source is at (commit mode), else null. */
  commit: string | null;
  /** The repository root's path inside the git tree (`''`, or `sub/dir/` when the root is a subfolder). */
  prefix: string;
}

/** How a file changed. */
export type ChangeStatus = 'added' | 'deleted' | 'modified' | 'renamed';

/** Where a working-tree change is: in the git index (staged), in the files (unstaged), or new (untracked); `commit` between revisions. */
export type ChangeArea = 'staged' | 'unstaged' | 'untracked' | 'revisions';

/** One changed file. */
export interface ChangedPath {
  path: string;
  /** The path before a rename. */
  oldPath: string | null;
  status: ChangeStatus;
  area: ChangeArea;
}

/** One commit of a history. */
export interface CommitInfo {
  commit: string;
  author: string;
  email: string;
  /** ISO 8601 author date. */
  date: string;
  subject: string;
}

/** One blamed line. */
export interface BlameLine {
  line: number;
  commit: string;
  author: string;
  /** ISO 8601 author time (UTC). */
  date: string;
  summary: string;
  text: string;
}

function run(context: GitContext, args: string[], allowStatus: readonly number[] = [0]): string {
  const prefix = context.workTree ? ['-C', context.workTree] : ['--git-dir', context.gitDir];
  const result = spawnSync('git', ['--no-optional-locks', ...prefix, ...args], { encoding: 'utf8', maxBuffer: MAX_GIT_OUTPUT });
  if (result.error) throw new ReponavError('INTERNAL', `git could not run: ${result.error.message}`);
  if (!allowStatus.includes(result.status ?? 1)) {
    const message = (result.stderr ?? '').trim().split('\n')[0] ?? '';
    if (/unknown revision|bad revision|invalid object name|not a valid object name|ambiguous argument/i.test(message)) {
      throw new ReponavError('UNKNOWN_REVISION', `git does not know a revision given (${message}); give a commit, branch or tag of this repository.`);
    }
    throw new ReponavError('BAD_INPUT', `git ${args[0]} failed: ${message || `exit status ${result.status}`}.`);
  }
  return result.stdout ?? '';
}

/** The git context of a source; throws NOT_A_GIT_REPOSITORY for a folder outside any git repository. */
export function gitContextOf(source: RepositorySource): GitContext {
  // A detached source's root is a name, not a folder: looking for a git dir there would read whatever the host has at that path.
  if (source.detachedFiles) {
    throw new ReponavError('NOT_A_GIT_REPOSITORY', 'This index is served without its git repository, so there is no history or change to show here; the other tools work without git.');
  }
  const gitDir = findGitDir(source.root);
  if (gitDir && source.mode === 'commit') return { gitDir, workTree: null, commit: source.commit, prefix: '' };
  if (!gitDir) {
    throw new ReponavError('NOT_A_GIT_REPOSITORY', `${quotedPath(source.root)} is not a git repository, so there is no history or change to show; the other tools work without git.`);
  }
  const context: GitContext = { gitDir, workTree: source.root, commit: null, prefix: '' };
  context.prefix = run(context, ['rev-parse', '--show-prefix']).trim();
  return context;
}

/** A user's file path as a repository path (refusing what is outside the root); the file need not exist now. */
export function historyPath(source: RepositorySource, userPath: string): string {
  const path = toRepositoryPath(source.root, userPath, { checkSymlinks: source.mode === 'worktree' });
  if (path === '') throw new ReponavError('BAD_INPUT', 'A file path is required, not the repository root.');
  return path;
}

/** Resolves a revision to its full commit id; UNKNOWN_REVISION when it names none. */
export function resolveRevision(context: GitContext, revision: string): string {
  if (revision.startsWith('-')) throw new ReponavError('BAD_INPUT', `'${revision}' is not a revision (it starts with '-').`);
  const out = run(context, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], [0, 1]).trim();
  if (!out) throw new ReponavError('UNKNOWN_REVISION', `Revision '${revision}' does not name a commit in this repository.`);
  return out;
}

/** The parent of `commit`, or null for a root commit. */
export function parentOf(context: GitContext, commit: string): string | null {
  const out = run(context, ['rev-parse', '--verify', '--quiet', `${commit}^1`], [0, 1]).trim();
  return out || null;
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** `path` inside a tree object (`REV:path` is relative to the git top, not to the root). */
function treePath(context: GitContext, path: string): string {
  return `${context.prefix}${path}`;
}

function parseNameStatus(out: string, area: ChangeArea): ChangedPath[] {
  const fields = out.split('\0');
  const changes: ChangedPath[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++];
    if (!code) continue;
    const letter = code[0];
    if (letter === 'R' || letter === 'C') {
      const from = fields[i++] ?? '';
      const to = fields[i++] ?? '';
      changes.push({ path: to, oldPath: letter === 'R' ? from : null, status: letter === 'R' ? 'renamed' : 'added', area });
      continue;
    }
    const path = fields[i++] ?? '';
    const status: ChangeStatus = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    changes.push({ path, oldPath: null, status, area });
  }
  return changes;
}

/**
 * Diff options and pathspec keeping git to the repository root: git runs in
 * the root (`-C`), so `--relative` limits a diff to it and prints paths
 * relative to it, as the index names them, also when the root is a subfolder.
 */
function rootOnly(context: GitContext): { relative: string[]; spec: string[] } {
  return context.workTree ? { relative: ['--relative'], spec: ['--', '.'] } : { relative: [], spec: [] };
}

/**
 * Files changed from `from` to `to` (revisions). `to` null: the working tree
 * (worktree mode only). With both null in worktree mode: staged, unstaged and
 * untracked changes against HEAD; in commit mode: the commit against its parent.
 */
export function changedPaths(context: GitContext, from: string | null, to: string | null): ChangedPath[] {
  const root = rootOnly(context);
  if (from !== null && to !== null) {
    return parseNameStatus(run(context, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...root.relative, from, to, ...root.spec]), 'revisions');
  }
  if (context.workTree === null) throw new ReponavError('BAD_INPUT', 'A commit has no working tree: give both revisions (from and to).');
  if (from !== null) {
    return parseNameStatus(run(context, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...root.relative, from, ...root.spec]), 'revisions');
  }
  const head = run(context, ['rev-parse', '--verify', '--quiet', 'HEAD'], [0, 1]).trim() || EMPTY_TREE;
  const staged = parseNameStatus(run(context, ['diff', '--cached', '--name-status', '-z', '-M', '--no-ext-diff', ...root.relative, head, ...root.spec]), 'staged');
  const unstaged = parseNameStatus(run(context, ['diff', '--name-status', '-z', '--no-ext-diff', ...root.relative, ...root.spec]), 'unstaged');
  const untracked = run(context, ['ls-files', '--others', '--exclude-standard', '-z', ...root.spec])
    .split('\0')
    .filter(Boolean)
    // ls-files run in the working tree prints paths relative to it (the root), not to the git top.
    .map((path): ChangedPath => ({ path, oldPath: null, status: 'added', area: 'untracked' }));
  return [...staged, ...unstaged, ...untracked];
}

/**
 * The bytes of `path` at `revision`; `revision` null: the working tree file,
 * `':'` the staged version. Null when the file does not exist there.
 */
export function fileAt(context: GitContext, revision: string | null, path: string): Buffer | null {
  if (revision === null) {
    if (context.workTree === null) return null;
    try {
      return readFileSync(join(context.workTree, path));
    } catch {
      return null;
    }
  }
  const spec = revision === ':' ? `:${treePath(context, path)}` : `${revision}:${treePath(context, path)}`;
  const prefix = context.workTree ? ['-C', context.workTree] : ['--git-dir', context.gitDir];
  const result = spawnSync('git', [...prefix, 'cat-file', 'blob', spec], { maxBuffer: MAX_GIT_OUTPUT });
  return result.status === 0 ? result.stdout : null;
}

const LOG_FORMAT = '%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%s';

function parseLog(out: string): CommitInfo[] {
  return out
    .split('\x1e')
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [commit, author, email, date, subject] = record.split('\n')[0].split('\x1f');
      return { commit, author, email, date, subject: subject ?? '' };
    });
}

/**
 * Commits that touched `path` (following renames), newest first, at most
 * `limit`, from `revision` (default HEAD, or the source's commit); with
 * `lines`, those that changed that span (`git log -L`).
 */
export function fileLog(context: GitContext, path: string, options: { revision?: string | null; lines?: { start: number; end: number }; limit: number }): CommitInfo[] {
  const revision = options.revision ?? context.commit ?? 'HEAD';
  const limit = `-n${Math.max(1, Math.floor(options.limit))}`;
  if (options.lines) {
    const span = `-L${options.lines.start},${options.lines.end}:${path}`;
    return parseLog(run(context, ['log', '--no-patch', `--format=${LOG_FORMAT}`, limit, span, revision]));
  }
  return parseLog(run(context, ['log', `--format=${LOG_FORMAT}`, limit, '--follow', revision, '--', path]));
}

/** Blame of lines start..end of `path` at `revision` (null: the working tree file). */
export function blameLines(context: GitContext, path: string, start: number, end: number, revision: string | null): BlameLine[] {
  const rev = revision ?? context.commit;
  const args = ['blame', '--porcelain', `-L${start},${end}`, ...(rev ? [rev] : []), '--', path];
  const out = run(context, args);
  const known = new Map<string, { author: string; time: string; summary: string }>();
  const lines: BlameLine[] = [];
  let current: { commit: string; line: number; author?: string; time?: number; tz?: string; summary?: string } | null = null;
  for (const raw of out.split('\n')) {
    if (current === null) {
      const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(raw);
      if (header) current = { commit: header[1], line: Number(header[2]) };
      continue;
    }
    if (raw.startsWith('\t')) {
      const seen = known.get(current.commit);
      const info = seen ?? {
        author: current.author ?? '',
        time: current.time !== undefined ? new Date(current.time * 1000).toISOString().replace('.000Z', 'Z') : '',
        summary: current.summary ?? '',
      };
      if (!seen) known.set(current.commit, info);
      lines.push({ line: current.line, commit: current.commit, author: info.author, date: info.time, summary: info.summary, text: raw.slice(1) });
      current = null;
      continue;
    }
    const space = raw.indexOf(' ');
    const key = space < 0 ? raw : raw.slice(0, space);
    const value = space < 0 ? '' : raw.slice(space + 1);
    if (key === 'author') current.author = value;
    else if (key === 'author-time') current.time = Number(value);
    else if (key === 'summary') current.summary = value;
  }
  return lines;
}

/** The unified diff of `path` from `from` to `to` (null: the working tree), with `context` lines around changes. */
export function fileDiff(context: GitContext, path: string, from: string, to: string | null, contextLines = 3): string {
  const revisions = to === null ? [from] : [from, to];
  return run(context, ['diff', '--no-ext-diff', '--no-color', ...rootOnly(context).relative, `-U${contextLines}`, ...revisions, '--', path]);
}
