/**
 * One self-contained file from an index: what a team-server worker uploads as
 * a shard. VACUUM INTO writes a compact copy in rollback-journal mode (no -wal
 * or -shm beside it), so a reader anywhere can open it read-only as it is.
 */
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Writes a compact, single-file copy of the index at `indexPath` to `destPath` (replaced if present). */
export function snapshotIndex(indexPath: string, destPath: string): void {
  rmSync(destPath, { force: true });
  const db = new Database(indexPath, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(destPath);
  } finally {
    db.close();
  }
  const out = new Database(destPath);
  try {
    out.pragma('journal_mode = DELETE');
  } finally {
    out.close();
  }
}
