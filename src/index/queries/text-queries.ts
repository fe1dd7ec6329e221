/**
 * Literal text search over the indexed text of every file (SQLite's instr, so
 * no pattern can be slow): the candidate files of the find_code_snippet tool.
 */
import { indexConnection, type IndexStore } from '../store/index.js';

/** One indexed file and its whole text. */
export interface IndexedText {
  path: string;
  text: string;
}

/**
 * Indexed files whose text contains `needle` (exactly, or ignoring case with
 * `caseInsensitive`, as SQLite's lower() folds ASCII), by path. Lazy: stop
 * iterating to stop reading.
 */
export function filesContainingText(store: IndexStore, needle: string, options: { caseInsensitive?: boolean } = {}): Iterable<IndexedText> {
  const condition = options.caseInsensitive ? 'instr(lower(b.text), lower(?)) > 0' : 'instr(b.text, ?) > 0';
  return indexConnection(store)
    .prepare(`SELECT f.path AS path, b.text AS text FROM files f JOIN blobs b ON b.blob_id = f.blob_id WHERE ${condition} ORDER BY f.path`)
    .iterate(needle) as Iterable<IndexedText>;
}
