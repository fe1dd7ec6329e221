/**
 * Opening an index database. An index is rebuilt only when there is proof it
 * cannot be trusted: SQLite reports it corrupt (or not a database), an
 * integrity check fails, or its schema is older than this reponav's. Anything
 * else that stops it opening (the native module built for another Node.js, a
 * permission, a lock, a full disk) is reported with what to do, and the file
 * is left as it was.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { displayPath } from '../sources/index.js';
import { describeOpenFailure, isCorruption } from './index-errors.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from './index-schema.js';
import { WriterLock, type WriterLease } from './writer-lock.js';
import { removeDerivedCaches } from './derived-cache-files.js';

/** How to open an index database. */
export interface OpenIndexOptions {
  /** The path is reponav's own (its cache): a file there that is not a usable index may be replaced. */
  owned?: boolean;
  /** Never create, rebuild or write (`status`): a missing or damaged index is an error, and the file is untouched. */
  readonly?: boolean;
  /** The writer lock, when the caller already holds it (a rebuild needs it). */
  lease?: WriterLease;
  /** Rebuild regardless of what inspection finds (an integrity check failed), giving this reason. */
  rebuild?: string;
}

/**
 * Opens (creating or rebuilding as needed) the SQLite database of an index at
 * `path`; `:memory:` is allowed. A rebuild needs the index's writer lock: when
 * another process holds it, this throws INDEX_BUSY and the caller may wait for
 * the lock and pass it as `options.lease`. A file that is not recognisably a
 * reponav index is only replaced when `options.owned` says the path is
 * reponav's own; otherwise opening fails with BAD_INPUT and the file is left as
 * it was, since it may be somebody's data.
 */
