/**
 * Source lines as the index stored them. Tools read the indexed text, never the
 * disk, so what they show agrees with the symbols and spans they report (the
 * index is refreshed before each call, so the two also agree with the tree).
 */
import type { IndexStore } from '../index/index.js';
import type { ReadLines } from '../scaffold/index.js';

/** Splits text into editor lines: `\n` or `\r\n` separated, a final newline starts no extra line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** A per-call cache of file lines over one store. */
export class LineCache {
  private readonly cache = new Map<string, string[] | null>();

  constructor(private readonly store: IndexStore) {}

  /** All lines of an indexed file, or null when the path is not indexed. */
  lines(path: string): string[] | null {
    if (!this.cache.has(path)) {
      const text = this.store.fileText(path);
      this.cache.set(path, text === null ? null : splitLines(text));
    }
    return this.cache.get(path)!;
  }

  /** A ReadLines callback for the scaffold renderers (1-based inclusive; throws for a file no longer indexed). */
  readLines(): ReadLines {
    return (path, startLine, endLine) => {
      const lines = this.lines(path);
      if (lines === null) throw new Error(`${path} is no longer indexed`);
      return lines.slice(Math.max(0, startLine - 1), Math.max(0, endLine));
    };
  }
}
