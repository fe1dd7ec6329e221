/**
 * Opening an index database: schema version and integrity are checked, and an
 * index that cannot be trusted is rebuilt rather than read.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { SCHEMA_SQL, SCHEMA_VERSION } from './index-schema.js';

/**
 * Opens (creating or rebuilding as needed) the SQLite database of an index at `path`. `:memory:` is
 * allowed. An old, damaged or half-written reponav index is rebuilt with a
 * warning. Any other file is only replaced when `options.owned` says the path
 * is reponav's own (its cache); otherwise opening fails with BAD_INPUT and the
 * file is left as it was, since it may be somebody's data.
 */
export function openIndexDatabase(path: string, logger: Logger, options: { owned?: boolean } = {}): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const refuse = (why: string) =>
    new ReponavError(
      'BAD_INPUT',
      `${path} is not a reponav index (${why}); refusing to overwrite it. Delete it yourself or pass another --index-path.`,
    );
  let db: Database.Database | null = null;
  try {
    db = new Database(path);
    const problem = check(db);
    if (problem === 'fresh') create(db);
    else if (problem) {
      if (!problem.ours && !options.owned) throw refuse(problem.reason);
      logger.warn(`index at ${path} ${problem.reason}; rebuilding it`);
      db.close();
      db = null;
      remove(path);
      db = new Database(path);
      create(db);
    }
  } catch (error) {
    db?.close();
    if (error instanceof ReponavError || path === ':memory:') throw error;
    if (!options.owned) throw refuse((error as Error).message);
    logger.warn(`index at ${path} is damaged (${(error as Error).message}); rebuilding it`);
    remove(path);
    db = new Database(path);
    create(db);
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Returns null when usable, 'fresh' for an empty file, or why it must be
 * rebuilt and whether it is recognisably a reponav index (has our meta table).
 */
function check(db: Database.Database): null | 'fresh' | { reason: string; ours: boolean } {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[];
  if (tables.length === 0) return 'fresh';
  if (!tables.some((t) => t.name === 'meta')) {
    return { reason: `a SQLite database with tables ${tables.slice(0, 5).map((t) => t.name).join(', ')}`, ours: false };
  }
  const row = db.prepare("SELECT value FROM meta WHERE key='schema_version'").get() as { value: string } | undefined;
  if (!row) return { reason: 'has no schema version', ours: true };
  if (Number(row.value) !== SCHEMA_VERSION) {
    return { reason: `has schema version ${row.value}, this reponav uses ${SCHEMA_VERSION}`, ours: true };
  }
  const integrity = db.pragma('quick_check', { simple: true });
  if (integrity !== 'ok') return { reason: `failed its integrity check (${String(integrity)})`, ours: true };
  return null;
}

function create(db: Database.Database): void {
  db.exec(SCHEMA_SQL);
  db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
}

function remove(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) rmSync(path + suffix);
}
