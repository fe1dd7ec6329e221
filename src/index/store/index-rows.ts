/**
 * Row shapes as SQLite returns them and their mapping to the index's public
 * row types (camelCase, booleans, parsed JSON lists).
 */
import type { CodeSymbol, SymbolKind } from '../../parse/index.js';
import type { ChunkKind } from './index-schema.js';

export interface FileRow {
  id: number;
  path: string;
  blobId: string;
  size: number;
  mtimeMs: number | null;
  language: string;
  status: string;
  errorCount: number;
  decodedWithReplacement: boolean;
  lineCount: number;
  indexedAt: number;
}

/** A file skipped on reading, with the identity it had then (blob id in commit mode, size+mtime in a working tree). */
export interface SkippedFile {
  path: string;
  reason: string;
  blobId: string | null;
  /** Null when unknown (a blob missing from a partial mirror has no size). */
  size: number | null;
  mtimeMs: number | null;
}

/** A symbol row with its file path. */
export interface SymbolRow extends CodeSymbol {
  id: number;
  path: string;
}

/** A chunk row. */
export interface ChunkRow {
  id: number;
  path: string;
  kind: ChunkKind;
  symbol: string | null;
  startLine: number;
  endLine: number;
  contentHash: string;
}

/** A `files` row as stored. */
export interface RawFile {
  id: number; path: string; blob_id: string; size: number; mtime_ms: number | null; language: string; status: string;
  error_count: number; decoded_with_replacement: number; line_count: number; indexed_at: number;
}

/** A `symbols` row joined with its file path. */
export interface RawSymbol {
  id: number; path: string; name: string; qualified_name: string; kind: string; parent: string | null;
  start_line: number; end_line: number; signature: string; doc: string | null; callees: string; calls: string; bases: string;
}

/** Maps a stored file row. */
export function toFileRow(r: RawFile): FileRow {
  return {
    id: r.id, path: r.path, blobId: r.blob_id, size: r.size, mtimeMs: r.mtime_ms, language: r.language, status: r.status,
    errorCount: r.error_count, decodedWithReplacement: r.decoded_with_replacement === 1, lineCount: r.line_count, indexedAt: r.indexed_at,
  };
}

/** Maps a stored symbol row (callees and bases are JSON lists). */
export function toSymbolRow(r: RawSymbol): SymbolRow {
  return {
    id: r.id, path: r.path, name: r.name, qualifiedName: r.qualified_name, kind: r.kind as SymbolKind, parent: r.parent,
    startLine: r.start_line, endLine: r.end_line, signature: r.signature, doc: r.doc,
    callees: JSON.parse(r.callees), calls: JSON.parse(r.calls), bases: JSON.parse(r.bases),
  };
}

