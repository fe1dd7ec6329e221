/**
 * Function and module candidates from the fused file list (opt-in:
 * `symbolRanking.fileCandidates`). Without it, a function is a candidate only
 * when one of its chunks is among the search's hits in the chunk ranking's top
 * files (or structure points at it from there), so a gold function in a file
 * the fused list ranks high but whose chunks the issue's words did not lift
 * into the global top never becomes a candidate. With it, every function and
 * top-level type of the fused list's first files is a candidate, scored by
 * the same query restricted to those files' chunks: a chunk's restricted score
 * is exactly the score the global search gives it, so the new candidates rank
 * against the hit functions on one scale.
 */
import { chunkRangesOfFile, type IndexStore, type SymbolRow } from '../index/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import { outermostFunction } from './function-neighbours.js';
import { lexicalSearchIn, type LexicalSearchOptions } from './lexical-retriever.js';
import type { ParsedQuery } from './query-parser.js';
import type { ChunkHit, FileCandidate } from './retrieval-types.js';

/** The query's hits among the chunks of the first `count` files (BM25 scores of the global search, best first). */
export function fileRestrictedHits(store: IndexStore, files: readonly FileCandidate[], count: number, query: ParsedQuery, lexical: LexicalSearchOptions): ChunkHit[] {
  if (!(count > 0)) return [];
  const ids = files.slice(0, count).flatMap((f) => chunkRangesOfFile(store, f.path).map((r) => r.id));
  return lexicalSearchIn(store, query, lexical, ids);
}

/** Where candidates go: `kind` is the map (functions or modules), the score is kept when higher than the one there. */
export type KeepCandidate = (kind: 'function' | 'module', path: string, qualifiedName: string, score: number) => void;

/**
 * Adds every outermost function (methods included) and top-level type of the
 * first `count` files as a candidate at `baseOf(path)`, then each restricted
 * hit's unit at its hit score + that base (a nested function counts for its
 * outermost function, a type's chunk for its top-level module, as the hit
 * ranking does). Files are read in list order and symbols in index order.
 */
export function addFileCandidates(
  store: IndexStore,
  files: readonly FileCandidate[],
  count: number,
  hits: readonly ChunkHit[],
  baseOf: (path: string) => number,
  keep: KeepCandidate,
): void {
  const byPath = new Map<string, Map<string, SymbolRow>>();
  for (const file of files.slice(0, count)) {
    if (byPath.has(file.path)) continue;
    const symbols = store.symbolsOf(file.path);
    const byName = new Map<string, SymbolRow>();
    for (const s of symbols) if (!byName.has(s.qualifiedName)) byName.set(s.qualifiedName, s);
    byPath.set(file.path, byName);
    const base = baseOf(file.path);
    for (const s of symbols) {
      if (TYPE_KINDS.has(s.kind)) {
        if (!s.parent) keep('module', file.path, s.qualifiedName, base);
      } else if (outermostFunction(s, byName) === s) keep('function', file.path, s.qualifiedName, base);
    }
  }
  for (const hit of hits) {
    const byName = byPath.get(hit.path);
    const symbol = hit.symbol ? byName?.get(hit.symbol) : undefined;
    if (!byName || !symbol) continue;
    const score = hit.score + baseOf(hit.path);
    if (TYPE_KINDS.has(symbol.kind)) keep('module', hit.path, symbol.qualifiedName.split('.')[0]!, score);
    else keep('function', hit.path, outermostFunction(symbol, byName).qualifiedName, score);
  }
}
