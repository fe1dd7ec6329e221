import { parseSource } from '../parse/parse-source.js';
import type { ParsedFile } from '../parse/symbol-model.js';
import { buildChunks, type BuiltChunk } from './build-chunks.js';

/** Everything the indexer stores for one file's content. */
export interface FileAnalysis {
  parsed: ParsedFile;
  text: string;
  chunks: BuiltChunk[];
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Parses and chunks one file. Pure CPU work: runs in a worker thread or in-process. */
export async function analyzeFile(path: string, bytes: Uint8Array): Promise<FileAnalysis> {
  const parsed = await parseSource(path, bytes);
  const text = decoder.decode(bytes);
  return { parsed, text, chunks: buildChunks(parsed, text) };
}
