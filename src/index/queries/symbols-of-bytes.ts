/**
 * The symbols of a file's content at some revision: the index's stored parse
 * of that blob when it has one (an index holds every blob of the tree it
 * describes, and commit mode keeps the blobs of commits it visited), else a
 * parse of the bytes with the same parser. Used to name the functions and
 * classes a change added, removed or modified.
 */
// eslint-disable-next-line entry-points/no-restricted-paths -- the parser's own entry: loaded only when a change names its symbols (see parse/index.ts)
import { parseSourceText } from '../../parse/parse-source.js';
import type { CodeSymbol } from '../../parse/index.js';
import { gitBlobId } from '../store/index.js';
import { decodeFileText } from '../sources/index.js';
import type { IndexStore } from '../store/index.js';

/** A file's content as symbols and text lines. */
export interface FileSide {
  symbols: CodeSymbol[];
  lines: string[];
  /** True when the symbols came from the index's stored parse. */
  fromIndex: boolean;
}

/** The symbols and lines of `bytes` as the file `path`. */
export async function symbolsOfBytes(store: IndexStore, path: string, bytes: Uint8Array): Promise<FileSide> {
  const stored = store.parsedBlob(gitBlobId(bytes));
  if (stored) return { symbols: stored.symbols, lines: decodeFileText(bytes).split(/\r?\n/), fromIndex: true };
  const { parsed, text } = await parseSourceText(path, bytes);
  return { symbols: parsed.symbols, lines: text.split(/\r?\n/), fromIndex: false };
}
