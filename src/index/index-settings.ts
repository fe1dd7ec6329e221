import { indexConnection, type IndexStore } from './store/index.js';

/** What shaped an index: stored with it, read by every later command. */
export interface IndexSettings {
  maxFileBytes: number;
  excludeDirectories: string[];
  /** `--include` globs (gitignore syntax, relative to the root); absent when none, so an index built without them keeps its stored row. */
  include?: string[];
  /** `--exclude` globs; absent when none. */
  exclude?: string[];
}

/** `settings` with empty glob lists left out (the stored row is compared as text). */
export function normalizeSettings(settings: IndexSettings): IndexSettings {
  const include = (settings.include ?? []).filter(Boolean);
  const exclude = (settings.exclude ?? []).filter(Boolean);
  return {
    maxFileBytes: settings.maxFileBytes,
    excludeDirectories: settings.excludeDirectories,
    ...(include.length ? { include } : {}),
    ...(exclude.length ? { exclude } : {}),
  };
}

/**
 * The settings an index was built with (its `settings` meta row), or null
 * before its first refresh or when the row cannot be parsed.
 */
export function readSettings(store: IndexStore): IndexSettings | null {
  try {
    const stored = JSON.parse(store.getMeta('settings') ?? 'null') as IndexSettings | null;
    return stored && normalizeSettings(stored);
  } catch {
    return null;
  }
}

/**
 * Who writes `store` now (schema version, SQLite version, Node.js ABI): written
 * to meta by every writer; an index last written by another SQLite, Node.js
 * ABI or schema gets a quick integrity check before it is written again.
 */
export function writtenBy(store: IndexStore): string {
  const sqlite = (indexConnection(store).prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  return `schema ${store.getMeta('schema_version')}, SQLite ${sqlite}, Node.js ABI ${process.versions.modules}`;
}
