/**
 * Building one shard: the repository's commit, indexed by the existing
 * indexer in commit mode. A worker keeps one commit index per repository that
 * moves from commit to commit (only changed files are re-parsed); a worker
 * without one starts from the previous ready shard in the store, so a new
 * commit costs its changes, not the whole repository.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RepositoryIndex, SCHEMA_VERSION, snapshotIndex } from '../index/index.js';
import type { Logger } from '../logger.js';
import { mirrorWithCommit } from './git-fetch.js';
import type { ShardRecord } from './shard-registry.js';
import type { ShardStore } from './shard-store.js';
import { folderKey } from './work-folders.js';

/** The file a build produced, ready to upload. */
export interface BuiltFile {
  path: string;
  parsedFiles: number;
  files: number;
  /** Where the build started: `local` index, the `store`'s previous shard, or `scratch`. */
  startedFrom: 'local' | 'store' | 'scratch';
}

/** A worker's bare mirror of `repo` under its `workDir`. */
export function mirrorDir(workDir: string, repo: string): string {
  return join(workDir, 'git', `${folderKey(repo)}.git`);
}

/**
 * Builds `repo` at `commit` from `url` in `workDir`; returns a snapshot file
 * (the caller uploads and deletes it). `previous` is the newest ready shard,
 * used to start from when this worker has no local index of the repository.
 */
export async function buildShard(
  job: { repo: string; url: string; commit: string },
  options: {
    workDir: string;
    store: ShardStore;
    previous: ShardRecord | null;
    logger: Logger;
    signal?: AbortSignal;
    /** Runs once the mirror holds the commit, before indexing (the worker records what the commit contains). */
    fetched?: (gitDir: string) => Promise<void>;
  },
): Promise<BuiltFile> {
  const gitDir = mirrorDir(options.workDir, job.repo);
  const indexPath = join(options.workDir, 'index', `${folderKey(job.repo)}.db`);
  await mirrorWithCommit(job.url, gitDir, job.commit, options.signal);
  await options.fetched?.(gitDir);
  let startedFrom: BuiltFile['startedFrom'] = 'local';
  if (!existsSync(indexPath)) {
    startedFrom = 'scratch';
    await mkdir(join(options.workDir, 'index'), { recursive: true });
    if (options.previous && options.previous.schemaVersion === SCHEMA_VERSION) {
      try {
        await options.store.get(options.previous.location, options.previous.sha256, indexPath);
        startedFrom = 'store';
      } catch (error) {
        options.logger.warn(`could not start ${job.repo} from its previous shard (${(error as Error).message}); building from scratch`);
      }
    }
  }
  const index = await RepositoryIndex.open(gitDir, { commit: job.commit, indexPath, logger: options.logger });
  let report;
  try {
    report = await index.refresh({ signal: options.signal });
  } finally {
    index.close();
  }
  const out = join(options.workDir, 'out', `${folderKey(job.repo)}-${job.commit}-${process.pid}.db`);
  await mkdir(join(options.workDir, 'out'), { recursive: true });
  await rm(out, { force: true });
  snapshotIndex(indexPath, out);
  return { path: out, parsedFiles: report.parsed, files: report.listed, startedFrom };
}
