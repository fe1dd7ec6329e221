import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ParsedFile } from '../../parse/index.js';

/**
 * The stored form of a blob's parse: `JSON.stringify` of the `ParsedFile`, raw
 * deflate at level 1 (a parse's JSON is repetitive key names and identifiers:
 * level 1 keeps most of the gain at a fraction of the CPU of the default 6).
 * Computed by the parse worker, beside the rows, so the writing thread only
 * stores the bytes.
 */
export interface StoredParse {
  /** The deflated JSON. */
  parsed: Uint8Array;
  /** The reason of a failed parse (status `failed`), else null: SQL reads it without inflating. */
  failure: string | null;
}

/** The stored form of a parse (see {@link StoredParse}). */
export function encodeParse(parsed: ParsedFile): StoredParse {
  const bytes = deflateRawSync(JSON.stringify(parsed), { level: 1 });
  return {
    parsed: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    failure: parsed.status === 'failed' ? (parsed.failure ?? 'unknown') : null,
  };
}

/** The parse back from its stored bytes. */
export function decodeParse(stored: Uint8Array): ParsedFile {
  return JSON.parse(inflateRawSync(stored).toString('utf8')) as ParsedFile;
}
