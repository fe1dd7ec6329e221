// eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: loads tree-sitter only where files are parsed (see parse/index.ts)
import { failedParse, parseSource } from '../parse/parse-source.js';
import type { ParsedFile } from '../parse/index.js';
import { buildChunks, type BuiltChunk } from './build-chunks.js';
import { decodeFileText } from './decode-text.js';

/**
 * What a parse worker sends back for one file's content. The text is not part
 * of it: the caller still holds the bytes, and cloning ~10 MB of strings across
 * threads per repository costs more than decoding them again.
 */
export interface FileAnalysis {
  parsed: ParsedFile;
  chunks: BuiltChunk[];
}

export { decodeFileText } from './decode-text.js';

/** Parses and chunks one file. Pure CPU work: runs in a worker thread or in-process. */
export async function analyzeFile(path: string, bytes: Uint8Array): Promise<FileAnalysis> {
  const parsed = await parseSource(path, bytes);
  return { parsed, chunks: buildChunks(parsed, decodeFileText(bytes)) };
}

/**
 * The analysis of a file that could not be parsed (a crashed worker, an
 * exception while chunking): status `failed` with `reason`, and whole-file
 * chunks so its text is still searchable until the next run parses it again.
 */
export function failedAnalysis(path: string, bytes: Uint8Array, reason: string): FileAnalysis {
  const parsed = failedParse(path, bytes, reason);
  return { parsed, chunks: buildChunks(parsed, decodeFileText(bytes)) };
}
