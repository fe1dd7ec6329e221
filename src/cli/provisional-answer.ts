/**
 * `reponav search` on a working tree that has never been indexed: this search
 * indexes the files it needs first and answers from that partial index
 * (tools/focused-answer.ts: callTool with `continueFirstIndex`), then the whole
 * index is built in a detached `reponav index` process, so the next search
 * uses it. A search while that build runs answers through the search tool's
 * provisional answer (callTool with `firstIndexElsewhere`) and starts no
 * second build; so does a search whose focused index failed. A tree the
 * focused index would take whole (retrieve/focused-files.ts's
 * focusLeavesFiles) is indexed before answering: that index is the same
 * work, and its answer is whole. The build's error line (its stderr, `-q`: errors only) is kept
 * in `<index>.background-error`: after a build that failed (a full disk, say),
 * the provisional answer says so and why, and no new build starts by itself
 * (it would fail the same way on every search); `reponav index` retries it.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WorktreeSource, WriterLock, type RepositoryIndex } from '../index/index.js';
import { focusLeavesFiles } from '../retrieve/index.js';
import { FOCUSED_MIN_FILES } from '../tools/index.js';
import type { RepositoryCommandOptions } from './cli-context.js';

/** Trees of this many listed files or more always answer before their whole index; a smaller one does when its bytes exceed the focused index's. */
export const PROVISIONAL_MIN_FILES = FOCUSED_MIN_FILES;

/** Whether a focused first index could leave files of this tree out: counted up to PROVISIONAL_MIN_FILES (a large tree is not listed), else by the few files' bytes. */
async function focusable(source: WorktreeSource): Promise<boolean> {
  if ((await source.countUpTo(PROVISIONAL_MIN_FILES)) >= PROVISIONAL_MIN_FILES) return true;
  return focusLeavesFiles((await source.list()).files);
}

/**
 * How a search on a never-indexed tree answers: provisionally (`failure`: why
 * the last background build failed, if it did), from a focused first index
 * (`continueIndex` then starts the background build), or as usual.
 */
export type BackgroundIndex = { provisional: false; continueIndex?: (unbuildable?: string) => void } | { provisional: true; failure: string | null };

/**
 * For `repository` (opened, not yet refreshed) a working tree with no
 * finished index and enough files to answer before it is built: provisional
 * while another process holds the writer lock (the background index runs) or
 * when the last background build failed (`failure` says why: the error line
 * it printed); else a focused first index, with `continueIndex` to start the
 * background build (told `unbuildable` when the focused index could not be
 * written: then no build starts, and the reason is kept for the next command
 * as a failed build's). Otherwise: search as usual.
 */
export async function indexInBackground(repository: RepositoryIndex, options: RepositoryCommandOptions): Promise<BackgroundIndex> {
  if (options.commit) return { provisional: false };
  if (!(repository.source instanceof WorktreeSource) || repository.store.getMeta('indexed') !== null) return { provisional: false };
  if (!(await focusable(repository.source))) return { provisional: false };
  const indexPath = repository.store.path;
  if (new WriterLock(indexPath).isHeld()) return { provisional: true, failure: null };
  const failure = lastBackgroundFailure(indexPath);
  if (failure !== null) return { provisional: true, failure };
  return {
    provisional: false,
    continueIndex: (unbuildable) => (unbuildable ? keepFailure(indexPath, unbuildable) : startBackgroundIndex(repository.root, indexPath, options)),
  };
}

/** Where the background build's stderr (errors only) goes. */
function errorLogPath(indexPath: string): string {
  return `${indexPath}.background-error`;
}

/** Bytes reserved for the build's error line before it starts: a full disk cannot keep it from being written. */
const RESERVED_LOG_BYTES = 4096;

/**
 * Writes the background build's log before the build starts: a first line
 * naming its process, padded to {@link RESERVED_LOG_BYTES}. The build's stderr
 * then writes from offset 0 over the reserved bytes, so its error line needs no
 * free space; and a build that could write nothing is still known to have run
 * (and, once its process is gone, to have stopped without finishing).
 */
export function reserveErrorLog(indexPath: string, pid: number): void {
  const head = `started: ${pid}\n`;
  writeFileSync(errorLogPath(indexPath), head + ' '.repeat(Math.max(0, RESERVED_LOG_BYTES - head.length)));
}

/**
 * Why the last background build failed (its error line, `error: ` dropped),
 * or null when none was started or it still runs. A log with no error line
 * whose build process is gone, or an empty one (the log could not even be
 * reserved), is a build that stopped without finishing and could not say why.
 * Callers ask only when the index has no finished build and no process holds
 * its writer lock.
 */
export function lastBackgroundFailure(indexPath: string): string | null {
  let text: string;
  try {
    text = readFileSync(errorLogPath(indexPath), 'utf8');
  } catch {
    return null;
  }
  const line = text.split('\n').find((l) => l.startsWith('error: '));
  if (line) return line.slice('error: '.length).trim();
  const started = /^started: (\d+)/.exec(text);
  if (started && processAlive(Number(started[1]))) return null;
  return 'the build stopped before finishing and could not write why (is the disk holding the index full?)';
}

/**
 * Keeps why the index cannot be written (a focused first index met a full
 * disk, say) as a failed build's error line, so the next search says it
 * without trying again. Best effort: where not even this line fits, the next
 * search's own focused index meets the same error and says it the same way.
 */
function keepFailure(indexPath: string, reason: string): void {
  try {
    writeFileSync(errorLogPath(indexPath), `error: ${reason}\n`);
  } catch {
    // Nothing to keep it in; see above.
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts `reponav index ROOT` detached (it outlives this process), with this run's index settings. */
function startBackgroundIndex(root: string, indexPath: string, options: RepositoryCommandOptions): void {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  const script = existsSync(main) ? main : process.argv[1];
  const args = [script, 'index', root, '-q', '--index-path', indexPath];
  if (options.maxFileBytes !== undefined) args.push('--max-file-size', String(options.maxFileBytes));
  // Rewritten by each build (only the last build's error counts), and reserved before it starts: the
  // child's stderr writes from offset 0 over the reserved bytes ('r+' keeps them; 'w' would free them).
  try {
    reserveErrorLog(indexPath, process.pid);
  } catch {
    return; // Not even the log fits: the empty or missing log says the build could not run.
  }
  const log = openSync(errorLogPath(indexPath), 'r+');
  try {
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', log] });
    child.on('error', () => undefined);
    if (child.pid !== undefined) writeSync(log, `started: ${child.pid}\n`.padEnd(`started: ${process.pid}\n`.length, ' '), 0);
    child.unref();
  } finally {
    closeSync(log);
  }
}
