import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { ImportRecord, ParsedFile } from '../../parse/index.js';
import type { Logger } from '../../logger.js';
import { silentLogger } from '../../logger.js';
import type { BuiltChunk } from './build-chunks.js';
import { FileContentWriter, type FileMeta } from './file-content-writer.js';
import { toFileRows, type FileRows } from './file-rows.js';
import { describeOpenFailure } from './index-errors.js';
import { toFileRow, toSymbolRow, type ChunkRow, type FileRow, type RawFile, type RawSymbol, type SkippedFile, type SymbolRow } from './index-rows.js';
import { probeDamage } from './damage-probe.js';
import { integrityProblem, openIndexDatabase, type OpenIndexOptions } from './open-index-database.js';
import { decodeParse, type StoredParse } from './parsed-blob.js';
import { abandonFullTextLogs } from './full-text-changes.js';
import { abandonFileRowLogs } from './file-row-changes.js';

/** A file row as stored. */
// The row shapes live beside their converters (index-rows.ts), so that file needs nothing from this one.
export type { ChunkRow, FileRow, SkippedFile, SymbolRow } from './index-rows.js';

/** Each open store's connection, for the query modules of src/index/ (see {@link indexConnection}). */
const connections = new WeakMap<IndexStore, Database.Database>();

/** The meta key of the paths version (see IndexStore.pathsVersion). */
const PATHS_VERSION_KEY = 'paths_version';

/**
 * The SQLite connection behind `store`. Only for the query modules in
 * src/index/ (chunk-queries.ts, symbol-queries.ts, text-queries.ts,
 * vector-store.ts): SQL and schema live in this folder only, and
 * scripts/check-sql-boundary.mjs fails CI when code elsewhere uses this.
 */
export function indexConnection(store: IndexStore): Database.Database {
  return connections.get(store)!;
}

/**
 * The SQLite index of one repository (WAL; one writer, many readers: see the
 * "Concurrency" section of docs/architecture.md). Opening checks the schema
 * version; an old or damaged index is rebuilt with a message, never trusted.
 */
export class IndexStore {
  private readonly db: Database.Database;
  private readonly statements: ReturnType<IndexStore['prepare']>;
  private readonly writer: FileContentWriter;
  /** How many of this store's transactions are running (nested ones included). */
  private transactionDepth = 0;
  /** A path was added or removed in the running transaction and no new paths version written for it yet. */
  private pathsChangedInTransaction = false;
  /**
   * Parsed symbol rows of recently read files. Every search reads the symbols of
   * its top files, and big files (thousands of symbols) dominate warm query
   * time. Cleared on this connection's writes and when another connection
   * commits (PRAGMA data_version changes).
   */
  private readonly symbolCache = new Map<string, SymbolRow[]>();
  private cachedDataVersion = -1;
  /** The last path list read and the paths version it was read at (see filePaths). */
  private heldPaths: { version: string; paths: readonly string[] } | null = null;

  private constructor(
    readonly path: string,
    db: Database.Database,
    logger: Logger,
  ) {
    this.db = db;
    connections.set(this, db);
    this.statements = this.prepare();
    // A new paths version in the same transaction as the write that added or removed a path: once, as the
    // transaction ends (a cold index adds every path), or at once outside this store's transactions.
    this.writer = new FileContentWriter(db, logger, () => {
      if (this.transactionDepth > 0) this.pathsChangedInTransaction = true;
      else this.setMeta(PATHS_VERSION_KEY, randomUUID());
    });
  }

  /**
   * Opens (creating or rebuilding as needed) the index at `path`; see
   * `openIndexDatabase` for what is rebuilt and what is refused.
   */
  static open(path: string, logger: Logger = silentLogger, options: OpenIndexOptions = {}): IndexStore {
    const db = openIndexDatabase(path, logger, options);
    try {
      return new IndexStore(path, db, logger);
    } catch (error) {
      db.close();
      throw describeOpenFailure(path, error);
    }
  }

