/**
 * Paths an issue writes (a traceback frame's absolute path, `pkg/cache.py`, a
 * bare file name) matched to the index's paths: exact, or by the longest
 * common suffix of whole segments. Split from search-repository.ts, which uses
 * it for file-name evidence and known-name context.
 */
import { derivedKey, snapshotOf, type IndexStore } from '../index/index.js';

/** Indexed paths that a written path refers to: exact, or the longest common suffix of two or more segments. */
export function matchIndexedPaths(written: string, indexed: readonly string[]): string[] {
  const clean = written.replace(/\\/g, '/').replace(/^\.\//, '');
  const lookup = pathLookup(indexed);
  if (lookup.paths.has(clean)) return [clean];
  const parts = clean.split('/').filter(Boolean);
  for (let keep = Math.min(parts.length, MAX_SUFFIX_SEGMENTS); keep >= 1; keep--) {
    const suffix = parts.slice(parts.length - keep).join('/');
    // The indexed paths equal to the suffix or ending in '/' + suffix, in their order.
    const matches = lookup.bySuffix.get(suffix) ?? [];
    if (matches.length > 0 && (keep >= 2 || matches.length === 1)) return matches.slice(0, 3);
  }
  return [];
}

/** Longest suffix (in segments) a written path is matched by. */
const MAX_SUFFIX_SEGMENTS = 6;

interface PathLookup {
  paths: Set<string>;
  /** Each path under itself and under every tail after one of its last MAX_SUFFIX_SEGMENTS slashes. */
  bySuffix: Map<string, string[]>;
}

/** Built once per path list: an issue text's paths and frames were each matched by scanning every indexed path up to six times. */
const pathLookups = new WeakMap<readonly string[], PathLookup>();

function pathLookup(indexed: readonly string[]): PathLookup {
  let lookup = pathLookups.get(indexed);
  if (lookup) return lookup;
  lookup = { paths: new Set(indexed), bySuffix: new Map() };
  const add = (key: string, path: string) => {
    const list = lookup!.bySuffix.get(key);
    if (list) {
      if (list[list.length - 1] !== path) list.push(path);
    } else lookup!.bySuffix.set(key, [path]);
  };
  for (const path of indexed) {
    let slash = path.length;
    let slashes = 0;
    for (; slashes < MAX_SUFFIX_SEGMENTS; slashes++) {
      slash = path.lastIndexOf('/', slash - 1);
      if (slash < 0) break;
      add(path.slice(slash + 1), path);
    }
    if (slash < 0) add(path, path);
  }
  pathLookups.set(indexed, lookup);
  return lookup;
}

/**
 * The indexed paths, asked of the store once per index state; the store keeps
 * the same array while no path is added or removed (IndexStore.filePaths), so
 * its lookup is built once for as long as the path set lasts, edits included.
 */
const PATHS = derivedKey<readonly string[]>('indexed paths');

export function indexedPaths(store: IndexStore): readonly string[] {
  return snapshotOf(store).derive(PATHS, () => store.filePaths());
}
