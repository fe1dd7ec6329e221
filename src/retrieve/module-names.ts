/**
 * Functions an issue names by their module. A module's top-level function
 * named like the module (`order.py:order`, `deploy.py:deploy`) is its entry
 * point, named whenever the module is; and a title that writes a module and
 * then a function (`prefect deployment build` → the command `build` of
 * `cli/deployment.py`; `saving_lib.load_model`) names that function. A word
 * followed by another is weak evidence on its own; a file named by the first
 * word that defines a top-level function named by the second is specific, so
 * that pair is looked up among every indexed file, not only the ranked ones.
 */
import type { IndexStore } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import type { FileSymbols } from './function-neighbours.js';
import { fileStem, repositoryLayout } from './repository-layout.js';

/** Most word pairs read from one title. */
const MAX_PAIRS = 24;
/** Files of one name read for a title pair (`utils`, `__init__` name too many to read). */
const MAX_MODULE_FILES = 20;
/** A pair resolving to more definitions than this says nothing specific. */
const MAX_DEFINITIONS = 2;

/** What the query says that module naming reads. */
export interface ModuleNameQuery {
  /** The query's weighted terms (lower-cased tokens). */
  terms: readonly { token: string }[];
  /** Function names of the query's traceback frames: a traceback names every module on its way. */
  frameNames: readonly string[];
  /** The query's title (see {@link queryTitle}); absent or '' for none. */
  title?: string;
  isTest: (path: string) => boolean;
}

/** A function named by its module. */
export interface ModuleNamedFunction {
  path: string;
  qualifiedName: string;
  /** How many query words name it: 1 for an eponym (the module's name is the function's), 2 for a title pair. */
  words: number;
}

/**
 * The title module naming reads, from the query's parse (ParsedQuery's
 * `title` and boilerplate-stripped `text`): a multi-line query's first line,
 * and a one-line query (a request, not an issue) is its own title.
 */
export function queryTitle(parsed: { title: string; text: string }): string {
  return parsed.title || (parsed.text.includes('\n') ? '' : parsed.text);
}

/** Consecutive word pairs of `title` (`a b`, `a.b`, `a/b`, `a: b`), lower-cased, each word at least 3 characters. */
export function titleWordPairs(title: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const m of title.matchAll(/([A-Za-z_][A-Za-z0-9_]{2,})(?=[\s./:]+([A-Za-z_][A-Za-z0-9_]{2,}))/g)) {
    if (pairs.length >= MAX_PAIRS) break;
    const a = m[1]!.toLowerCase();
    const b = m[2]!.toLowerCase();
    if (a !== b) pairs.push([a, b]);
  }
  return pairs;
}

/**
 * The functions the query names by their module: the eponymous top-level
 * function of each ranked file whose name is a query term (not only a
 * traceback frame's), and the top-level function `b` of a file named `a`
 * for each title pair `a b` (outside tests; at most two such definitions).
 */
export function moduleNamedFunctions(store: IndexStore, ranked: readonly FileSymbols[], query: ModuleNameQuery): ModuleNamedFunction[] {
  const out = new Map<string, ModuleNamedFunction>();
  const add = (path: string, qualifiedName: string, words: number) => {
    const key = `${path}:${qualifiedName}`;
    if ((out.get(key)?.words ?? 0) < words) out.set(key, { path, qualifiedName, words });
  };
  const framed = new Set(query.frameNames.map((n) => n.split('.').pop()!.toLowerCase()));
  const terms = new Set(query.terms.map((t) => t.token).filter((t) => !framed.has(t)));
  for (const file of ranked) {
    const stem = fileStem(file.path);
    if (stem.length < 3 || !terms.has(stem)) continue;
    const eponym = file.symbols.find((s) => !TYPE_KINDS.has(s.kind) && !s.parent && s.name.toLowerCase() === stem);
    if (eponym) add(file.path, eponym.qualifiedName, 1);
  }
  if (query.title) {
    const layout = repositoryLayout(store);
    for (const [module, name] of titleWordPairs(query.title)) {
      const paths = (layout.pathsByStem.get(module) ?? []).filter((p) => !query.isTest(p));
      if (paths.length > MAX_MODULE_FILES) continue;
      const found = paths.flatMap((path) => store.symbolsOf(path).filter((s) => !TYPE_KINDS.has(s.kind) && !s.parent && s.name.toLowerCase() === name));
      if (found.length > 0 && found.length <= MAX_DEFINITIONS) for (const fn of found) add(fn.path, fn.qualifiedName, 2);
    }
  }
  return [...out.values()];
}
