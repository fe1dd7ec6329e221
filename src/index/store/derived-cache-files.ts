/**
 * The cache files of index/store/derived-cache.ts, by name only: kept apart from
 * the store so that code which deletes an index database (open-index-database,
 * the team shard cache) can remove them without importing the store.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Deletes every cache file of the index database at `indexPath`
 * (`<index>.*.cache`, and temporary files left by an interrupted write); for
 * whoever deletes or replaces the database itself.
 */
export function removeDerivedCaches(indexPath: string): void {
  const prefix = `${basename(indexPath)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(indexPath));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && (name.endsWith('.cache') || name.endsWith('.tmp'))) rmSync(join(dirname(indexPath), name), { force: true, recursive: true });
  }
}
