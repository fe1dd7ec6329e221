/**
 * Default work and cache folders: stable per host (so a restarted worker
 * keeps its git mirrors and commit indexes instead of cloning again), claimed
 * with a lock file naming the owning process (a second process on the host
 * takes the next folder), and cleaned of what a crashed run left half-done.
 *
 * A claim names the process by pid and, where /proc tells it, its start
 * time: a claim is taken over only when that process is gone (a pid reused
 * by another process is gone too). The lock is created with its content in
 * one step (a link of a written file), so no process ever reads a half-written
 * claim, and nothing a claimant cleans ever includes the lock itself.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../errors.js';

const LOCK = 'owner.pid';
/** Folders tried after `base` (`base-2` … `base-<MAX_FOLDERS>`) before giving up. */
const MAX_FOLDERS = 64;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A process's start time in clock ticks since boot (Linux /proc), or null where it cannot be read. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from the field after the command name, which may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** How a claim names process `pid` (default: this one). */
export function claimText(pid = process.pid): string {
  const start = startTime(pid);
  return start === null ? `${pid}` : `${pid} ${start}`;
}

function identity(): string {
  return claimText();
}

/** True while the process a claim names runs (the same pid started at the same time). */
function ownerRuns(claim: string): boolean {
  const [pidText, start] = claim.trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return false;
  const now = start === undefined ? null : startTime(pid);
  return now === null || now === start;
}

function readClaim(lock: string): string | null {
  try {
    return readFileSync(lock, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Claims `dir` for this process; false when a running process holds it. */
function tryClaim(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, LOCK);
  const me = identity();
  const written = join(dir, `${LOCK}.${process.pid}.new`);
  writeFileSync(written, `${me}\n`);
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(written, lock);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const claim = readClaim(lock);
      if (claim === null) continue;
      if (claim === me) return true;
      if (ownerRuns(claim)) return false;
      // A stale claim: removed only while it still names the process that is gone, then claimed again.
      if (readClaim(lock) === claim) rmSync(lock, { force: true });
    }
    return false;
  } finally {
    rmSync(written, { force: true });
  }
}

/**
 * Claims `base` (or `base-2`, `base-3`… when a running process holds it) for
 * this process and returns it. What a crashed run left in its `scratch`
 * subfolders (half-built outputs, unfinished clones) is removed.
 */
export function claimFolder(base: string, scratch: readonly string[] = []): string {
  for (let n = 1; n <= MAX_FOLDERS; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!tryClaim(dir)) continue;
    for (const sub of scratch) rmSync(join(dir, sub), { recursive: true, force: true });
    const git = join(dir, 'git');
    if (existsSync(git)) for (const name of readdirSync(git)) if (name.includes('.clone-')) rmSync(join(git, name), { recursive: true, force: true });
    return dir;
  }
  throw new ReponavError('BAD_INPUT', `${base} and the ${MAX_FOLDERS - 1} folders after it are held by running processes; stop one or give a folder of its own.`);
}

/** Empties a folder (creating it when absent), keeping the claim on it. */
export function emptyClaimedFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (name !== LOCK) rmSync(join(dir, name), { recursive: true, force: true });
}

/** Releases a folder claimed by this process. */
export function releaseFolder(dir: string): void {
  const lock = join(dir, LOCK);
  if (readClaim(lock) === identity()) rmSync(lock, { force: true });
}

/** Folder-safe form of a repository name (as mirrors and commit indexes are named). */
export function folderKey(repo: string): string {
  return repo.replace(/\//g, '+');
}

/**
 * The repository key of an entry this worker creates in its `git` or `index`
 * folder, or null for anything else: `<key>.git` and its unfinished clones
 * `<key>.git.clone-<pid>`; `<key>.db` with SQLite's `-wal`, `-shm`,
 * `-journal`, its writer lock `<key>.db.lock` (and the lock's own files) and
 * its derived caches `<key>.db.<name>.cache` / `.tmp`.
 */
export function workEntryKey(sub: 'git' | 'index', name: string): string | null {
  const pattern = sub === 'git' ? /^(.+?)\.git(?:\.clone-\d+)?$/ : /^(.+?)\.db(?:-(?:wal|shm|journal)|\.lock(?:-(?:wal|shm|journal))?|\.[^/]+\.(?:cache|tmp))?$/;
  return pattern.exec(name)?.[1] ?? null;
}

/**
 * Deletes this worker's mirrors and commit indexes of repositories no longer
 * in the catalog; returns their names. Only entries it creates (workEntryKey)
 * are touched: a catalog repository's lock, WAL or cache is kept, and a file
 * it does not know is left alone.
 */
export function sweepRemoved(workDir: string, catalog: readonly string[]): string[] {
  const keep = new Set(catalog.map(folderKey));
  const removed = new Set<string>();
  for (const sub of ['git', 'index'] as const) {
    const dir = join(workDir, sub);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name.includes('.clone-')) continue;
      const key = workEntryKey(sub, name);
      if (key === null || keep.has(key)) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.add(key.replace(/\+/g, '/'));
    }
  }
  return [...removed];
}
