/**
 * Which names written in a query the repository itself knows. Issues about a
 * tool whose input is code (a type checker, a linter, a compiler) paste the
 * user's program: `class Big`, `def foo`, `PrintableKey(ch)`. Those names get
 * the identifier weight of code evidence, yet the repository defines none of
 * them, and their parts (`big`, `key`, `printable`) drown the words that name
 * the construct at fault. A name counts as known when the repository defines
 * it outside its tests (a class, function or method of that name, ignoring
 * case) or names a file or folder after it (`definition`); in `either`, a
 * name of several parts (`PREFECT_API_URL`, `optimize_graph`) also counts
 * when its whole token occurs in any indexed chunk (a setting, a keyword
 * argument, a constant: used, not defined); `vocabulary` asks only that the
 * whole token occur somewhere (the mildest test: a one-word name always passes).
 */
import { codeTokens, symbolsNamed, termStatistics, type IndexStore } from '../index/index.js';
import type { SymbolKind } from '../parse/index.js';
import { repositoryLayout } from './repository-layout.js';
import type { QueryContext } from './query-parser.js';

/** How a name is judged known. */
export type KnownNameMode = 'definition' | 'vocabulary' | 'either';

/** Options of the unknown-name damping; see {@link SearchOptions.unknownNames}. */
export interface UnknownNameOptions {
  mode: KnownNameMode;
  /** Base weight of an unknown name's tokens (a plain word weighs 1). */
  weight: number;
  /** Also damp the parts of a written file path that matches no indexed file. */
  paths: boolean;
}

/** Settings used for the fields an `unknownNames` option leaves out. */
export const DEFAULT_UNKNOWN_NAMES: UnknownNameOptions = { mode: 'either', weight: 1, paths: false };

const ALL_KINDS: SymbolKind[] = ['class', 'interface', 'struct', 'enum', 'trait', 'type', 'module', 'function', 'method'];

/**
 * A test of names against the repository, memoised for one query. `isTest`
 * tells test files apart: a name only tests define (`class A`, `def foo` in a
 * test case) is the kind of name a user's snippet has.
 */
export function knownNameTest(store: IndexStore, mode: KnownNameMode, isTest: (path: string) => boolean): (name: string) => boolean {
  const memo = new Map<string, boolean>();
  let folders: Set<string> | null = null;
  const defined = (name: string): boolean => {
    const lower = name.toLowerCase();
    if (repositoryLayout(store).stemCounts.has(lower)) return true;
    folders ??= folderNames(store.filePaths());
    if (folders.has(lower)) return true;
    return symbolsNamed(store, name, ALL_KINDS, 50).some((s) => !isTest(s.path));
  };
  // Whether the name's whole token occurs in any chunk; `multiPart` asks it only of names of several parts.
  const used = (name: string, multiPart: boolean): boolean => {
    const tokens = codeTokens(name);
    if (tokens.length === 0 || (multiPart && tokens.length < 2)) return false;
    return (termStatistics(store, [tokens[0]!]).documents.get(tokens[0]!) ?? 0) > 0;
  };
  return (name) => {
    let known = memo.get(name);
    if (known === undefined) {
      known = mode === 'definition' ? defined(name) : mode === 'vocabulary' ? used(name, false) : defined(name) || used(name, true);
      memo.set(name, known);
    }
    return known;
  };
}

/** Lower-cased folder names of some paths (`a/b/c.py` → a, b). */
export function folderNames(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length - 1; i++) out.add(parts[i]!.toLowerCase());
  }
  return out;
}

/**
 * The parse context of {@link UnknownNameOptions}: which names and written
 * paths the repository knows. `matchPaths` resolves a written path to indexed
 * paths (indexed-paths.ts' matchIndexedPaths).
 */
export function queryContext(
  store: IndexStore,
  options: Partial<UnknownNameOptions>,
  isTest: (path: string) => boolean,
  matchPaths: (written: string, indexed: readonly string[]) => string[],
): QueryContext {
  const settings = { ...DEFAULT_UNKNOWN_NAMES, ...options };
  const context: QueryContext = { isKnownName: knownNameTest(store, settings.mode, isTest), unknownNameWeight: settings.weight };
  if (settings.paths) {
    let indexed: readonly string[] | null = null;
    context.isKnownPath = (written) => matchPaths(written, (indexed ??= store.filePaths())).length > 0;
  }
  return context;
}
