import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Where indexes live: `$REPONAV_CACHE_DIR`, else `$XDG_CACHE_HOME/reponav`, else
 * `~/.cache/reponav`. Never inside the user's repository unless asked.
 */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REPONAV_CACHE_DIR) return env.REPONAV_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'reponav');
  return join(homedir(), '.cache', 'reponav');
}

/**
 * The index file for a repository: keyed by the repository's real path and by
 * mode. A working tree has one index; commit mode has one per repository that
 * moves between commits, re-parsing only files whose blobs differ (its current
 * commit is recorded inside it).
 */
export function defaultIndexPath(repositoryRealPath: string, mode: 'worktree' | 'commit', env = process.env): string {
  const key = createHash('sha1').update(repositoryRealPath).digest('hex').slice(0, 12);
  const name = basename(repositoryRealPath.replace(/\/(\.git|repo)$/, '')).replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
  return join(cacheDirectory(env), `${name}-${key}`, `${mode}.db`);
}
