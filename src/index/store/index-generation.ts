/**
 * The index state's generation: the cache key of everything a reader derives
 * from the index (postings, term statistics, hit rows). Its own module so the
 * term caches below chunk-queries.ts can use it without importing it.
 */
import type Database from 'better-sqlite3';
import { indexConnection, type IndexStore } from './index-store.js';

const statements = new WeakMap<Database.Database, Database.Statement>();

/**
 * A number that changes whenever any connection commits a write to the index
 * (SQLite's data_version, offset by this connection's own writes via
 * total_changes): the key for caches derived from the index's contents.
 */
export function indexGeneration(store: IndexStore): string {
  const db = indexConnection(store);
  // One statement prepared once per connection: db.pragma() prepared on every call, and a search asks dozens of times.
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = db.prepare('SELECT data_version, total_changes() FROM pragma_data_version').raw()));
  const [version, changes] = statement.get() as [number, number];
  return `${version}:${changes}`;
}
