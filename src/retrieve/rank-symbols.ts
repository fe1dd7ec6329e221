import type { IndexStore, SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import { compareText } from './hit-order.js';
import { callNeighbours, memberCandidates, outermostFunction, type FileSymbols } from './function-neighbours.js';
import { inheritedMethods, nameShare, namedFunctionsIn, queryNames } from './named-functions.js';
import { classCoverage } from './class-match.js';
import { moduleNamedFunctions } from './module-names.js';
import type { ChunkHit, FileCandidate, RankedSymbol } from './retrieval-types.js';
import { addFileCandidates } from './file-candidates.js';
import { applyTermCoverage, DEFAULT_TERM_COVERAGE, type TermCoverageOptions } from './term-coverage.js';

/** How chunk hits become function- and module-level predictions. */
export interface SymbolRankingOptions {
  /**
   * Weight of the file's aggregated score added to each of its chunks' scores.
   * On the first dev split alone 0.25–1 lost; 0.1 with memberWeight is part of the default.
   */
  fileWeight: number;
  /** Only symbols of this many top files are ranked. */
  topFiles: number;
  /** Share of a type header's chunk score given to each of its methods as candidates (function-neighbours.ts); 0 turns it off. */
  memberWeight: number;
  /** Share of a strong function's score given to the functions of the ranked files it calls and that call it; 0 turns it off. */
  callWeight: number;
  /** How many of the best function candidates count as strong for `callWeight`. */
  callSources: number;
  /** A called or calling name resolving to more functions than this in the ranked files is skipped. */
  maxCallResolutions: number;
  /** `file` (default): call neighbours only within the strong function's own file; `ranked`: in every ranked file. */
  callScope: 'ranked' | 'file';
  /**
   * Boost, as a fraction of the best hit's score, of a function of the ranked
   * files whose name (or `Type.member`) the query writes in code form, and of
   * the method a named `Type` inherits (named-functions.ts); 0 turns it off.
   */
  nameWeight: number;
  /**
   * With `nameWeight`, also look for a strong query name (at least half the
   * strongest term's weight) among the inherited methods of the classes hit in
   * the top 3 files (`Abs(x).rewrite()` → `Basic.rewrite`), not only of a
   * `Type.member` the query writes. Off: it cost ~30 ms per query (p50, up to
   * 20 name lookups through 6 levels of bases) and changed no instance at nameWeight 0.4.
   */
  implicitInheritance: boolean;
  /**
   * Length prior: each function's score × (1 + sizeWeight · log10(lines)).
   * BM25 normalises by length; edits land in long functions more often than
   * in short ones. 0 turns it off.
   */
  sizeWeight: number;
  /**
   * `log` (default): × (1 + sizeWeight · log10 lines). `percentile`: × (1 +
   * sizeWeight · p), p the share of the ranked files' functions shorter than
   * this one: long against the repository's own code, whatever its style.
   */
  sizePrior: 'log' | 'percentile';
  /**
   * Multiplier of the functions and modules in test files, on top of the
   * chunk-level test prior: a test shares an issue's words, and its file is a
   * useful pointer, but the edit an issue asks for is rarely in the test. 1 turns it off.
   */
  testFactor: number;
  /**
   * Boost, as a fraction of the best hit's score, of the function containing a
   * line the query links to (`…/blob/<ref>/path.py#L97`; linked-lines.ts); 0 turns it off.
   */
  linkWeight: number;
  /**
   * Boost, as a fraction of the best hit's score, of a method whose class the
   * query names: × the share of the class name's distinctive parts that are
   * query terms (class-match.ts). Tells apart same-named methods of one file's classes; 0 turns it off.
   */
  classWeight: number;
  /**
   * Boost, as a fraction of the best hit's score, of a function the query names
   * by its module (module-names.ts): a ranked file's top-level function named
   * like the file (`order.py:order`) when the query has that name as a term (a
   * module's eponymous function is its entry point), and the top-level function
   * `b` of a file named `a` when the title writes `a b` or `a.b` (looked up in
   * every indexed file; two words name it, so it gains twice the weight). 0 turns it off.
   */
  eponymWeight: number;
  /** With `eponymWeight`, also the title's `module function` pairs (false: eponyms only, as before this rule existed). */
  titleModulePairs: boolean;
  /** Within-file term coverage of the best fused files' functions (term-coverage.ts); missing fields take its defaults (off). */
  coverage?: Partial<TermCoverageOptions>;
  /**
   * Every function and top-level type of this many files of the fused file
   * list joins the candidates, scored by the query restricted to those files'
   * chunks (file-candidates.ts; the search passes those hits as
   * `SymbolQuery.fileHits`). 0 (default): candidates come from the chunk hits
   * of the chunk ranking's `topFiles` files and the structure around them only.
   */
  fileCandidates: number;
}

/**
 * Defaults. memberWeight 0.5 + fileWeight 0.1 + nameWeight 0.4 together, on the
 * 12 dev repositories (135 instances): function Acc@5 0.519→0.548, +0.030
 * [0.007, 0.059], 4 won / 0 lost, no repository lower; leave-one-repository-out
 * chose settings with all three on 11 of 12 folds. linkWeight 1 + classWeight
 * 0.2 + eponymWeight 0.5 + same-file callees of the best function at 0.5, on
 * top: 0.548→0.593, +0.044 [0.015, 0.081], 6 won / 0 lost, no repository lower.
 * The title's `module function` pairs with the eponym: 0.593→0.600,
 * 1 won / 0 lost, which lets leave-one-repository-out confirm the eponym
 * (docs/retrieval.md, "Function level").
 */
export const DEFAULT_SYMBOL_RANKING: SymbolRankingOptions = {
  fileWeight: 0.1, topFiles: 10, memberWeight: 0.5, callWeight: 0.5, callSources: 1, maxCallResolutions: 3, callScope: 'file', nameWeight: 0.4,
  implicitInheritance: false, sizeWeight: 0, sizePrior: 'log', testFactor: 1, linkWeight: 1, classWeight: 0.2, eponymWeight: 0.5, titleModulePairs: true, fileCandidates: 0,
};

/** What the query says that symbol ranking can use (the query's identifiers in code form). */
export interface SymbolQuery {
  identifiers: readonly string[];
  /** The query's weighted terms (lower-cased tokens). */
  terms: readonly { token: string; weight: number }[];
  /** Function names of the query's traceback frames. */
  frameNames: readonly string[];
  /** Tells test files apart (inherited methods are looked up outside tests only). */
  isTest: (path: string) => boolean;
  /** Functions containing the lines the query links to (linked-lines.ts). */
  linked?: readonly SymbolRow[];
  /** The query's title for module naming (module-names.ts' queryTitle of the parse). */
  title?: string;
  /** The fused file list, best first (term coverage and `fileCandidates` read its first files); the ranked files when absent. */
  files?: readonly FileCandidate[];
  /** With `fileCandidates`: the query's hits among the chunks of the fused list's first files (file-candidates.ts). */
  fileHits?: readonly ChunkHit[];
}

/**
 * Ranks functions (`Class.method`, `function`) and modules (`Class`,
 * `function`) from the hits of the top files. A nested function counts for the
 * outermost function or method that contains it, because that is the unit an
 * edit is reported against. Optional structure (see {@link SymbolRankingOptions}):
 * methods of matched classes, call neighbours of strong functions, and
 * functions the query names, are candidates ranked against the hit functions.
 */
export function rankSymbols(
  store: IndexStore,
  files: FileCandidate[],
  options: SymbolRankingOptions = DEFAULT_SYMBOL_RANKING,
  query?: SymbolQuery,
): { functions: RankedSymbol[]; modules: RankedSymbol[] } {
  const functionScores = new Map<string, RankedSymbol>();
  const moduleScores = new Map<string, RankedSymbol>();
  const keep = (map: Map<string, RankedSymbol>, path: string, qualifiedName: string, score: number) => {
    const key = `${path}:${qualifiedName}`;
    const previous = map.get(key);
    if (!previous || previous.score < score) map.set(key, { path, qualifiedName, score });
  };
  const ranked: FileSymbols[] = [];
  const fileScore = new Map<string, number>();
  const typeHits: { file: FileSymbols; typeName: string | null; score: number }[] = [];
  const unitOf = new Map<string, { file: FileSymbols; symbol: SymbolRow }>();
  let best = 0;
  for (const file of files.slice(0, options.topFiles)) {
    const symbols = store.symbolsOf(file.path);
    const byName = new Map<string, SymbolRow>();
    for (const s of symbols) if (!byName.has(s.qualifiedName)) byName.set(s.qualifiedName, s);
    const fileSymbols: FileSymbols = { path: file.path, symbols, byName };
    ranked.push(fileSymbols);
    fileScore.set(file.path, file.score);
    for (const hit of file.hits) {
      best = Math.max(best, hit.score);
      if (!hit.symbol) {
        // A file's remainder chunk: its functions are candidates (see memberCandidates).
        if (hit.kind === 'file') typeHits.push({ file: fileSymbols, typeName: null, score: hit.score });
        continue;
      }
      const score = hit.score + options.fileWeight * file.score;
      const symbol = byName.get(hit.symbol);
      if (!symbol) continue;
      if (TYPE_KINDS.has(symbol.kind)) {
        keep(moduleScores, file.path, topLevelName(symbol.qualifiedName), score);
        typeHits.push({ file: fileSymbols, typeName: symbol.qualifiedName, score: hit.score });
        continue;
      }
      const unit = outermostFunction(symbol, byName);
      keep(functionScores, file.path, unit.qualifiedName, score);
      unitOf.set(`${file.path}:${unit.qualifiedName}`, { file: fileSymbols, symbol: unit });
    }
  }
  // The query's names are read once: they give both candidates and the name boost.
  const names = options.nameWeight > 0 && query ? queryNames(query.identifiers, query.terms, query.frameNames) : undefined;
  const extra = structuralCandidates(store, ranked, functionScores, unitOf, typeHits, options, query, names);
  for (const candidate of extra) {
    const score = candidate.score + options.fileWeight * (fileScore.get(candidate.path) ?? 0);
    keep(functionScores, candidate.path, candidate.qualifiedName, score);
  }
  if (options.fileCandidates > 0 && query) {
    // The base of a fused file: its chunk-aggregation score where it has one, as for the ranked files.
    const chunkScore = new Map<string, number>();
    for (const file of files) if (!chunkScore.has(file.path)) chunkScore.set(file.path, file.score);
    addFileCandidates(store, query.files ?? files, options.fileCandidates, query.fileHits ?? [], (path) => options.fileWeight * (chunkScore.get(path) ?? 0), (kind, path, name, score) =>
      keep(kind === 'function' ? functionScores : moduleScores, path, name, score),
    );
  }
  if (options.sizeWeight > 0) {
    const byPath = new Map(ranked.map((f) => [f.path, f.byName]));
    const lines = (s: SymbolRow) => 1 + s.endLine - s.startLine;
    // Lengths of the ranked files' outermost functions, ascending (the percentile prior's reference).
    const lengths = ranked.flatMap((f) => f.symbols.filter((s) => !TYPE_KINDS.has(s.kind) && outermostFunction(s, f.byName) === s).map(lines)).sort((a, b) => a - b);
    const below = (n: number) => {
      let lo = 0;
      let hi = lengths.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lengths[mid]! < n) lo = mid + 1;
        else hi = mid;
      }
      return lengths.length > 0 ? lo / lengths.length : 0;
    };
    for (const [key, f] of functionScores) {
      const symbol = byPath.get(f.path)?.get(f.qualifiedName);
      if (!symbol) continue;
      const prior = options.sizePrior === 'percentile' ? below(lines(symbol)) : Math.log10(lines(symbol));
      functionScores.set(key, { ...f, score: f.score * (1 + options.sizeWeight * prior) });
    }
  }
  if (names) {
    for (const [key, ranked] of functionScores) {
      const share = nameShare(ranked.qualifiedName, names, ranked.path);
      if (share > 0) functionScores.set(key, { ...ranked, score: ranked.score + options.nameWeight * share * best });
    }
  }
  if (options.linkWeight > 0 && query?.linked) {
    for (const s of query.linked) {
      keep(functionScores, s.path, s.qualifiedName, options.fileWeight * (fileScore.get(s.path) ?? 0));
      const key = `${s.path}:${s.qualifiedName}`;
      const f = functionScores.get(key)!;
      functionScores.set(key, { ...f, score: f.score + options.linkWeight * best });
    }
  }
  if (options.eponymWeight > 0 && query) {
    for (const f of moduleNamedFunctions(store, ranked, { ...query, title: options.titleModulePairs ? query.title : undefined })) {
      keep(functionScores, f.path, f.qualifiedName, options.fileWeight * (fileScore.get(f.path) ?? 0));
      const key = `${f.path}:${f.qualifiedName}`;
      functionScores.set(key, { ...functionScores.get(key)!, score: functionScores.get(key)!.score + options.eponymWeight * f.words * best });
    }
  }
  if (options.classWeight > 0 && query) orderSiblingsByClass(store, functionScores, query, options.classWeight * best);
  if (options.coverage && query) {
    const baseOf = (path: string) => options.fileWeight * (fileScore.get(path) ?? 0);
    applyTermCoverage(store, functionScores, query.files ?? files, query.terms, best, baseOf, { ...DEFAULT_TERM_COVERAGE, ...options.coverage });
  }
  if (options.testFactor !== 1 && query) {
    for (const map of [functionScores, moduleScores]) {
      for (const [key, f] of map) if (query.isTest(f.path)) map.set(key, { ...f, score: f.score * options.testFactor });
    }
  }
  for (const f of functionScores.values()) keep(moduleScores, f.path, topLevelName(f.qualifiedName), f.score);
  return { functions: [...functionScores.values()].sort(compareRanked), modules: [...moduleScores.values()].sort(compareRanked) };
}

