import { derivedKey, snapshotOf, type IndexStore } from '../index/index.js';
import type { SearchResult } from '../retrieve/index.js';
import { renderInterface, type InterfaceMode, type InterfaceOptions } from './render-interface.js';
import type { ScaffoldFile } from './scaffold-types.js';
import { buildSearchResultJson } from './search-result-json.js';

/** Loads the symbols and importers of the top `parseTop` files: the paper's stage-2 input. */
export function loadScaffoldFiles(store: IndexStore, result: SearchResult, parseTop = 5): Map<string, ScaffoldFile> {
  const files = new Map<string, ScaffoldFile>();
  for (const candidate of result.files.slice(0, parseTop)) {
    files.set(candidate.path, {
      path: candidate.path,
      symbols: store.symbolsOf(candidate.path),
      importedBy: importersOf(store, candidate.path),
      language: store.file(candidate.path)?.language ?? '',
      text: store.fileText(candidate.path),
    });
  }
  return files;
}

/** Importers per store and index state: the top files recur from search to search, and a central one has a thousand importers. */
const IMPORTERS = derivedKey<Map<string, readonly string[]>>('importers');
const MAX_CACHED_IMPORTERS = 1_000;

function importersOf(store: IndexStore, path: string): string[] {
  const cache = snapshotOf(store).derive(IMPORTERS, () => new Map());
  if (cache.size >= MAX_CACHED_IMPORTERS) cache.clear();
  let importers = cache.get(path);
  if (!importers) cache.set(path, (importers = store.importedBy(path)));
  return [...importers];
}

/** A `readLines` callback over the index's stored text (1-based inclusive). */
export function storeLineReader(store: IndexStore): (path: string, start: number, end: number) => string[] {
  const cache = new Map<string, string[]>();
  return (path, start, end) => {
    let lines = cache.get(path);
    if (!lines) {
      lines = (store.fileText(path) ?? '').split('\n');
      cache.set(path, lines);
    }
    return lines.slice(Math.max(0, start - 1), Math.max(0, end));
  };
}

/**
 * Renders a search in any interface. `json` is the one search result shape
 * (search-result-json.ts), pretty-printed with two spaces.
 */
export function renderSearchResult(
  store: IndexStore,
  result: SearchResult,
  format: InterfaceMode,
  options: InterfaceOptions = {},
): string {
  const files = loadScaffoldFiles(store, result, options.parseTop ?? 5);
  if (format !== 'json') return renderInterface(format, result, files, { readLines: storeLineReader(store), ...options });
  return JSON.stringify(buildSearchResultJson(store, result, files, options), null, 2);
}
