/**
 * Decoding a file's bytes to text, apart from the parser: the indexer needs it
 * on its main thread without loading tree-sitter.
 */

import { decodeSource } from '../../parse/index.js';

/** The stored text of a file, decoded as the parser reads it: UTF-8 (BOM dropped), else Windows-1252 (Latin-1). */
export function decodeFileText(bytes: Uint8Array): string {
  return decodeSource(bytes).text;
}
