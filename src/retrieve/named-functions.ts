/**
 * Functions an issue names in code form (`validate_parameters`, `Task.map`,
 * `Widget.resize`), matched inside the files already ranked, and through
 * inheritance: `Widget.resize` where `Widget` does not define `resize` means
 * the `resize` a base class of `Widget` defines. BM25 scores a function's
 * name as one field among five; an exact name is stronger evidence than a
 * body that repeats the words.
 */
import { symbolsNamed, type IndexStore, type SymbolRow } from '../index/index.js';
import { languageForPath, TYPE_KINDS, type LanguageId, type SymbolKind } from '../parse/index.js';
import { membersOf, outermostFunction, type FileSymbols } from './function-neighbours.js';

/** Names the query writes, lower-cased, each with its share (0–1] of the query's strongest term weight. */
export interface QueryNames {
  simple: Map<string, number>;
  /** `type.member` of every dotted identifier (its last two parts). */
  qualified: Map<string, number>;
  /** The dotted identifiers' [type, member] as written. */
  pairs: [string, string][];
  /** Names the query writes with capitals (`TimedOut`), lower-cased → as written: they name only what is spelt so. */
  caseBound: Map<string, Set<string>>;
}

const MIN_NAME = 4;

/**
 * The names a function may be matched by: every query term of at least four
 * characters (a whole identifier such as `get_object_attributes` is one term;
 * a plain title word such as `order` is one too) and every `Type.member` the
 * query writes, weighted by the term's weight over the strongest term's, so a
 * backticked or title name counts more than a word of a pasted log. Names
 * of traceback frames (`frameNames`) are left out.
 */
export function queryNames(
  identifiers: readonly string[],
  terms: readonly { token: string; weight: number }[],
  frameNames: readonly string[] = [],
): QueryNames {
  const simple = new Map<string, number>();
  const qualified = new Map<string, number>();
  const pairs: [string, string][] = [];
  const caseBound = new Map<string, Set<string>>();
  for (const identifier of identifiers) {
    const name = identifier.replace(/\(\)$/, '').split('.').pop() ?? '';
    if (/[A-Z]/.test(name)) caseBound.set(name.toLowerCase(), (caseBound.get(name.toLowerCase()) ?? new Set()).add(name));
  }
  // A traceback names every function on the way to the error; the frame boost already weighs the one in its file.
  const framed = new Set(frameNames.map((n) => n.split('.').pop()!.toLowerCase()));
  const strongest = Math.max(1, ...terms.map((t) => t.weight));
  for (const term of terms) if (term.token.length >= MIN_NAME && !framed.has(term.token)) simple.set(term.token, term.weight / strongest);
  for (const identifier of identifiers) {
    const parts = identifier.replace(/\(\)$/, '').split('.').filter(Boolean);
    if (parts.length < 2) continue;
    const type = parts[parts.length - 2]!;
    const name = parts[parts.length - 1]!;
    if (name.length < 3) continue;
    const share = Math.max(simple.get(name.toLowerCase()) ?? 0, simple.get(type.toLowerCase()) ?? 0, 1 / strongest);
    qualified.set(`${type}.${name}`.toLowerCase(), share);
    pairs.push([type, name]);
  }
  return { simple, qualified, pairs, caseBound };
}

/**
 * The share (0–1] of a function the query names by its simple name or
 * `Type.member` tail; 0 when it does not. In a language whose constructor
 * is named after its class (Java, C#, C++: `JsonPointer.JsonPointer`; told by
 * `path`), a constructor is named only by `Type.Type`: a query writing the
 * class names the class, not its constructor, which otherwise outranked the
 * methods the query is about. Elsewhere a method may share its type's name
 * without being a constructor (Go's `Error.Error`).
 */
export function nameShare(qualifiedName: string, names: QueryNames, path?: string): number {
  const parts = qualifiedName.split('.');
  const name = parts[parts.length - 1]!.toLowerCase();
  const pair = parts.length >= 2 ? names.qualified.get(`${parts[parts.length - 2]}.${name}`.toLowerCase()) ?? 0 : 0;
  if (path !== undefined && parts.length >= 2 && parts[parts.length - 1] === parts[parts.length - 2] && namesConstructorsByClass(path)) return pair;
  // `TimedOut` (a state) does not name the method `timedout`.
  const spelt = names.caseBound.get(name);
  if (spelt && !spelt.has(parts[parts.length - 1]!)) return pair;
  return Math.max(pair, names.simple.get(name) ?? 0);
}

/** Languages whose constructors are methods named after their class. */
const CONSTRUCTOR_BY_CLASS_NAME: ReadonlySet<string> = new Set<LanguageId>(['java', 'csharp', 'cpp']);

function namesConstructorsByClass(path: string): boolean {
  return CONSTRUCTOR_BY_CLASS_NAME.has(languageForPath(path) ?? '');
}

/** The functions of the ranked files a query names (outermost units, de-duplicated). */
export function namedFunctionsIn(files: FileSymbols[], names: QueryNames): { path: string; qualifiedName: string }[] {
  if (names.simple.size === 0) return [];
  const out = new Map<string, { path: string; qualifiedName: string }>();
  for (const file of files) {
    for (const s of file.symbols) {
      if (TYPE_KINDS.has(s.kind) || nameShare(s.name, names) === 0) continue;
      const unit = outermostFunction(s, file.byName);
      out.set(`${file.path}:${unit.qualifiedName}`, { path: file.path, qualifiedName: unit.qualifiedName });
    }
  }
  return [...out.values()];
}

const TYPES: SymbolKind[] = [...TYPE_KINDS];

/**
 * For each `Type.member` the query writes where no type of that name defines
 * `member`, the `member` its nearest base classes define (searched by name in
 * the index, up to `depth` levels, at most `limit` types per name): the method
 * `Type` inherits.
 */
export function inheritedMethods(store: IndexStore, names: QueryNames, isTest: (path: string) => boolean, depth = 6, limit = 5): SymbolRow[] {
  const out: SymbolRow[] = [];
  for (const [typeName, member] of names.pairs) {
    let types = symbolsNamed(store, typeName, TYPES, limit).filter((t) => !isTest(t.path));
    const seen = new Set<string>();
    for (let level = 0; level <= depth && types.length > 0; level++) {
      const found: SymbolRow[] = [];
      const bases: string[] = [];
      for (const type of types) {
        const key = `${type.path}:${type.qualifiedName}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const symbols = store.symbolsOf(type.path);
        const own = membersOf({ path: type.path, symbols, byName: new Map() }, type.qualifiedName).filter((s) => s.name.toLowerCase() === member.toLowerCase());
        if (own.length > 0) found.push(...own);
        else bases.push(...type.bases.map((b) => b.split('.').pop()!).filter((b) => b.length > 0));
      }
      // The type itself defines the member: nothing is inherited (the plain name match covers it).
      if (level === 0 && found.length > 0) break;
      if (found.length > 0) {
        out.push(...found);
        break;
      }
      types = [...new Set(bases)].flatMap((b) => symbolsNamed(store, b, TYPES, limit)).filter((t) => !isTest(t.path));
    }
  }
  return out;
}
