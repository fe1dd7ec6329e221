/**
 * The names every file defines, read in one query, for file-level documents
 * (a file described by its path and the names it defines; see
 * retrieve/file-documents.ts). One pass over the symbols table instead of one
 * lookup per file: a repository has thousands of files.
 */
import { indexConnection, type IndexStore } from './index-store.js';

/**
 * Simple names of the symbols each indexed file defines at most `maxDepth`
 * levels below its top level (0: top-level classes and functions only; 1:
 * also their members), in source order. Files defining nothing are absent.
 */
export function definedNamesByFile(store: IndexStore, maxDepth = 1): Map<string, string[]> {
  const rows = indexConnection(store)
    .prepare('SELECT f.path AS path, s.name AS name, s.qualified_name AS qualified FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.start_line, s.id')
    .all() as { path: string; name: string; qualified: string }[];
  const out = new Map<string, string[]>();
  for (const row of rows) {
    let depth = 0;
    for (let i = row.qualified.indexOf('.'); i >= 0; i = row.qualified.indexOf('.', i + 1)) depth++;
    if (depth > maxDepth) continue;
    const names = out.get(row.path);
    if (names) names.push(row.name);
    else out.set(row.path, [row.name]);
  }
  return out;
}
