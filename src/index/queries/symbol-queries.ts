/**
 * Symbol lookups by name for the find_class / find_function tools: exact
 * (case-insensitive) simple names and name fragments, filtered by kind.
 */
import type Database from 'better-sqlite3';
import type { SymbolKind } from '../../parse/index.js';
import { toSymbolRow, type RawSymbol } from '../store/index.js';
import { indexConnection, type IndexStore, type SymbolRow } from '../store/index.js';

function querySymbols(store: IndexStore, where: string, params: unknown[], limit: number): SymbolRow[] {
  const sql = `SELECT s.*, f.path AS path FROM symbols s JOIN files f ON f.id = s.file_id WHERE ${where}
               ORDER BY f.path, s.start_line, s.id LIMIT ${Math.max(1, Math.floor(limit))}`;
  return (prepared(store, sql).all(...params) as RawSymbol[]).map(toSymbolRow);
}

/** Statements per connection and SQL text (a few shapes: kinds and limit vary little); symbol ranking asks for names dozens of times per search. */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(store: IndexStore, sql: string): Database.Statement {
  const db = indexConnection(store);
  let cache = statements.get(db);
  if (!cache || cache.size > 64) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/** Symbols of the given kinds whose simple name equals `name` ignoring ASCII case, by path then line, at most `limit`. */
export function symbolsNamed(store: IndexStore, name: string, kinds: readonly SymbolKind[], limit = 200): SymbolRow[] {
  return querySymbols(store, `s.name = ? COLLATE NOCASE AND s.kind IN (${kinds.map(() => '?').join(',')})`, [name, ...kinds], limit);
}

/** Symbols of the given kinds whose lower-cased simple name contains `fragment` (pass it lower-cased), by path then line, at most `limit`. */
export function symbolsWithNameContaining(store: IndexStore, fragment: string, kinds: readonly SymbolKind[], limit = 200): SymbolRow[] {
  return querySymbols(store, `instr(lower(s.name), ?) > 0 AND s.kind IN (${kinds.map(() => '?').join(',')})`, [fragment, ...kinds], limit);
}
