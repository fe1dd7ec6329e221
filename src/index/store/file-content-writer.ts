/**
 * The write side of a file's content rows: its `files` row, symbols, imports,
 * chunks and their full-text rows, written and removed together. Kept apart
 * from IndexStore's reads because removal is the delicate part: the
 * full-text table is contentless, so a file's rows are removed by re-deriving
 * its chunks from what the index keeps (see full-text-index.ts), and a
 * mismatch repairs the whole table.
 */
import type Database from 'better-sqlite3';
import type { CodeSymbol } from '../../parse/index.js';
import type { Logger } from '../../logger.js';
import { buildChunks } from './build-chunks.js';
import { CHUNK_WIDTH, chunkRowValues, IMPORT_WIDTH, SYMBOL_WIDTH, type FileRows, type SqlValue } from './file-rows.js';
import { logFileRow } from './file-row-changes.js';
import { FullTextIndex } from './full-text-index.js';
import { toSymbolRow, type RawFile, type RawSymbol } from './index-rows.js';

/** A file's identity and cheap change signals, as `putFileRows` stores them. */
export interface FileMeta {
  path: string;
  blobId: string;
  size: number;
  mtimeMs: number | null;
}

/**
 * Writes and removes files' content rows on one connection. Internal to
 * IndexStore, which owns the connection and clears its read caches around these writes.
 */
export class FileContentWriter {
  private readonly statements: ReturnType<FileContentWriter['prepare']>;
  private readonly fullText: FullTextIndex;

  constructor(
    private readonly db: Database.Database,
    private readonly logger: Logger,
    /**
     * Called, inside the write, whenever a path is added or removed (an edit
     * keeps the path set): the store gives its paths version a new value.
     */
    private readonly pathsChanged: () => void,
  ) {
    this.statements = this.prepare();
    this.fullText = new FullTextIndex(db);
  }

