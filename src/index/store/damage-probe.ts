/**
 * A cheap look for damage in an index file, for a status line that must not
 * say "up to date" over a damaged index without paying for a full check on
 * every call. A small index gets SQLite's quick check (every page, no
 * cross-checks of indexes against tables); a large one gets a sample: the
 * schema, then in every rowid table the b-tree pages on the way to its first
 * and last rows and to a few rows between, read whole (overflow pages
 * included). Damage off those paths is found by `reponav index --check`.
 */
import type Database from 'better-sqlite3';
import { isCorruption } from './index-errors.js';
import { integrityProblem } from './open-index-database.js';

/** Files up to this size get the quick check of every page (its cost is measured in docs/architecture.md, "Damage met while reading"). */
export const FULL_PROBE_BYTES = 32 * 1024 * 1024;

/** Rows read between the first and the last of each table in a sampled probe. */
const SAMPLES_PER_TABLE = 16;

/**
 * Returns SQLite's message for damage the probe met, or null when it met
 * none. Failures that are not damage (a lock, a permission) are thrown.
 */
export function probeDamage(db: Database.Database): string | null {
  try {
    const pageCount = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    if (pageCount * pageSize <= FULL_PROBE_BYTES) return integrityProblem(db, 'quick');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND sql NOT LIKE '%WITHOUT ROWID%'")
      .all() as { name: string }[];
    for (const { name } of tables) sampleRows(db, `"${name.replace(/"/g, '""')}"`);
    return null;
  } catch (error) {
    if (isCorruption(error)) return (error as Error).message;
    throw error;
  }
}

/** Reads the first, the last and SAMPLES_PER_TABLE rows spread between them, whole. */
function sampleRows(db: Database.Database, table: string): void {
  const bounds = db.prepare(`SELECT MIN(rowid) AS lo, MAX(rowid) AS hi FROM ${table}`).get() as { lo: number | null; hi: number | null };
  if (bounds.lo === null || bounds.hi === null) return;
  // Every column is read into JavaScript, so a damaged overflow chain shows too.
  const seek = db.prepare(`SELECT * FROM ${table} WHERE rowid >= ? ORDER BY rowid LIMIT 1`);
  const span = bounds.hi - bounds.lo;
  for (let i = 0; i <= SAMPLES_PER_TABLE + 1; i++) seek.get(bounds.lo + Math.floor((span * i) / (SAMPLES_PER_TABLE + 1)));
}
