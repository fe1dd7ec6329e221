// eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: loads tree-sitter only where files are parsed (see parse/index.ts)
import { failedParse, parseSourceText } from '../../parse/parse-source.js';
import type { ParsedFile } from '../../parse/index.js';
/* eslint-disable entry-points/no-restricted-paths -- a parse worker (parse-worker.ts) loads only what analyzing one file needs: these five modules, not the database behind store/index.ts */
import { gitBlobId } from '../store/blob-id.js';
import { encodeParse, type StoredParse } from '../store/parsed-blob.js';
import { buildChunks, type BuiltChunk } from '../store/build-chunks.js';
import { decodeFileText } from '../sources/decode-text.js';
import { toFileRows, type FileRows } from '../store/file-rows.js';
/* eslint-enable entry-points/no-restricted-paths */

/**
 * What a parse worker sends back for one file's content: its index rows as flat
 * values (see file-rows.ts) and the parse in the form the blobs table stores.
 * The text is not part of it: the caller still holds the bytes, and cloning
 * ~10 MB of strings across threads per repository costs more than decoding
 * them again. Computed here rather than on the indexer's thread, which writes
 * every file to SQLite and is the run's bottleneck: the rows, the stored parse, the
 * blob id, and whether the bytes can be stored as the text as they are.
 */
export interface FileAnalysis {
  /** The parse, as stored in the blobs table (deflated JSON of the `ParsedFile`, see parsed-blob.ts). */
  parse: StoredParse;
  /** The file's symbol, import and chunk rows. */
  rows: FileRows;
  /** Git's blob id of the bytes. */
  blobId: string;
  /**
   * The bytes are exactly the UTF-8 of the decoded text (valid UTF-8, no byte
   * order mark), so they can be stored as the text without decoding them.
   */
  bytesAreText: boolean;
}

export { decodeFileText };

/** Parses and chunks one file. Pure CPU work: runs in a worker thread or in-process. */
export async function analyzeFile(path: string, bytes: Uint8Array): Promise<FileAnalysis> {
  const { parsed, text } = await parseSourceText(path, bytes);
  return withStoredForms(parsed, buildChunks(parsed, text), bytes);
}

/**
 * The analysis of a file that could not be parsed (a crashed worker, an
 * exception while chunking): status `failed` with `reason`, and whole-file
 * chunks so its text is still searchable until the next run parses it again.
 */
export function failedAnalysis(path: string, bytes: Uint8Array, reason: string): FileAnalysis {
  const parsed = failedParse(path, bytes, reason);
  return withStoredForms(parsed, buildChunks(parsed, decodeFileText(bytes)), bytes);
}

function withStoredForms(parsed: ParsedFile, chunks: BuiltChunk[], bytes: Uint8Array): FileAnalysis {
  return { parse: encodeParse(parsed), rows: toFileRows(parsed, chunks), blobId: gitBlobId(bytes), bytesAreText: bytesAreText(parsed, bytes) };
}

/** True when decoding dropped nothing and replaced nothing: no BOM, valid UTF-8 (the parse's strict decode says which). */
function bytesAreText(parsed: ParsedFile, bytes: Uint8Array): boolean {
  return !parsed.decodedWithReplacement && !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
}