  private prepare() {
    const db = this.db;
    return {
      allFiles: db.prepare('SELECT * FROM files ORDER BY path'),
      fileByPath: db.prepare('SELECT * FROM files WHERE path = ?'),
      blobText: db.prepare('SELECT text FROM blobs WHERE blob_id = ?'),
      chunksOfFile: db.prepare('SELECT id, content_hash AS contentHash FROM chunks WHERE file_id = ? ORDER BY id'),
      deleteChunksOfFile: db.prepare('DELETE FROM chunks WHERE file_id = ?'),
      symbolsOfFileId: db.prepare('SELECT * FROM symbols WHERE file_id = ? ORDER BY id'),
      deleteFile: db.prepare('DELETE FROM files WHERE id = ?'),
      insertFile: db.prepare(
        `INSERT INTO files(path, blob_id, size, mtime_ms, language, status, error_count, decoded_with_replacement, line_count, indexed_at)
         VALUES (@path, @blobId, @size, @mtimeMs, @language, @status, @errorCount, @decodedWithReplacement, @lineCount, @indexedAt)`,
      ),
      insertSymbol: db.prepare(
        `INSERT INTO symbols(file_id, name, qualified_name, kind, parent, start_line, end_line, signature, doc, callees, calls, bases)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertGraphFacts: db.prepare('INSERT INTO graph_facts(file_id, defines, calls) VALUES (?, ?, ?)'),
      insertImport: db.prepare('INSERT INTO imports(file_id, source, names, line) VALUES (?, ?, ?, ?)'),
      insertChunk: db.prepare(
        'INSERT INTO chunks(file_id, kind, symbol, start_line, end_line, content_hash) VALUES (?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  /** Removes a file and everything derived from it (a no-op for a path not indexed). */
  deleteFile(path: string): void {
    if (this.removeFile(path)) this.pathsChanged();
  }

  /** Removes a file's rows; false when the path was not indexed. */
  private removeFile(path: string): boolean {
    const file = this.statements.fileByPath.get(path) as RawFile | undefined;
    if (!file) return false;
    const removed = file.language === 'unknown' || this.fullText.remove(this.storedContent(file), this.chunkRowsOf(file.id));
    this.deleteFileRow(file);
    if (!removed) {
      this.logger.warn(`the full-text rows of ${path} do not match its stored chunks; rebuilding the full-text index`);
      this.rebuildFullText();
    }
    return true;
  }

  /** Deletes a files row (its symbols and chunks go with it), logged for the readers that carry what they read of the rows (file-row-changes.ts). */
  private deleteFileRow(file: RawFile): void {
    this.statements.deleteFile.run(file.id);
    logFileRow(this.db, file.path, file.language);
  }

  private chunkRowsOf(fileId: number): { id: number; contentHash: string }[] {
    return this.statements.chunksOfFile.all(fileId) as { id: number; contentHash: string }[];
  }

  private storedContent(file: RawFile): { path: string; symbols: CodeSymbol[]; text: string | null } {
    const symbols = (this.statements.symbolsOfFileId.all(file.id) as RawSymbol[]).map((r) => toSymbolRow({ ...r, path: file.path }));
    const text = (this.statements.blobText.get(file.blob_id) as { text: string } | undefined)?.text ?? null;
    return { path: file.path, symbols, text };
  }

  /** See `IndexStore.rebuildFullText`. */
  rebuildFullText(): void {
    this.fullText.clear();
    for (const file of this.statements.allFiles.all() as RawFile[]) {
      const content = this.storedContent(file);
      if (content.text === null) {
        this.deleteFileRow(file);
        this.pathsChanged();
        continue;
      }
      this.statements.deleteChunksOfFile.run(file.id);
      this.insertChunks(file.id, file.language !== 'unknown', chunkRowValues(buildChunks(content, content.text)));
    }
  }

  private insertChunks(fileId: number, searchable: boolean, chunks: readonly SqlValue[]): void {
    const s = this.statements;
    for (let i = 0; i < chunks.length; i += CHUNK_WIDTH) {
      const chunkId = Number(s.insertChunk.run(fileId, chunks[i], chunks[i + 1], chunks[i + 2], chunks[i + 3], chunks[i + 4]).lastInsertRowid);
      if (searchable) this.fullText.addValues(chunkId, chunks, i + 5);
    }
  }

  /** Replaces a file's rows with `rows` (see `IndexStore.putFileRows`). */
  putFileRows(meta: FileMeta, rows: FileRows): void {
    if (!this.removeFile(meta.path)) this.pathsChanged();
    const s = this.statements;
    const fileId = Number(
      s.insertFile.run({
        ...meta,
        language: rows.language,
        status: rows.status,
        errorCount: rows.errorCount,
        decodedWithReplacement: rows.decodedWithReplacement,
        lineCount: rows.lineCount,
        indexedAt: Date.now(),
      }).lastInsertRowid,
    );
    logFileRow(this.db, meta.path, rows.language);
    const sym = rows.symbols;
    for (let i = 0; i < sym.length; i += SYMBOL_WIDTH) {
      s.insertSymbol.run(fileId, sym[i], sym[i + 1], sym[i + 2], sym[i + 3], sym[i + 4], sym[i + 5], sym[i + 6], sym[i + 7], sym[i + 8], sym[i + 9], sym[i + 10]);
    }
    const imp = rows.imports;
    for (let i = 0; i < imp.length; i += IMPORT_WIDTH) s.insertImport.run(fileId, imp[i], imp[i + 1], imp[i + 2]);
    // Only parsed files are nodes of the file graph (graph-inputs.ts); the row goes with the file (ON DELETE CASCADE).
    if (rows.language !== 'unknown') s.insertGraphFacts.run(fileId, rows.graphDefines, rows.graphCalls);
    // Search covers source files in parsed languages; other text (docs, data,
    // templates) stays viewable and greppable but would drown code in BM25.
    this.insertChunks(fileId, rows.language !== 'unknown', rows.chunks);
  }
}
