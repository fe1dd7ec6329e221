/**
 * What this connection changed in the `files` table since a reader asked: the
 * paths whose row it wrote or removed, and whether any of those rows (old or
 * new) was an unparsed file's. A long-lived reader that derived something from
 * every files row at one index state (the parsed files' states, the unparsed
 * files' fingerprint) brings it to the next state by re-reading only those
 * paths, instead of every row: after a one-file edit of an 11k-file tree that
 * read cost more than the rest of the refresh's readers together.
 *
 * As with the full-text log (full-text-changes.ts), it is a promise about this
 * connection's own writes only: another connection's commit changes SQLite's
 * data_version, and then the reader reads everything. Nothing is logged until a
 * reader starts its log; a rolled-back transaction ends every log.
 */
import type Database from 'better-sqlite3';
import { onlyThisConnectionWrote } from './full-text-changes.js';

/** The files rows written or removed since {@link FileRowLog.since}. */
export interface FileRowLog {
  /** The index generation the reader had read when it started the log. */
  since: string;
  /** Every path whose row was written or removed since. */
  paths: Set<string>;
  /** True when one of those rows, as written or as removed, was an unparsed file's (`language` 'unknown'). */
  unparsed: boolean;
  /** False once the log gave up (too many paths, a rollback): the reader reads afresh. */
  whole: boolean;
}

/** The readers that carry what they derived from the files rows across index states. */
export type FileRowReader = 'parsed-file-states' | 'unparsed-fingerprint';

/** Past this many paths a re-read of every row costs about as much: the log gives up. */
const MAX_LOGGED_PATHS = 4_096;

const logs = new WeakMap<Database.Database, Map<FileRowReader, FileRowLog>>();

/** Starts (or restarts) `reader`'s log of `db`'s files-row writes, as of the index state `since`. */
export function startFileRowLog(db: Database.Database, reader: FileRowReader, since: string): void {
  let readers = logs.get(db);
  if (!readers) logs.set(db, (readers = new Map()));
  readers.set(reader, { since, paths: new Set(), unparsed: false, whole: true });
}

/** Logs that the files row of `path` in `language` was written or removed (a no-op when no reader started a log). */
export function logFileRow(db: Database.Database, path: string, language: string): void {
  const readers = logs.get(db);
  if (!readers) return;
  for (const log of readers.values()) {
    if (!log.whole) continue;
    log.paths.add(path);
    if (language === 'unknown') log.unparsed = true;
    if (log.paths.size > MAX_LOGGED_PATHS) giveUp(log);
  }
}

/** Ends every log of `db` (a transaction that may have written rows rolled back). */
export function abandonFileRowLogs(db: Database.Database): void {
  for (const log of logs.get(db)?.values() ?? []) giveUp(log);
}

/**
 * `reader`'s log when it describes every files-row change between the index
 * states `from` (what the reader holds) and `to`: started at `from`, not given
 * up, and no other connection wrote in between. Else null: read `to` afresh.
 */
export function fileRowLogBetween(db: Database.Database, reader: FileRowReader, from: string, to: string): FileRowLog | null {
  const log = logs.get(db)?.get(reader);
  return log && log.whole && log.since === from && onlyThisConnectionWrote(from, to) ? log : null;
}

function giveUp(log: FileRowLog): void {
  log.whole = false;
  log.paths.clear();
}
