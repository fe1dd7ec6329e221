/**
 * What this connection changed in the full-text table since a reader asked:
 * the chunk rows added and removed and every token their fields hold. A
 * long-lived reader (the scoring corpus, postings-corpus.ts) that read the
 * table at one index state carries what it read to the next state from this
 * log instead of reading the whole table again: after a one-file edit only the
 * edited file's tokens and rows differ.
 *
 * The log is a promise about this connection's own writes only; another
 * connection's commit changes SQLite's data_version, and the reader checks it.
 * Nothing is logged until a reader starts the log, so a one-shot index run
 * pays nothing. A 'delete-all' or a rolled-back transaction ends it (see
 * {@link abandonFullTextLogs}): nothing carries across a rebuild or a failed write.
 */
import type Database from 'better-sqlite3';

/** The full-text changes since {@link FullTextLog.since}, as logged by {@link FullTextIndex}'s writes. */
export interface FullTextLog {
  /** The index generation the reader had read when it started the log. */
  since: string;
  /** Each chunk row written or removed since, with the last of the two done to it. */
  rows: Map<number, 'added' | 'removed'>;
  /** Every token (lower-cased, as FTS5's ascii tokenizer makes them) in the fields of those rows, old and new. */
  tokens: Set<string>;
  /** The tokens of each field (FTS_FIELDS order, as {@link asciiTokens} makes them) of each row whose last change was `added`. */
  fields: Map<number, ReadonlyArray<readonly string[]>>;
  /** Characters of the tokens held in {@link fields}; past {@link MAX_LOGGED_CHARS} the log gives up (a bulk change is read afresh). */
  chars: number;
  /** False once something was done that the log cannot describe (the table emptied): the reader reads afresh. */
  whole: boolean;
}

/** The readers that carry what they read across index states, each with a log of its own (they read at different moments). */
export type FullTextReader = 'scoring-corpus' | 'term-statistics';

const logs = new WeakMap<Database.Database, Map<FullTextReader, FullTextLog>>();

/**
 * The most characters of field tokens a log holds: a one-file edit logs a few kilobytes;
 * a refresh that rewrites a large part of the tree ends the log instead, and
 * its readers read the next state afresh (as cheap, then, as carrying it).
 */
export const MAX_LOGGED_CHARS = 4_000_000;

/** Starts (or restarts) `reader`'s log of `db`'s full-text writes, as of the index state `since`. */
export function startFullTextLog(db: Database.Database, reader: FullTextReader, since: string): void {
  let readers = logs.get(db);
  if (!readers) logs.set(db, (readers = new Map()));
  readers.set(reader, { since, rows: new Map(), tokens: new Set(), fields: new Map(), chars: 0, whole: true });
}

/** `reader`'s log of `db`'s full-text writes when it started one, else undefined. */
export function fullTextLog(db: Database.Database, reader: FullTextReader): FullTextLog | undefined {
  return logs.get(db)?.get(reader);
}

/**
 * `reader`'s log when it describes every full-text change between the index
 * states `from` (what the reader holds) and `to`: started at `from`, not given
 * up, and no other connection wrote in between. Else null: read `to` afresh.
 */
export function fullTextLogBetween(db: Database.Database, reader: FullTextReader, from: string, to: string): FullTextLog | null {
  const log = logs.get(db)?.get(reader);
  return log && log.whole && log.since === from && onlyThisConnectionWrote(from, to) ? log : null;
}

/**
 * The tokens FTS5's `ascii` tokenizer with `tokenchars '_'` makes of `value`:
 * runs of ASCII letters, digits, `_` and any non-ASCII character, with A-Z
 * lower-cased (only those, as the tokenizer does).
 * (The fields hold index tokens only, so this is a split on spaces in
 * practice; the rule is the tokenizer's so that no token is ever missed.)
 */
export function asciiTokens(value: string): string[] {
  // A-Z lower-cased before the split, not per token: both cases are token characters, so the
  // boundaries are the same, and a refresh tokenizes every field of every row it writes.
  const lowered = /[A-Z]/.test(value) ? value.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : value;
  return lowered.split(/[^a-z0-9_\u0080-\uffff]+/).filter((token) => token.length > 0);
}

/**
 * Logs a chunk row written (`added`) or removed with the field values it had:
 * `values[at]` to `values[at + count - 1]` (no copy is made when no log runs).
 */
export function logFullTextRow(db: Database.Database, id: number, change: 'added' | 'removed', values: readonly unknown[], at: number, count: number): void {
  const readers = logs.get(db);
  if (!readers) return;
  // Tokenized once, for every log: the token set takes them all, an added row's patch (postings-patch.ts) counts them.
  let fields: string[][] | undefined;
  let chars = 0;
  for (const log of readers.values()) {
    if (!log.whole) continue;
    if (!fields) {
      fields = Array.from({ length: count }, (_, i) => (typeof values[at + i] === 'string' ? asciiTokens(values[at + i] as string) : []));
      for (const field of fields) for (const token of field) chars += token.length;
    }
    log.rows.set(id, change);
    for (const field of fields) for (const token of field) log.tokens.add(token);
    const held = log.fields.get(id);
    if (held) {
      log.fields.delete(id);
      for (const field of held) for (const token of field) log.chars -= token.length;
    }
    if (change === 'added') {
      log.fields.set(id, fields);
      log.chars += chars;
      if (log.chars > MAX_LOGGED_CHARS) giveUp(log);
    }
  }
}

/** Ends a log that can no longer describe the state, and frees what it held. */
function giveUp(log: FullTextLog): void {
  log.whole = false;
  log.rows.clear();
  log.tokens.clear();
  log.fields.clear();
  log.chars = 0;
}

/**
 * Ends every log of `db`: something happened that they cannot describe (the
 * table emptied, or a transaction that may have written rows rolled back, so
 * rows logged as written may not be), and their readers read the next state afresh.
 */
export function abandonFullTextLogs(db: Database.Database): void {
  for (const log of logs.get(db)?.values() ?? []) giveUp(log);
}

/**
 * Whether every write between index generations `earlier` and `later` of one
 * connection was that connection's own (no other connection committed: SQLite's
 * data_version, the first part of index-generation.ts' `version:changes`, is unchanged).
 */
export function onlyThisConnectionWrote(earlier: string, later: string): boolean {
  return earlier.slice(0, earlier.indexOf(':')) === later.slice(0, later.indexOf(':'));
}
