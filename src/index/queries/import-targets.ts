/**
 * Where the imports of some indexed files lead among a set of paths (a
 * listing, not only the indexed files): what a focused first index reads to
 * add the files its first files import before the rest of the tree is indexed.
 */
import { resolveImport } from '../../parse/index.js';
import type { IndexStore } from '../store/index.js';

/** Per path of `paths` that is indexed: the paths of `among` its imports resolve to (itself left out), in import order. */
export function importTargets(store: IndexStore, paths: readonly string[], among: ReadonlySet<string>): Map<string, string[]> {
  const targets = new Map<string, string[]>();
  for (const path of paths) {
    const file = store.file(path);
    if (!file) continue;
    const found = new Set<string>();
    for (const imp of store.importsOfFile(path)) for (const to of resolveImport(path, file.language, imp, among)) if (to !== path) found.add(to);
    targets.set(path, [...found]);
  }
  return targets;
}
