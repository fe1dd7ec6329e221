/**
 * A source file's bytes as text, the one decoding the parser and the stored
 * text share (so spans and lines agree): UTF-8 (a BOM dropped) when the bytes
 * are valid UTF-8, else Windows-1252, the superset of Latin-1 that legacy
 * source files are written in, which gives every byte a character (never
 * U+FFFD). No tree-sitter here: the indexer's thread decodes too.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('windows-1252');

/** The text of `bytes`; `notUtf8` when they were not valid UTF-8 and were decoded as Windows-1252 (Latin-1). */
export function decodeSource(bytes: Uint8Array): { text: string; notUtf8: boolean } {
  try {
    return { text: utf8.decode(bytes), notUtf8: false };
  } catch {
    return { text: latin1.decode(bytes), notUtf8: true };
  }
}
