/**
 * Symbol lookups by name for the find_class / find_function tools: exact
 * (case-insensitive) simple names and name fragments, filtered by kind.
 */
import type { SymbolKind } from '../parse/index.js';
import { toSymbolRow, type RawSymbol } from './index-rows.js';
import { indexConnection, type IndexStore, type SymbolRow } from './index-store.js';

function querySymbols(store: IndexStore, where: string, params: unknown[], limit: number): SymbolRow[] {
  const sql = `SELECT s.*, f.path AS path FROM symbols s JOIN files f ON f.id = s.file_id WHERE ${where}
               ORDER BY f.path, s.start_line, s.id LIMIT ${Math.max(1, Math.floor(limit))}`;
  return (indexConnection(store).prepare(sql).all(...params) as RawSymbol[]).map(toSymbolRow);
}

/** Symbols of the given kinds whose simple name equals `name` ignoring ASCII case, by path then line, at most `limit`. */
export function symbolsNamed(store: IndexStore, name: string, kinds: readonly SymbolKind[], limit = 200): SymbolRow[] {
  return querySymbols(store, `s.name = ? COLLATE NOCASE AND s.kind IN (${kinds.map(() => '?').join(',')})`, [name, ...kinds], limit);
}

/** Symbols of the given kinds whose lower-cased simple name contains `fragment` (pass it lower-cased), by path then line, at most `limit`. */
export function symbolsWithNameContaining(store: IndexStore, fragment: string, kinds: readonly SymbolKind[], limit = 200): SymbolRow[] {
  return querySymbols(store, `instr(lower(s.name), ?) > 0 AND s.kind IN (${kinds.map(() => '?').join(',')})`, [fragment, ...kinds], limit);
}
