/**
 * Functions whose name the issue's title spells out in parts. A title states
 * the problem in the project's words ("Add a `deferred` parameter to `Task.map`
 * to control whether to defer or submit tasks" → `Task.submit`); a function
 * named with those words is a likelier edit site than one whose body merely
 * repeats the body's words. Only the ranked files' own symbols are read.
 */
import { splitIdentifier, type SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import type { QueryTerm } from './query-parser.js';
import { outermostFunction, type FileSymbols } from './function-neighbours.js';

/** Name parts too common to tell functions apart (dunder words, prepositions). */
const MIN_PART = 3;

/** The distinct parts of a function's own name (`_load_model_from_fileobj` → load, model, from, fileobj). */
function nameParts(name: string): string[] {
  return [...new Set(splitIdentifier(name))].filter((p) => p.length >= MIN_PART && !/^\d+$/.test(p));
}

/**
 * The share (0–1] of a function name's parts that are title terms, or 0 when
 * fewer than `minParts` of them are (one shared word names nothing in a long name).
 */
export function titleNameShare(name: string, title: ReadonlySet<string>, minParts = 1): number {
  const parts = nameParts(name);
  if (parts.length === 0) return 0;
  const hits = parts.filter((p) => title.has(p)).length;
  return hits >= minParts ? hits / parts.length : 0;
}

/**
 * The outermost functions of the first `files` whose own name shares parts
 * with the title, each with its share; the unit of a nested match is its
 * outermost function, as everywhere in the symbol ranking.
 */
export function titleNamedFunctions(files: readonly FileSymbols[], title: readonly QueryTerm[], minParts = 1): { path: string; qualifiedName: string; share: number }[] {
  const tokens = new Set(title.map((t) => t.token));
  if (tokens.size === 0) return [];
  const out = new Map<string, { path: string; qualifiedName: string; share: number }>();
  for (const file of files) {
    for (const s of file.symbols) {
      if (TYPE_KINDS.has(s.kind)) continue;
      const share = titleNameShare(s.name, tokens, minParts);
      if (share === 0) continue;
      const unit: SymbolRow = outermostFunction(s, file.byName);
      const key = `${file.path}:${unit.qualifiedName}`;
      if ((out.get(key)?.share ?? 0) < share) out.set(key, { path: file.path, qualifiedName: unit.qualifiedName, share });
    }
  }
  return [...out.values()];
}
