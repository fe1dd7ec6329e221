/**
 * ANCHORS: the few symbols of a file whose names carry the query's words, i.e.
 * the agent's most likely landing points inside the file.
 */
import type { CodeSymbol, SymbolKind } from '../parse/index.js';
import { compareStrings } from './hit-evidence.js';
import { matchQueryTokens } from './query-token-match.js';

/** A symbol that matched at least one query token. */
export interface AnchorCandidate {
  symbol: CodeSymbol;
  matchedTokens: string[];
  /** Best hit score of this symbol's chunk, or null when it was not retrieved. */
  hitScore: number | null;
}

/**
 * Callables first: a localisation target is usually a function or method, and a
 * class whose name matches is still reachable as the anchor's parent. Type-like
 * kinds next, modules (which span whole files) last.
 */
const KIND_PRIORITY: Record<SymbolKind, number> = {
  method: 0,
  function: 0,
  class: 1,
  interface: 1,
  struct: 1,
  enum: 1,
  trait: 1,
  type: 1,
  module: 2,
  section: 3,
};

/** Sort priority of a kind: lower is preferred (callables 0, types 1, modules 2, prose sections 3). */
export function kindPriority(kind: SymbolKind): number {
  return KIND_PRIORITY[kind];
}

/**
 * Orders anchor candidates, best first:
 *  1. overlap — number of distinct matching query tokens — descending;
 *  2. kind priority (method/function, then type kinds, then module);
 *  3. coincidence with a retrieval hit of this file: hit symbols first, higher
 *     hit score first (the paper's "prefer hits on ties": the retriever already
 *     read the body, the name match alone did not);
 *  4. span length ascending: a shorter symbol is a more specific, cheaper to
 *     read target, and containers are still reachable through the call lines;
 *  5. start line, then qualified name (total order, so output is deterministic).
 */
export function compareAnchorCandidates(a: AnchorCandidate, b: AnchorCandidate): number {
  return (
    b.matchedTokens.length - a.matchedTokens.length ||
    kindPriority(a.symbol.kind) - kindPriority(b.symbol.kind) ||
    compareHitScores(a.hitScore, b.hitScore) ||
    span(a.symbol) - span(b.symbol) ||
    a.symbol.startLine - b.symbol.startLine ||
    compareStrings(a.symbol.qualifiedName, b.symbol.qualifiedName)
  );
}

/**
 * All symbols of the file whose simple name matches a query token, ordered by
 * compareAnchorCandidates, one per qualified name (for overloads the best-ranked
 * one). `normalizedTokens` must come from normalizeQueryTokens; `hitScores`
 * maps qualified names to their best hit score in this file.
 */
export function rankAnchorCandidates(
  symbols: readonly CodeSymbol[],
  normalizedTokens: readonly string[],
  hitScores: ReadonlyMap<string, number>,
): AnchorCandidate[] {
  const candidates: AnchorCandidate[] = [];
  for (const symbol of symbols) {
    const matchedTokens = matchQueryTokens(symbol.name, normalizedTokens);
    if (matchedTokens.length === 0) continue;
    candidates.push({ symbol, matchedTokens, hitScore: hitScores.get(symbol.qualifiedName) ?? null });
  }
  candidates.sort(compareAnchorCandidates);
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.symbol.qualifiedName) && seen.add(c.symbol.qualifiedName));
}

/** The top `limit` (default 2) anchor candidates of a file. */
export function selectAnchors(
  symbols: readonly CodeSymbol[],
  normalizedTokens: readonly string[],
  hitScores: ReadonlyMap<string, number>,
  limit = 2,
): AnchorCandidate[] {
  return rankAnchorCandidates(symbols, normalizedTokens, hitScores).slice(0, Math.max(0, limit));
}

function span(symbol: CodeSymbol): number {
  return symbol.endLine - symbol.startLine;
}

/** Retrieved before not retrieved; among retrieved, higher score first. */
function compareHitScores(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}
