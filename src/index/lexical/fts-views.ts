/**
 * FTS5's vocabulary views of the chunk full-text table, created once per
 * connection in the temp schema: nothing is written to the index file, so
 * read-only connections can use them too.
 */
import type Database from 'better-sqlite3';

/** The instance view (term, doc, col, offset per occurrence); returns its name. */
export function instanceView(db: Database.Database): string {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts_instances USING fts5vocab(main, chunks_fts, instance)');
  return 'temp.chunks_fts_instances';
}

/** The row view (term, doc: chunks holding it, cnt: its occurrences); returns its name. */
export function rowVocabularyView(db: Database.Database): string {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_fts_vocab USING fts5vocab(main, chunks_fts, row)');
  return 'temp.chunks_fts_vocab';
}
