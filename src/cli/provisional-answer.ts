/**
 * `reponav search` on a working tree that has never been indexed: answer at
 * once from a provisional text scan (retrieve/provisional-search.ts) and build
 * the index in a detached `reponav index` process, so the next search uses it.
 * A search while that build runs answers provisionally again and starts no
 * second build. A tree of fewer than PROVISIONAL_MIN_FILES files is indexed
 * before answering, as before: that takes a few seconds at most, and a first
 * answer with symbols is worth them.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorktreeSource, WriterLock, type RepositoryIndex } from '../index/index.js';
// eslint-disable-next-line entry-points/no-restricted-paths -- loaded only for a first answer before any index exists (see tools/tool-registry.ts)
import { provisionalSearch, renderProvisional } from '../retrieve/provisional-search.js';
import { printJson, type RepositoryCommandOptions } from './cli-context.js';

/** Trees with fewer listed files than this are indexed before the first answer. */
export const PROVISIONAL_MIN_FILES = 300;

/**
 * Answers provisionally and returns true when `repository` (opened, not yet
 * refreshed, by the caller, who closes it) is a working tree with no finished
 * index; false: search as usual.
 */
export async function answerProvisionally(
  repository: RepositoryIndex,
  options: RepositoryCommandOptions,
  query: string,
  output: { json: boolean; pathFilter?: (path: string) => boolean },
): Promise<boolean> {
  if (options.commit) return false;
  if (!(repository.source instanceof WorktreeSource) || repository.store.getMeta('indexed') !== null) return false;
  if ((await repository.source.countUpTo(PROVISIONAL_MIN_FILES)) < PROVISIONAL_MIN_FILES) return false;
  if (!new WriterLock(repository.store.path).isHeld()) startBackgroundIndex(repository.root, repository.store.path, options);
  const result = await provisionalSearch(repository.root, query, { pathFilter: output.pathFilter, maxFileBytes: options.maxFileBytes });
  const name = repository.root.split('/').pop() || repository.root;
  // The same machine form as the MCP search tool's provisional answer.
  if (output.json) printJson({ provisional: true, query: result.query, provisionalFiles: result.files, repository: name });
  else process.stdout.write(renderProvisional(result, name) + '\n');
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
