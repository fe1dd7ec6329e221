/**
 * Default work and cache folders: stable per host (so a restarted worker
 * keeps its git mirrors and commit indexes instead of cloning again), claimed
 * with a lock file naming the owning process (a second process on the host
 * takes the next folder), and cleaned of what a crashed run left half-done.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK = 'owner.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `base` (or `base-2`, `base-3`… when a live process holds it) for
 * this process and returns it. What a crashed run left in its `scratch`
 * subfolders (half-built outputs, unfinished clones) is removed.
 */
export function claimFolder(base: string, scratch: readonly string[] = []): string {
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    const lock = join(dir, LOCK);
    const owner = existsSync(lock) ? Number(readFileSync(lock, 'utf8').trim()) : 0;
    if (owner && owner !== process.pid && alive(owner)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(lock, `${process.pid}\n`);
    for (const sub of scratch) rmSync(join(dir, sub), { recursive: true, force: true });
    const git = join(dir, 'git');
    if (existsSync(git)) for (const name of readdirSync(git)) if (name.includes('.clone-')) rmSync(join(git, name), { recursive: true, force: true });
    return dir;
  }
}

/** Releases a folder claimed by this process. */
export function releaseFolder(dir: string): void {
  const lock = join(dir, LOCK);
  if (existsSync(lock) && Number(readFileSync(lock, 'utf8').trim()) === process.pid) rmSync(lock, { force: true });
}

/** Folder-safe form of a repository name (as mirrors and commit indexes are named). */
export function folderKey(repo: string): string {
  return repo.replace(/\//g, '+');
}

/** Deletes this worker's mirrors and commit indexes of repositories no longer in the catalog; returns their names. */
export function sweepRemoved(workDir: string, catalog: readonly string[]): string[] {
  const keep = new Set(catalog.map(folderKey));
  const removed: string[] = [];
  for (const [sub, suffix] of [
    ['git', '.git'],
    ['index', '.db'],
  ] as const) {
    const dir = join(workDir, sub);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : name.replace(/\.db-(wal|shm)$/, '');
      if (keep.has(base) || name.includes('.clone-')) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(base);
    }
  }
  return [...new Set(removed)];
}
