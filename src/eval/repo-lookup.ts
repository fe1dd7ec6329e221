/**
 * Finds the git directory of a benchmark repository (`owner/name`) under a
 * `--repos DIR`, and asks git about commits in it. Only plain `git --git-dir`
 * calls are made, so bare mirrors work (no work tree is needed).
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ReponavError } from '../errors.js';
import { REPO_NAME_PATTERN } from './locbench-instances.js';

const execFileAsync = promisify(execFile);

/** Where a repository was found, or why not. */
export type RepoLookup = { ok: true; gitDir: string } | { ok: false; reason: string };

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * True when `path` looks like a git directory (what `git --git-dir` accepts):
 * it holds a `HEAD` file and `objects/` and `refs/` directories — directly, or
 * through a `commondir` file as a linked worktree's git dir does. A bare mirror
 * without a `config` file still qualifies.
 */
export function isGitDir(path: string): boolean {
  if (!isFile(join(path, 'HEAD'))) return false;
  let common = path;
  if (isFile(join(path, 'commondir'))) {
    const target = readFileSync(join(path, 'commondir'), 'utf8').trim();
    common = isAbsolute(target) ? target : resolve(path, target);
  }
  return isDirectory(join(common, 'objects')) && isDirectory(join(common, 'refs'));
}

/**
 * The git dir inside one candidate folder: the folder itself (bare/mirror), its
 * `repo` subfolder (our mirror layout), or its `.git` (a normal clone; a `.git`
 * file with `gitdir: X` — a worktree or submodule — is followed).
 */
function gitDirIn(candidate: string): string | null {
  if (!isDirectory(candidate)) return null;
  if (isGitDir(candidate)) return candidate;
  const nested = join(candidate, 'repo');
  if (isGitDir(nested)) return nested;
  const dotGit = join(candidate, '.git');
  if (isGitDir(dotGit)) return dotGit;
  if (isFile(dotGit)) {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    if (match?.[1]) {
      const target = isAbsolute(match[1]) ? match[1] : resolve(dirname(dotGit), match[1]);
      if (isGitDir(target)) return target;
    }
  }
  return null;
}

/**
 * Looks `owner/name` up under `reposDir`, trying in order `DIR/owner+name`,
 * `DIR/owner__name`, `DIR/name`; each may be a git dir itself, hold one named
 * `repo`, or be a clone with `.git`. Returns the absolute git dir, or a reason
 * naming every path tried. Never throws.
 */
export function findRepoGitDir(reposDir: string, repo: string): RepoLookup {
  if (!REPO_NAME_PATTERN.test(repo) || repo.split('/').some((part) => part === '.' || part === '..')) {
    return { ok: false, reason: `invalid repository name "${repo}" (expected owner/name)` };
  }
  if (!isDirectory(reposDir)) return { ok: false, reason: `repos directory not found: ${reposDir}` };
  const [owner, name] = repo.split('/') as [string, string];
  const candidates = [`${owner}+${name}`, `${owner}__${name}`, name].map((dir) => resolve(reposDir, dir));
  for (const candidate of candidates) {
    const gitDir = gitDirIn(candidate);
    if (gitDir) return { ok: true, gitDir };
  }
  return { ok: false, reason: `no git directory for ${repo}; tried ${candidates.join(', ')}` };
}

/** Runs `git --git-dir <gitDir> ...args` and returns stdout; rejects on a non-zero exit. */
async function git(gitDir: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', ['--git-dir', gitDir, ...args], {
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return stdout;
}

/**
 * True when `sha` names a commit present in `gitDir` (`git cat-file -e
 * SHA^{commit}`); reachable only through `refs/pull/*` still counts. False on
 * any git failure.
 */
export async function commitExists(gitDir: string, sha: string): Promise<boolean> {
  if (!/^[0-9a-fA-F]{4,64}$/.test(sha)) return false;
  try {
    await git(gitDir, ['cat-file', '-e', `${sha}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The commits among `shas` that exist in `gitDir`, checked with one `git
 * cat-file --batch-check` process (same answer as {@link commitExists} per sha).
 */
export async function existingCommits(gitDir: string, shas: readonly string[]): Promise<Set<string>> {
  const valid = [...new Set(shas)].filter((sha) => /^[0-9a-fA-F]{4,64}$/.test(sha));
  if (valid.length === 0) return new Set();
  const output = await new Promise<string>((resolvePromise, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objecttype)'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise(stdout);
      else reject(new ReponavError('NOT_A_GIT_REPOSITORY', `git cat-file failed in ${gitDir}: ${stderr.trim()}`));
    });
    // A git that exits early (not a repository) fails the write with EPIPE; 'close' reports why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(valid.map((sha) => `${sha}^{commit}\n`).join(''));
  });
  // One output line per input line, in order: "commit" or "<input> missing" / "ambiguous".
  const lines = output.split('\n');
  const found = new Set<string>();
  valid.forEach((sha, i) => {
    if (lines[i] === 'commit') found.add(sha);
  });
  return found;
}

/**
 * Committer timestamps (seconds since epoch) of existing commits, one `git show
 * -s` call. Pass only commits known to exist (git fails on the first bad one).
 */
export async function commitTimestamps(gitDir: string, shas: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(shas)];
  const result = new Map<string, number>();
  if (unique.length === 0) return result;
  // `git show` may reorder its arguments (no-walk sorts by date), so match by hash.
  const stdout = await git(gitDir, ['show', '-s', '--no-notes', '--format=%H %ct', ...unique.map((sha) => `${sha}^{commit}`)]);
  const stamps: Array<[string, number]> = [];
  for (const line of stdout.split('\n')) {
    const [hash, seconds] = line.trim().split(' ');
    if (hash && seconds !== undefined && Number.isFinite(Number(seconds))) stamps.push([hash.toLowerCase(), Number(seconds)]);
  }
  for (const sha of unique) {
    const hit = stamps.find(([hash]) => hash.startsWith(sha.toLowerCase()));
    if (hit) result.set(sha, hit[1]);
  }
  return result;
}
