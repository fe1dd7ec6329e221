/**
 * Decoding a file's bytes to text, apart from the parser: the indexer needs it
 * on its main thread without loading tree-sitter.
 */

const decoder = new TextDecoder('utf-8', { fatal: false });

/** The stored text of a file: UTF-8 with U+FFFD for invalid bytes, BOM dropped (as the parser reads it). */
export function decodeFileText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