/** Best first; equal scores by path, then name: never by the order hits arrived in. */
function compareRanked(a: RankedSymbol, b: RankedSymbol): number {
  return b.score - a.score || compareText(a.path, b.path) || compareText(a.qualifiedName, b.qualifiedName);
}

/** Candidates from structure (members, call neighbours, named and inherited functions), not yet file-weighted. */
function structuralCandidates(
  store: IndexStore,
  ranked: FileSymbols[],
  functionScores: Map<string, RankedSymbol>,
  unitOf: Map<string, { file: FileSymbols; symbol: SymbolRow }>,
  typeHits: { file: FileSymbols; typeName: string | null; score: number }[],
  options: SymbolRankingOptions,
  query: SymbolQuery | undefined,
  names: ReturnType<typeof queryNames> | undefined,
): RankedSymbol[] {
  const out: RankedSymbol[] = [];
  for (const { file, typeName, score } of typeHits) out.push(...memberCandidates(file, typeName, score, options.memberWeight));
  if (options.callWeight > 0) {
    const strong = [...functionScores.values()].sort(compareRanked);
    for (const source of strong.slice(0, options.callSources)) {
      const unit = unitOf.get(`${source.path}:${source.qualifiedName}`);
      if (!unit) continue;
      const scope = options.callScope === 'file' ? [unit.file] : ranked;
      out.push(...callNeighbours(unit.symbol, unit.file, source.score, scope, { weight: options.callWeight, maxResolutions: options.maxCallResolutions }));
    }
  }
  if (names && query) {
    // Scored 0 here: the name boost, added to every named function alike, ranks them.
    for (const named of namedFunctionsIn(ranked, names)) out.push({ ...named, score: 0 });
    const implicit: [string, string][] = [];
    if (options.implicitInheritance) {
      // A strong name called on a class the hits found (`Abs(x).rewrite(...)`) may be a method that class inherits.
      const top = new Set(ranked.slice(0, 3));
      const hitTypes = new Set(typeHits.filter((t) => t.typeName !== null && top.has(t.file)).map((t) => t.typeName!.split('.').pop()!));
      for (const { file, symbol } of unitOf.values()) if (top.has(file) && symbol.parent) hitTypes.add(symbol.parent.split('.').pop()!);
      const strongNames = [...names.simple].filter(([, share]) => share >= 0.5).map(([name]) => name);
      for (const type of [...hitTypes].sort()) for (const name of strongNames) if (implicit.length < 20) implicit.push([type, name]);
    }
    const pairs = { ...names, pairs: [...names.pairs, ...implicit] };
    for (const s of inheritedMethods(store, pairs, query.isTest)) out.push({ path: s.path, qualifiedName: s.qualifiedName, score: 0 });
  }
  return out;
}

