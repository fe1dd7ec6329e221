/**
 * The FTS5 table that BM25 search runs over. It is contentless: storing the
 * pre-tokenized fields again would add ~1 byte per byte of source to every
 * index and cost a third of the full-text write time. FTS5 can only remove a
 * contentless row when it is given the exact values that were inserted, so a
 * file's rows are removed by re-deriving its chunks from what the index keeps
 * (the file's symbol rows and blob text) and checking each against the stored
 * chunk hash. Removal through FTS5's `delete` command keeps corpus statistics
 * exactly those of a fresh build (no tombstones), so rankings never depend on
 * index history.
 */
import type Database from 'better-sqlite3';
import type { CodeSymbol } from '../../parse/index.js';
import { buildChunks } from './build-chunks.js';
import type { SqlValue } from './file-rows.js';
import { FTS_FIELDS } from './index-schema.js';
import { abandonFullTextLogs, logFullTextRow } from './full-text-changes.js';

const COLUMNS = FTS_FIELDS.join(', ');
const PLACEHOLDERS = FTS_FIELDS.map(() => '?').join(', ');

/** The stored rows one file's chunks are re-derived from. */
export interface StoredFileContent {
  path: string;
  /** The file's symbols in insertion order (the parse's order). */
  symbols: CodeSymbol[];
  /** The blob text, or null when the blob row is gone. */
  text: string | null;
}

/** Writes and removes the full-text rows of chunks. */
export class FullTextIndex {
  private readonly insertRow: Database.Statement;
  private readonly deleteRow: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insertRow = db.prepare(`INSERT INTO chunks_fts(rowid, ${COLUMNS}) VALUES (?, ${PLACEHOLDERS})`);
    this.deleteRow = db.prepare(`INSERT INTO chunks_fts(chunks_fts, rowid, ${COLUMNS}) VALUES ('delete', ?, ${PLACEHOLDERS})`);
  }

  /**
   * Adds one chunk's fields under the chunk's row id: `values[at..at+4]`, in
   * FTS_FIELDS order (a chunk's slice of `FileRows.chunks`, see file-rows.ts).
   */
  addValues(chunkId: number, values: readonly SqlValue[], at: number): void {
    // Named rather than spread: one row per chunk of the repository, on the writing thread.
    this.insertRow.run(chunkId, values[at], values[at + 1], values[at + 2], values[at + 3], values[at + 4]);
    logFullTextRow(this.db, chunkId, 'added', values, at, FTS_FIELDS.length);
  }

  /**
   * Removes the full-text rows of one file's chunks (`chunkRows` in insertion
   * order). Returns false, having removed nothing, when the chunks re-derived
   * from `content` do not match the stored hashes: the caller must then rebuild
   * the whole table (`IndexStore.rebuildFullText`), because a wrong `delete` would corrupt it silently.
   */
  remove(content: StoredFileContent, chunkRows: { id: number; contentHash: string }[]): boolean {
    if (chunkRows.length === 0) return true;
    if (content.text === null) return false;
    const chunks = buildChunks(content, content.text);
    if (chunks.length !== chunkRows.length) return false;
    for (let i = 0; i < chunks.length; i++) if (chunks[i]!.contentHash !== chunkRows[i]!.contentHash) return false;
    for (let i = 0; i < chunks.length; i++) {
      const fields = chunks[i]!.fields;
      const values = FTS_FIELDS.map((field) => fields[field]);
      this.deleteRow.run(chunkRows[i]!.id, ...values);
      logFullTextRow(this.db, chunkRows[i]!.id, 'removed', values, 0, values.length);
    }
    return true;
  }

  /** Empties the table; the caller re-adds every searchable chunk. */
  clear(): void {
    this.db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('delete-all')").run();
    abandonFullTextLogs(this.db);
  }
}