export function openIndexDatabase(path: string, logger: Logger, options: OpenIndexOptions = {}): Database.Database {
  if (path === ':memory:') return configure(createSchema(new Database(path)), false);
  // Read-only and nothing there yet: an empty index in memory answers "never indexed" without creating a file.
  if (options.readonly && !existsSync(path)) return configure(createSchema(new Database(':memory:')), false);
  let db = connect(path, options);
  const verdict = options.rebuild ? { reason: options.rebuild, ours: true, rebuild: true } : inspect(db, path);
  if (verdict === null) return configure(db, !!options.readonly);
  if (verdict === 'fresh') {
    if (options.readonly) {
      db.close();
      throw new ReponavError('INDEX_MISSING', `The index at ${displayPath(path)} is empty; run \`reponav index\` to build it.`);
    }
    return configure(createSchema(db), false);
  }
  db.close();
  if (!verdict.rebuild) throw new ReponavError('INDEX_CORRUPT', `The index at ${displayPath(path)} ${verdict.reason}; it was left as it is.`);
  if (!verdict.ours && !options.owned) {
    throw new ReponavError(
      'BAD_INPUT',
      `${displayPath(path)} is not a reponav index (${verdict.reason}); refusing to overwrite it. Delete it yourself or pass another --index-path.`,
    );
  }
  if (options.readonly) {
    throw new ReponavError('INDEX_CORRUPT', `The index at ${displayPath(path)} ${verdict.reason}; run \`reponav index\` to rebuild it (this command changed nothing).`);
  }
  const lease = options.lease ?? new WriterLock(path).tryAcquire();
  if (!lease) {
    throw new ReponavError('INDEX_BUSY', `The index at ${displayPath(path)} ${verdict.reason} and another process is writing it; try again when it has finished.`);
  }
  try {
    if (!options.rebuild) {
      // Another process may have rebuilt it while we waited for the lock.
      db = connect(path, options);
      const again = inspect(db, path);
      if (again === null) return configure(db, false);
      db.close();
    }
    logger.warn(`index at ${displayPath(path)} ${verdict.reason}; rebuilding it`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    removeDerivedCaches(path);
    return configure(createSchema(connect(path, options)), false);
  } finally {
    if (!options.lease) lease.release();
  }
}

/** Runs SQLite's integrity check; returns null when it passes, else what it found. */
export function integrityProblem(db: Database.Database, depth: 'quick' | 'full'): string | null {
  try {
    const rows = db.pragma(depth === 'quick' ? 'quick_check(5)' : 'integrity_check(5)', { simple: false }) as Record<string, string>[];
    const messages = rows.map((row) => Object.values(row)[0]);
    return messages.length === 1 && messages[0] === 'ok' ? null : messages.join('; ').replace(/\s+/g, ' ');
  } catch (error) {
    if (isCorruption(error)) return (error as Error).message;
    throw error;
  }
}

function connect(path: string, options: OpenIndexOptions): Database.Database {
  try {
    if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
    return new Database(path, { readonly: !!options.readonly, fileMustExist: !!options.readonly });
  } catch (error) {
    throw describeOpenFailure(path, error);
  }
}

function configure(db: Database.Database, readonly: boolean): Database.Database {
  try {
    if (!readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (error) {
    db.close();
    throw describeOpenFailure(db.name, error);
  }
}

type Verdict = null | 'fresh' | { reason: string; ours: boolean; rebuild: boolean };

/**
 * Returns null when usable, 'fresh' for an empty file, or what is wrong: whether
 * it is recognisably a reponav index (has our meta table) and whether that is
 * proof enough to rebuild it. Failures that prove nothing are thrown, described.
 */
function inspect(db: Database.Database, path: string): Verdict {
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[];
    if (tables.length === 0) return 'fresh';
    if (!tables.some((t) => t.name === 'meta')) {
      return { reason: `a SQLite database with tables ${tables.slice(0, 5).map((t) => t.name).join(', ')}`, ours: false, rebuild: true };
    }
    const row = db.prepare("SELECT value FROM meta WHERE key='schema_version'").get() as { value: string } | undefined;
    if (!row) return { reason: 'has no schema version', ours: true, rebuild: true };
    const version = Number(row.value);
    if (version > SCHEMA_VERSION) {
      return {
        reason: `was written by a newer reponav (schema version ${row.value}; this one reads ${SCHEMA_VERSION}): upgrade reponav, or delete it to rebuild it with this version`,
        ours: true,
        rebuild: false,
      };
    }
    if (version !== SCHEMA_VERSION) return { reason: `has schema version ${row.value}, this reponav uses ${SCHEMA_VERSION}`, ours: true, rebuild: true };
    const damage = virtualTableDamage(db);
    if (damage) return { reason: `is damaged (SQLite: ${damage})`, ours: true, rebuild: true };
    // A file shorter than its own header says was cut off (a partial copy, a full
    // disk): cheap to notice, so confirm with a check instead of trusting it.
    if (looksTruncated(db, path)) {
      const problem = integrityProblem(db, 'quick');
      if (problem) return { reason: `failed its integrity check (${problem})`, ours: true, rebuild: true };
    }
    return null;
  } catch (error) {
    if (isCorruption(error)) return { reason: `is damaged (SQLite: ${(error as Error).message})`, ours: false, rebuild: true };
    db.close();
    throw describeOpenFailure(path, error);
  }
}

/**
 * Compiles a query on each virtual table (the full-text index): that reads its
 * configuration from its shadow tables, so damage there shows on open (as
 * "vtable constructor failed") instead of on the first statement that names
 * it. Returns SQLite's message for damage, null when all connect.
 */
function virtualTableDamage(db: Database.Database): string | null {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all() as { name: string }[];
  for (const { name } of tables) {
    try {
      db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}" LIMIT 0`);
    } catch (error) {
      if (isCorruption(error)) return (error as Error).message;
      throw error;
    }
  }
  return null;
}

/** True when no write-ahead log holds pages and the file is shorter than its page count says. */
function looksTruncated(db: Database.Database, path: string): boolean {
  let walBytes = 0;
  try {
    walBytes = statSync(`${path}-wal`).size;
  } catch {
    walBytes = 0;
  }
  if (walBytes > 32) return false;
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return statSync(path).size < pages * pageSize;
}

/** Creates the schema in one immediate transaction, unless another process created it first. */
function createSchema(db: Database.Database): Database.Database {
  db.transaction(() => {
    const tables = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE type='table'").get() as { n: number };
    if (tables.n > 0) return;
    db.exec(SCHEMA_SQL);
    db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  }).immediate();
  return db;
}
