/**
 * GLIMPSE: a few non-anchor symbols that show what else the file holds, chosen
 * to be relevant to the query first and varied in kind second, so that one
 * glance tells the agent both "where the retriever looked" and "what kind of
 * file this is" (a class with its helpers, a bag of functions, ...).
 */
import type { CodeSymbol } from '../parse/index.js';
import { TYPE_KINDS } from '../parse/index.js';
import { compareStrings } from './hit-evidence.js';
import { matchQueryTokens } from './query-token-match.js';

/** A chosen glimpse symbol. */
export interface GlimpseCandidate {
  symbol: CodeSymbol;
  hitScore: number | null;
}

interface Scored {
  symbol: CodeSymbol;
  hitScore: number | null;
  overlap: number;
  containsFocus: boolean;
  memberScore: number | null;
}

/**
 * Up to `limit` symbols not in `exclude` (qualified names, normally the anchors),
 * one per qualified name. Candidates are ordered by:
 *  1. own hit score, descending (retrieved symbols first);
 *  2. query-token overlap of the name, descending (matches that lost out as anchors);
 *  3. containing an excluded symbol (an anchor's class) first;
 *  4. best hit score of a member, descending (the class whose methods were retrieved);
 *  5. top-level before nested; 6. longer span first (central definitions);
 *  7. start line, qualified name.
 * Kind diversity: in a first pass at most ceil(limit / 2) symbols are taken from
 * each group (types: class/interface/struct/enum/trait/module; callables:
 * function/method); a second pass fills the remaining slots in the same order, so
 * a file of only functions still yields `limit` symbols. The result keeps the
 * candidate order (most relevant first).
 */
export function selectGlimpse(
  symbols: readonly CodeSymbol[],
  exclude: ReadonlySet<string>,
  normalizedTokens: readonly string[],
  hitScores: ReadonlyMap<string, number>,
  limit: number,
): GlimpseCandidate[] {
  if (limit <= 0) return [];
  const ordered = scoreCandidates(symbols, exclude, normalizedTokens, hitScores).sort(compareScored);
  const perGroupCap = Math.ceil(limit / 2);
  const taken = new Set<Scored>();
  const groupCounts = { type: 0, callable: 0 };
  for (const candidate of ordered) {
    if (taken.size >= limit) break;
    const group = TYPE_KINDS.has(candidate.symbol.kind) ? 'type' : 'callable';
    if (groupCounts[group] >= perGroupCap) continue;
    groupCounts[group]++;
    taken.add(candidate);
  }
  for (const candidate of ordered) {
    if (taken.size >= limit) break;
    taken.add(candidate);
  }
  return ordered.filter((c) => taken.has(c)).map((c) => ({ symbol: c.symbol, hitScore: c.hitScore }));
}

function scoreCandidates(
  symbols: readonly CodeSymbol[],
  exclude: ReadonlySet<string>,
  normalizedTokens: readonly string[],
  hitScores: ReadonlyMap<string, number>,
): Scored[] {
  const parentOf = new Map<string, string | null>();
  for (const symbol of symbols) if (!parentOf.has(symbol.qualifiedName)) parentOf.set(symbol.qualifiedName, symbol.parent);
  const containsFocus = new Set<string>();
  const memberScore = new Map<string, number>();
  for (const symbol of symbols) {
    const score = hitScores.get(symbol.qualifiedName);
    const focus = exclude.has(symbol.qualifiedName);
    if (score === undefined && !focus) continue;
    forEachAncestor(symbol, parentOf, (ancestor) => {
      if (focus) containsFocus.add(ancestor);
      if (score !== undefined && score > (memberScore.get(ancestor) ?? Number.NEGATIVE_INFINITY)) memberScore.set(ancestor, score);
    });
  }
  const seen = new Set<string>();
  const out: Scored[] = [];
  for (const symbol of symbols) {
    const name = symbol.qualifiedName;
    if (exclude.has(name) || seen.has(name)) continue;
    seen.add(name);
    out.push({
      symbol,
      hitScore: hitScores.get(name) ?? null,
      overlap: matchQueryTokens(symbol.name, normalizedTokens).length,
      containsFocus: containsFocus.has(name),
      memberScore: memberScore.get(name) ?? null,
    });
  }
  return out;
}

/** Calls `visit` for each enclosing symbol present in the file (guarded against malformed parent cycles). */
function forEachAncestor(symbol: CodeSymbol, parentOf: ReadonlyMap<string, string | null>, visit: (q: string) => void): void {
  const seen = new Set<string>([symbol.qualifiedName]);
  let parent = symbol.parent;
  while (parent !== null && parentOf.has(parent) && !seen.has(parent)) {
    seen.add(parent);
    visit(parent);
    parent = parentOf.get(parent) ?? null;
  }
}

function compareScored(a: Scored, b: Scored): number {
  return (
    compareNullableDesc(a.hitScore, b.hitScore) ||
    b.overlap - a.overlap ||
    Number(b.containsFocus) - Number(a.containsFocus) ||
    compareNullableDesc(a.memberScore, b.memberScore) ||
    Number(a.symbol.parent !== null) - Number(b.symbol.parent !== null) ||
    b.symbol.endLine - b.symbol.startLine - (a.symbol.endLine - a.symbol.startLine) ||
    a.symbol.startLine - b.symbol.startLine ||
    compareStrings(a.symbol.qualifiedName, b.symbol.qualifiedName)
  );
}

/** Present values before null; larger first. */
function compareNullableDesc(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}
