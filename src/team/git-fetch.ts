/**
 * git as the worker and the poller use it: a bare mirror per repository,
 * fetched before each build, and `ls-remote` for a branch's head.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ReponavError } from '../errors.js';

/** Runs git; resolves stdout, rejects with git's first stderr line. */
export function runGit(args: string[], options: { cwd?: string; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      timeout: options.timeoutMs ?? 600_000,
      signal: options.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new ReponavError('NOT_A_GIT_REPOSITORY', `git ${args[0]} failed: ${stderr.trim().split('\n')[0] || `exit ${code}`}.`));
    });
  });
}

/** The commit `branch` points at in the repository at `url`, or null when the branch does not exist; `signal` ends git early. */
export async function remoteHead(url: string, branch: string, timeoutMs = 60_000, signal?: AbortSignal): Promise<string | null> {
  const out = await runGit(['ls-remote', '--', url, `refs/heads/${branch}`], { timeoutMs, signal });
  const line = out.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`));
  return line ? line.split('\t')[0] : null;
}

/**
 * A bare mirror of `url` at `gitDir` that holds `commit`: cloned the first
 * time, fetched afterwards (only when the commit is missing).
 */
export function mirrorWithCommit(url: string, gitDir: string, commit: string, signal?: AbortSignal): Promise<void> {
  return oneAtATime(gitDir, () => fetchMirror(url, gitDir, commit, signal));
}

/** Work on one mirror, chained: a poll check and a build in one worker must not clone or fetch into it at once. */
const mirrorTurns = new Map<string, Promise<unknown>>();

function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = mirrorTurns.get(key) ?? Promise.resolve();
  const turn = previous.then(work, work);
  const settled = turn.catch(() => undefined);
  mirrorTurns.set(key, settled);
  void settled.then(() => {
    if (mirrorTurns.get(key) === settled) mirrorTurns.delete(key);
  });
  return turn;
}

async function fetchMirror(url: string, gitDir: string, commit: string, signal?: AbortSignal): Promise<void> {
  if (!existsSync(gitDir)) {
    await mkdir(dirname(gitDir), { recursive: true });
    const temp = `${gitDir}.clone-${process.pid}`;
    await rm(temp, { recursive: true, force: true });
    await runGit(['clone', '--mirror', '--quiet', '--', url, temp], { signal });
    const { rename } = await import('node:fs/promises');
    await rename(temp, gitDir);
  }
  if (!(await hasCommit(gitDir, commit))) {
    await runGit(['--git-dir', gitDir, 'remote', 'set-url', 'origin', url], { signal });
    await runGit(['--git-dir', gitDir, 'fetch', '--quiet', '--prune', 'origin'], { signal });
  }
  if (!(await hasCommit(gitDir, commit))) {
    throw new ReponavError('UNKNOWN_REVISION', `Commit ${commit} is not in ${url} (force-pushed away?).`);
  }
}

async function hasCommit(gitDir: string, commit: string): Promise<boolean> {
  return runGit(['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/**
 * Which of `candidates` the history of `commit` contains (its ancestors), by
 * walking `git rev-list` in the mirror; the walk stops once every candidate is
 * found, so a fast-forward costs the commits since the oldest candidate.
 */
export function containedCommits(gitDir: string, commit: string, candidates: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const wanted = new Set(candidates.filter((c) => c !== commit));
  const found: string[] = [];
  if (wanted.size === 0) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, 'rev-list', commit], { stdio: ['ignore', 'pipe', 'pipe'], signal, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    let rest = '';
    let stderr = '';
    let done = false;
    child.stdout.on('data', (d: Buffer) => {
      if (done) return;
      const lines = (rest + d.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (wanted.delete(line)) found.push(line);
      }
      if (wanted.size === 0) {
        done = true;
        child.kill();
        resolve(found);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (error) => {
      if (!done) reject(error);
    });
    child.on('close', (code) => {
      if (done) return;
      if (wanted.delete(rest)) found.push(rest);
      if (code === 0) resolve(found);
      else reject(new ReponavError('NOT_A_GIT_REPOSITORY', `git rev-list failed: ${stderr.trim().split('\n')[0] || `exit ${code}`}.`));
    });
  });
}
