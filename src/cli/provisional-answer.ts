/**
 * `reponav search` on a working tree that has never been indexed: the index is
 * built in a detached `reponav index` process, and this search answers at once
 * through the search tool's provisional answer (callTool with
 * `firstIndexElsewhere`), so the next search uses the index. A search while
 * that build runs answers provisionally again and starts no second build. A
 * tree of fewer than PROVISIONAL_MIN_FILES files is indexed before answering,
 * as before: that takes a few seconds at most, and a first answer with symbols
 * is worth them.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorktreeSource, WriterLock, type RepositoryIndex } from '../index/index.js';
import type { RepositoryCommandOptions } from './cli-context.js';

/** Trees with fewer listed files than this are indexed before the first answer. */
export const PROVISIONAL_MIN_FILES = 300;

/**
 * True when `repository` (opened, not yet refreshed) is a working tree with no
 * finished index and enough files to answer provisionally; the background
 * index is then running (started here unless another process holds the
 * writer lock). False: search as usual.
 */
export async function indexInBackground(repository: RepositoryIndex, options: RepositoryCommandOptions): Promise<boolean> {
  if (options.commit) return false;
  if (!(repository.source instanceof WorktreeSource) || repository.store.getMeta('indexed') !== null) return false;
  if ((await repository.source.countUpTo(PROVISIONAL_MIN_FILES)) < PROVISIONAL_MIN_FILES) return false;
  if (!new WriterLock(repository.store.path).isHeld()) startBackgroundIndex(repository.root, repository.store.path, options);
  return true;
}

/** Starts `reponav index ROOT` detached (it outlives this process), with this run's index settings. */
function startBackgroundIndex(root: string, indexPath: string, options: RepositoryCommandOptions): void {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  const script = existsSync(main) ? main : process.argv[1];
  const args = [script, 'index', root, '-q', '--index-path', indexPath];
  if (options.maxFileBytes !== undefined) args.push('--max-file-size', String(options.maxFileBytes));
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}
