/**
 * The whole vocabulary of the chunk full-text table, read through FTS5's
 * vocabulary view. One walk of the full-text index (0.06–0.22 s on the
 * LocBench repositories' 25k–74k tokens), so callers read it once per index
 * state and keep what they derive from it (retrieve/word-variants.ts).
 */
import { indexConnection, type IndexStore } from '../store/index.js';
import { rowVocabularyView } from './fts-views.js';

/** Every token of `store`'s chunk full-text table (index tokens), in token order; not cached (see the file comment). */
export function indexVocabulary(store: IndexStore): string[] {
  const db = indexConnection(store);
  return db.prepare(`SELECT term FROM ${rowVocabularyView(db)}`).pluck().all() as string[];
}