  private prepare() {
    const db = this.db;
    return {
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      // An equal value is left as it is: no row is written, so the index state (its generation) is kept.
      setMeta: db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value'),
      allFiles: db.prepare('SELECT * FROM files ORDER BY path'),
      allPaths: db.prepare('SELECT path FROM files ORDER BY path').pluck(),
      fileByPath: db.prepare('SELECT * FROM files WHERE path = ?'),
      // '0' sorts right after '/': the range holds exactly the paths below a folder.
      filesBelow: db.prepare("SELECT * FROM files WHERE path > ? || '/' AND path < ? || '0' ORDER BY path"),
      fileCounts: db.prepare("SELECT COUNT(*) AS files, COALESCE(SUM(status = 'partial'), 0) AS partial, COALESCE(SUM(status = 'failed'), 0) AS failed FROM files"),
      blobParsed: db.prepare('SELECT parsed FROM blobs WHERE blob_id = ?'),
      blobText: db.prepare('SELECT text FROM blobs WHERE blob_id = ?'),
      // A stored failed parse gives way to a new one; any other stored parse is kept.
      insertBlob: db.prepare(
        `INSERT INTO blobs(blob_id, text, parsed, failure) VALUES (?, CAST(? AS TEXT), ?, ?)
         ON CONFLICT(blob_id) DO UPDATE SET parsed = excluded.parsed, failure = excluded.failure WHERE blobs.failure IS NOT NULL`,
      ),
      touchFile: db.prepare('UPDATE files SET mtime_ms = ?, size = ? WHERE id = ?'),
      upsertSkip: db.prepare(
        `INSERT INTO skipped(path, reason, blob_id, size, mtime_ms) VALUES (@path, @reason, @blobId, @size, @mtimeMs)
         ON CONFLICT(path) DO UPDATE SET reason = excluded.reason, blob_id = excluded.blob_id, size = excluded.size, mtime_ms = excluded.mtime_ms`,
      ),
      symbolsOfFile: db.prepare(
        'SELECT s.*, f.path AS path FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.start_line, s.end_line DESC, s.id',
      ),
      symbolCountOfFile: db.prepare('SELECT count(*) FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ?').pluck(),
      importsOfFile: db.prepare(
        'SELECT i.source, i.names, i.line FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ? ORDER BY i.line, i.rowid',
      ),
      importedBy: db.prepare('SELECT from_path FROM import_edges WHERE to_path = ? ORDER BY from_path'),
      importsOf: db.prepare('SELECT to_path FROM import_edges WHERE from_path = ? ORDER BY to_path'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    };
  }

  /** Reads a meta value. */
  getMeta(key: string): string | null {
    return (this.statements.getMeta.get(key) as { value: string } | undefined)?.value ?? null;
  }

  /** Writes a meta value (nothing is written when it already holds `value`). */
  setMeta(key: string, value: string): void {
    this.statements.setMeta.run(key, value);
  }

  /** Every indexed file, by path. */
  files(): FileRow[] {
    return (this.statements.allFiles.all() as RawFile[]).map(toFileRow);
  }

  /**
   * A token that changes whenever a path is added to or removed from the
   * index (in the same transaction), and not when a file is only edited: what
   * a reader derived from the path list alone still holds while it is the
   * same. Null for an index written before it was kept (derive afresh then).
   */
  pathsVersion(): string | null {
    return this.getMeta(PATHS_VERSION_KEY);
  }

  /**
   * Every indexed path, no other column (import resolution needs only the
   * set), ascending. The same array while the paths version lasts (an edit
   * keeps it), so what callers build from it can be kept by its identity; do
   * not change it.
   */
  filePaths(): readonly string[] {
    // The version is read first: a list newer than its version only fails the next comparison.
    const version = this.pathsVersion();
    if (version !== null && this.heldPaths?.version === version) return this.heldPaths.paths;
    const paths = this.statements.allPaths.all() as string[];
    this.heldPaths = version === null ? null : { version, paths };
    return paths;
  }

  /** The rows at each of `paths` or below it (a path may name a folder), without reading the others. */
  filesAt(paths: readonly string[]): FileRow[] {
    const rows = new Map<string, RawFile>();
    for (const path of paths) {
      const exact = this.statements.fileByPath.get(path) as RawFile | undefined;
      if (exact) rows.set(exact.path, exact);
      for (const row of this.statements.filesBelow.all(path, path) as RawFile[]) rows.set(row.path, row);
    }
    return [...rows.values()].map(toFileRow);
  }

  /** How many files are indexed, and how many of them parsed partially. */
  fileCounts(): { files: number; partial: number; failed: number } {
    return this.statements.fileCounts.get() as { files: number; partial: number; failed: number };
  }

  /** One file row, or null. */
  file(path: string): FileRow | null {
    const row = this.statements.fileByPath.get(path) as RawFile | undefined;
    return row ? toFileRow(row) : null;
  }

  /** The stored parse for a blob, or null when that content was never indexed. */
  parsedBlob(blobId: string): ParsedFile | null {
    const row = this.statements.blobParsed.get(blobId) as { parsed: Uint8Array } | undefined;
    return row ? decodeParse(row.parsed) : null;
  }

  /** True when the blob's stored parse is exactly `parse` (the same bytes and failure). */
  holdsParse(blobId: string, parse: StoredParse): boolean {
    const row = this.statements.blobParsed.get(blobId) as { parsed: Uint8Array } | undefined;
    return row !== undefined && Buffer.compare(row.parsed, parse.parsed) === 0;
  }

  /** The stored text for a blob, or null. */
  blobText(blobId: string): string | null {
    return (this.statements.blobText.get(blobId) as { text: string } | undefined)?.text ?? null;
  }

  /** The indexed text of a file, or null when not indexed. */
  fileText(path: string): string | null {
    const file = this.file(path);
    return file ? this.blobText(file.blobId) : null;
  }

  /**
   * Runs `work` in one write transaction, begun IMMEDIATE: it takes SQLite's
   * write lock up front (waiting up to busy_timeout), where a deferred one that
   * reads first fails at once with SQLITE_BUSY when another connection wrote meanwhile.
   */
  transaction<T>(work: () => T): T {
    try {
      return this.db
        .transaction(() => {
          this.transactionDepth++;
          try {
            const result = work();
            if (this.pathsChangedInTransaction) {
              this.setMeta(PATHS_VERSION_KEY, randomUUID());
              this.pathsChangedInTransaction = false;
            }
            return result;
          } catch (error) {
            // The whole transaction rolls back, so no path changed; a failed nested one may leave the outer's changes.
            if (this.transactionDepth === 1) this.pathsChangedInTransaction = false;
            throw error;
          } finally {
            this.transactionDepth--;
          }
        })
        .immediate();
    } catch (error) {
      // Rolled back: full-text rows logged inside it may not have been written (full-text-changes.ts).
      abandonFullTextLogs(this.db);
      abandonFileRowLogs(this.db);
      throw error;
    }
  }

  /** A cheap probe for damage (damage-probe.ts): SQLite's message for damage met, else null. */
  probeDamage(): string | null {
    return probeDamage(this.db);
  }

  /** SQLite's quick (or full) integrity check: null when it passes, else what it found. */
  integrityProblem(depth: 'quick' | 'full' = 'quick'): string | null {
    return integrityProblem(this.db, depth);
  }

  /**
   * Stores a blob's text and parse, in its stored form (parsed-blob.ts; a no-op when already stored, unless the stored parse failed).
   * `text` may be given as bytes when they are exactly its UTF-8 (valid, no byte order mark):
   * SQLite stores them as that TEXT, byte for byte, without a decode and re-encode.
   */
  putBlob(blobId: string, text: string | Uint8Array, parse: StoredParse): void {
    this.statements.insertBlob.run(blobId, text, parse.parsed, parse.failure);
  }

  /** Removes a file and everything derived from it. */
  deleteFile(path: string): void {
    this.symbolCache.clear();
    this.writer.deleteFile(path);
  }

  /**
   * Re-derives every file's chunks from its stored symbols and text and writes
   * them and their full-text rows afresh. The repair for a full-text table that
   * no longer matches its chunk rows; a file whose text is gone is dropped so
   * the next run indexes it again.
   */
  rebuildFullText(): void {
    this.symbolCache.clear();
    this.writer.rebuildFullText();
  }

  /** Replaces a file's rows with a fresh parse and its chunks. */
  putFile(meta: FileMeta, parsed: ParsedFile, chunks: BuiltChunk[]): void {
    this.putFileRows(meta, toFileRows(parsed, chunks));
  }

  /** {@link putFile} with the rows already built (by a parse worker: see file-rows.ts). */
  putFileRows(meta: FileMeta, rows: FileRows): void {
    this.symbolCache.clear();
    this.writer.putFileRows(meta, rows);
  }

  /** Updates the cheap change signals of an unchanged file. */
  touchFile(id: number, mtimeMs: number | null, size: number): void {
    this.statements.touchFile.run(mtimeMs, size, id);
  }

  /** Replaces the skip list. */
  replaceSkipped(entries: SkippedFile[]): void {
    this.db.prepare('DELETE FROM skipped').run();
    for (const e of entries) this.statements.upsertSkip.run(e);
  }

  /** Files the last run listed but skipped on reading, by path. */
  skippedFiles(): Map<string, SkippedFile> {
    const rows = this.db.prepare('SELECT path, reason, blob_id AS blobId, size, mtime_ms AS mtimeMs FROM skipped').all() as SkippedFile[];
    return new Map(rows.map((r) => [r.path, r]));
  }

  /**
   * Deletes blobs no file refers to, keeping the store bounded across commits.
   * With `candidates` (the blobs that files re-written in place referred to
   * before), only those are checked: a run that changed contents but no paths
   * cannot orphan any other blob, and the full pass reads every blob row
   * (~0.4 s on an 11.6k-file index, paid by the first search after any edit).
   * Many candidates take the full pass, which is then as cheap.
   */
  collectGarbage(candidates?: readonly string[]): number {
    if (candidates && candidates.length <= 256) {
      return this.db
        .prepare('DELETE FROM blobs WHERE blob_id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM files f WHERE f.blob_id = blobs.blob_id)')
        .run(JSON.stringify(candidates)).changes;
    }
    return this.db.prepare('DELETE FROM blobs WHERE blob_id NOT IN (SELECT blob_id FROM files)').run().changes;
  }

  /** Replaces all import edges. */
  replaceImportEdges(edges: { from: string; to: string }[]): void {
    this.db.prepare('DELETE FROM import_edges').run();
    const insert = this.db.prepare('INSERT OR IGNORE INTO import_edges(from_path, to_path) VALUES (?, ?)');
    for (const e of edges) insert.run(e.from, e.to);
  }

  /** Replaces the import edges leaving `fromPaths` with `edges`. */
  replaceImportEdgesFrom(fromPaths: string[], edges: { from: string; to: string }[]): void {
    const remove = this.db.prepare('DELETE FROM import_edges WHERE from_path = ?');
    for (const path of fromPaths) remove.run(path);
    const insert = this.db.prepare('INSERT OR IGNORE INTO import_edges(from_path, to_path) VALUES (?, ?)');
    for (const e of edges) insert.run(e.from, e.to);
  }

  /** All imports of all files (for edge resolution). */
  allImports(): { path: string; language: string; imports: ImportRecord[] }[] {
    const rows = this.db
      .prepare('SELECT f.path, f.language, i.source, i.names, i.line FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.line')
      .all() as { path: string; language: string; source: string; names: string; line: number }[];
    const out: { path: string; language: string; imports: ImportRecord[] }[] = [];
    for (const row of rows) {
      let last = out[out.length - 1];
      if (!last || last.path !== row.path) out.push((last = { path: row.path, language: row.language, imports: [] }));
      last.imports.push({ source: row.source, names: JSON.parse(row.names), line: row.line });
    }
    return out;
  }

  /** Symbols of one file in source order. Callers must not mutate the returned rows. */
  symbolsOf(path: string): SymbolRow[] {
    // Prepared once: db.pragma() prepares on every call, and ranking and the scaffold ask for symbols dozens of times per search.
    const version = this.statements.dataVersion.get() as number;
    if (version !== this.cachedDataVersion) {
      this.symbolCache.clear();
      this.cachedDataVersion = version;
    }
    const cached = this.symbolCache.get(path);
    if (cached) return cached;
    const rows = (this.statements.symbolsOfFile.all(path) as RawSymbol[]).map(toSymbolRow);
    if (this.symbolCache.size >= 256) this.symbolCache.delete(this.symbolCache.keys().next().value!);
    this.symbolCache.set(path, rows);
    return rows;
  }

  /** How many symbols one file has (0 for a path not indexed): a count, without reading the rows (symbolsOf). */
  symbolCountOf(path: string): number {
    const cached = this.symbolCache.get(path);
    // Rows cached under an older data version may be stale: only a current cache entry answers.
    if (cached && this.statements.dataVersion.get() === this.cachedDataVersion) return cached.length;
    return this.statements.symbolCountOfFile.get(path) as number;
  }

  /** Imports of one file. */
  importsOfFile(path: string): ImportRecord[] {
    return (this.statements.importsOfFile.all(path) as { source: string; names: string; line: number }[]).map((r) => ({
      source: r.source,
      names: JSON.parse(r.names),
      line: r.line,
    }));
  }

  /** Files that import `path`, sorted. */
  importedBy(path: string): string[] {
    return (this.statements.importedBy.all(path) as { from_path: string }[]).map((r) => r.from_path);
  }

  /** Files that `path` imports, sorted. */
  importsOf(path: string): string[] {
    return (this.statements.importsOf.all(path) as { to_path: string }[]).map((r) => r.to_path);
  }

  /** Chunk rows by id. */
  chunksByIds(ids: number[]): Map<number, ChunkRow> {
    const out = new Map<number, ChunkRow>();
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT c.id, f.path, c.kind, c.symbol, c.start_line, c.end_line, c.content_hash FROM chunks c
         JOIN files f ON f.id = c.file_id WHERE c.id IN (${ids.map(() => '?').join(',')})`,
      )
      .all(...ids) as { id: number; path: string; kind: ChunkRow['kind']; symbol: string | null; start_line: number; end_line: number; content_hash: string }[];
    for (const r of rows) {
      out.set(r.id, { id: r.id, path: r.path, kind: r.kind, symbol: r.symbol, startLine: r.start_line, endLine: r.end_line, contentHash: r.content_hash });
    }
    return out;
  }

  /** Counts for status output. */
  counts(): { files: number; symbols: number; chunks: number; partial: number; failed: number; skipped: number } {
    const one = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return {
      files: one('SELECT COUNT(*) AS n FROM files'),
      symbols: one('SELECT COUNT(*) AS n FROM symbols'),
      chunks: one('SELECT COUNT(*) AS n FROM chunks'),
      partial: one("SELECT COUNT(*) AS n FROM files WHERE status = 'partial'"),
      failed: one("SELECT COUNT(*) AS n FROM files WHERE status = 'failed'"),
      skipped: one('SELECT COUNT(*) AS n FROM skipped'),
    };
  }

  /**
   * Files whose parse failed, by path, with the reason kept in their stored
   * parse (`unknown` for an index written before reasons were kept); at most `limit`.
   */
  failedFiles(limit = -1): { path: string; reason: string }[] {
    return this.db
      .prepare(
        `SELECT f.path AS path, COALESCE(b.failure, 'unknown') AS reason
         FROM files f LEFT JOIN blobs b ON b.blob_id = f.blob_id
         WHERE f.status = 'failed' ORDER BY f.path LIMIT ?`,
      )
      .all(limit) as { path: string; reason: string }[];
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
