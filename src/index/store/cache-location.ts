import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import envPaths from 'env-paths';

/**
 * Where indexes live: `$REPONAV_CACHE_DIR` (read from `env`), else the
 * platform's user cache folder as env-paths names it (which reads
 * `process.env` itself): `$XDG_CACHE_HOME/reponav` or `~/.cache/reponav` on
 * Linux and other Unixes (the path reponav always used there, so existing
 * indexes stay found), `~/Library/Caches/reponav` on macOS,
 * `%LOCALAPPDATA%\reponav\Cache` on Windows. Never inside the user's
 * repository unless asked (`--index-path`).
 */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REPONAV_CACHE_DIR) return env.REPONAV_CACHE_DIR;
  // No suffix: env-paths would otherwise name the folder `reponav-nodejs`.
  return envPaths('reponav', { suffix: '' }).cache;
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
