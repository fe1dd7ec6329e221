/**
 * Functions that BM25 did not rank but the structure of the top files points
 * at: the methods of a class whose header matched, and the functions a strong
 * hit calls or is called by. An issue names what it sees (a class, the entry
 * point it called); the fix is often one step away from it in the code. Only
 * the symbols of the files already ranked are read, so the work does not grow
 * with the repository.
 */
import type { SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';

/** The symbols of one ranked file, by qualified name (first definition wins, as in rank-symbols.ts). */
export interface FileSymbols {
  path: string;
  symbols: SymbolRow[];
  byName: Map<string, SymbolRow>;
}

/** A scored function candidate: `qualifiedName` is already the outermost function (the unit an edit is reported against). */
export interface NeighbourCandidate {
  path: string;
  qualifiedName: string;
  score: number;
}

/** The outermost function or method containing `symbol` (nested functions count for it). */
export function outermostFunction(symbol: SymbolRow, byName: Map<string, SymbolRow>): SymbolRow {
  let unit = symbol;
  let parent = symbol.parent ? byName.get(symbol.parent) : undefined;
  while (parent) {
    if (!TYPE_KINDS.has(parent.kind)) unit = parent;
    parent = parent.parent ? byName.get(parent.parent) : undefined;
  }
  return unit;
}

/** The methods directly inside type `typeName` of a file (not nested functions, not nested types). */
export function membersOf(file: FileSymbols, typeName: string): SymbolRow[] {
  return file.symbols.filter((s) => s.parent === typeName && !TYPE_KINDS.has(s.kind));
}

/**
 * The methods of a type whose header chunk scored `score` (or, for a file's
 * remainder chunk, `typeName` null, every outermost function of the file)
 * become candidates at up to `weight × score`. Nothing says which of them is
 * meant, so the longer ones come first: an edit is likelier to land in a long
 * function than in a short one (score × log(1+lines) / log(1+longest)).
 */
export function memberCandidates(file: FileSymbols, typeName: string | null, score: number, weight: number): NeighbourCandidate[] {
  if (weight === 0) return [];
  const members = typeName === null
    ? file.symbols.filter((s) => !TYPE_KINDS.has(s.kind) && outermostFunction(s, file.byName) === s)
    : membersOf(file, typeName);
  if (members.length === 0) return [];
  const size = (s: SymbolRow) => Math.log(2 + s.endLine - s.startLine);
  const longest = Math.max(...members.map(size));
  return members.map((s) => ({ path: file.path, qualifiedName: s.qualifiedName, score: (weight * score * size(s)) / longest }));
}

/** Options of {@link callNeighbours}. */
export interface CallNeighbourOptions {
  /** Share of the strong hit's score a neighbour gets. */
  weight: number;
  /** A called or calling name with more resolutions than this in the ranked files says nothing specific; it is skipped. */
  maxResolutions: number;
}

/**
 * The functions of the ranked files that `source` calls, and those that call
 * it, each at `weight × score`. A callee is resolved by its simple name (what
 * the index stores), preferring the source's own class, then its own file,
 * then the other ranked files. Short or dunder names (`get`, `__init__`) are
 * too common to point anywhere and are skipped as callers' targets.
 */
export function callNeighbours(source: SymbolRow, sourceFile: FileSymbols, score: number, files: FileSymbols[], options: CallNeighbourOptions): NeighbourCandidate[] {
  if (options.weight === 0) return [];
  const out: NeighbourCandidate[] = [];
  const add = (file: FileSymbols, symbol: SymbolRow) => {
    const unit = outermostFunction(symbol, file.byName);
    if (unit.path === source.path && unit.qualifiedName === source.qualifiedName) return;
    out.push({ path: file.path, qualifiedName: unit.qualifiedName, score: options.weight * score });
  };
  for (const callee of new Set(source.callees)) {
    if (callee.length < 3) continue;
    const named = (file: FileSymbols) => file.symbols.filter((s) => s.name === callee && !TYPE_KINDS.has(s.kind));
    const own = named(sourceFile);
    const sameClass = own.filter((s) => s.parent === source.parent);
    const tiers: [FileSymbols, SymbolRow[]][][] = [
      [[sourceFile, sameClass]],
      [[sourceFile, own]],
      files.filter((f) => f.path !== sourceFile.path).map((f) => [f, named(f)] as [FileSymbols, SymbolRow[]]),
    ];
    for (const tier of tiers) {
      const count = tier.reduce((n, [, list]) => n + list.length, 0);
      if (count === 0) continue;
      if (count <= options.maxResolutions) for (const [file, list] of tier) for (const s of list) add(file, s);
      break;
    }
  }
  if (source.name.length >= 4 && !/^__.*__$/.test(source.name)) {
    const callers: [FileSymbols, SymbolRow][] = [];
    for (const file of files) for (const s of file.symbols) if (!TYPE_KINDS.has(s.kind) && s.callees.includes(source.name)) callers.push([file, s]);
    if (callers.length <= options.maxResolutions) for (const [file, s] of callers) add(file, s);
  }
  return out;
}