/**
 * Orders siblings — methods of one file that share their name, the choice
 * BM25 over their bodies does not settle — by score + `boost` × the share of
 * their class's name the query writes (class-match.ts), then gives them back
 * the group's own scores in that order: the query's class wins among its
 * siblings, and a large family (`accept` in every node class) takes no slot
 * from other functions.
 */
function orderSiblingsByClass(store: IndexStore, functionScores: Map<string, RankedSymbol>, query: SymbolQuery, boost: number): void {
  const terms = new Set(query.terms.map((t) => t.token));
  const siblings = new Map<string, string[]>();
  for (const [key, f] of functionScores) {
    const dot = f.qualifiedName.lastIndexOf('.');
    if (dot < 0) continue;
    const group = `${f.path}:${f.qualifiedName.slice(dot + 1)}`;
    siblings.set(group, [...(siblings.get(group) ?? []), key]);
  }
  const coverageOf = new Map<string, Map<string, number>>();
  const shareOf = (f: RankedSymbol) => {
    let coverage = coverageOf.get(f.path);
    if (!coverage) coverageOf.set(f.path, (coverage = classCoverage(store.symbolsOf(f.path), terms)));
    return coverage.get(f.qualifiedName.slice(0, f.qualifiedName.lastIndexOf('.'))) ?? 0;
  };
  for (const keys of siblings.values()) {
    if (keys.length < 2) continue;
    const group = keys.map((key) => functionScores.get(key)!);
    const scores = group.map((f) => f.score).sort((a, b) => b - a);
    const adjusted = group.map((f) => ({ f, key: f.score + boost * shareOf(f) }));
    adjusted.sort((a, b) => b.key - a.key || compareRanked(a.f, b.f));
    adjusted.forEach(({ f }, i) => functionScores.set(`${f.path}:${f.qualifiedName}`, { ...f, score: scores[i]! }));
  }
}

function topLevelName(qualifiedName: string): string {
  return qualifiedName.split('.')[0];
}
