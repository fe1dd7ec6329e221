/**
 * Same-file call neighbours for the scaffold's `invokes ->` / `invoked-by <-`
 * lines. The parse layer is meant to own a call graph (src/parse/call-graph.ts);
 * this pure helper keeps the scaffold independent of its schedule and of any
 * cross-file resolution it may grow, since the paper's scaffold shows same-file
 * neighbours only.
 *
 * Resolution is deliberately conservative: a wrong edge sends an agent to read
 * the wrong function, a missing edge only costs a list_symbols call.
 */
import type { CodeSymbol } from '../parse/index.js';

/** Same-file neighbours of one symbol, by qualified name. */
export interface CallNeighbours {
  /** Callees in order of first call. */
  invokes: string[];
  /** Callers in file order (start line, then qualified name). */
  invokedBy: string[];
}

/**
 * qualifiedName → same-file neighbours, for every symbol (overloads sharing a
 * qualified name are merged). A callee name (`foo`, `self.foo`, `Foo.bar`,
 * `Self::foo`) resolves to the symbols of this file by, in order, the first
 * rule that yields anything:
 *  1. a symbol whose qualified name is the dotted callee or ends with `.callee`
 *     (only for callees qualified by something other than self/this/cls/Self/super,
 *     called "foreign" below);
 *  2. a sibling: same simple name and same parent as the caller;
 *  3. a nested definition of the caller (not for foreign callees);
 *  4. a top-level symbol: a function, or a class being constructed (not for foreign callees);
 *  5. the single symbol of that simple name anywhere in the file (skipped when
 *     ambiguous, and for foreign callees when it is top-level).
 * Self-calls are not edges.
 */
export function sameFileCalls(symbols: readonly CodeSymbol[]): Map<string, CallNeighbours> {
  let graph = graphs.get(symbols);
  if (!graph) graphs.set(symbols, (graph = buildGraph(symbols)));
  return graph;
}

// The index hands out one cached, never-mutated symbol array per file and index
// state, and the top files of an issue hold thousands of symbols: their graph
// is built once per array. Callers copy the lists they keep.
const graphs = new WeakMap<readonly CodeSymbol[], Map<string, CallNeighbours>>();

function buildGraph(symbols: readonly CodeSymbol[]): Map<string, CallNeighbours> {
  const byQualified = new Map<string, CodeSymbol[]>();
  for (const symbol of symbols) {
    const group = byQualified.get(symbol.qualifiedName);
    if (group) group.push(symbol);
    else byQualified.set(symbol.qualifiedName, [symbol]);
  }
  const bySimple = new Map<string, CodeSymbol[]>();
  for (const group of byQualified.values()) {
    const representative = group[0];
    const list = bySimple.get(representative.name);
    if (list) list.push(representative);
    else bySimple.set(representative.name, [representative]);
  }

  const graph = new Map<string, CallNeighbours>();
  const firstLine = new Map<string, number>();
  for (const [qualifiedName, group] of byQualified) {
    graph.set(qualifiedName, { invokes: [], invokedBy: [] });
    firstLine.set(qualifiedName, Math.min(...group.map((s) => s.startLine)));
  }

  for (const [qualifiedName, group] of byQualified) {
    const caller = group[0];
    const invokes = graph.get(qualifiedName)!.invokes;
    for (const callee of group.flatMap((s) => s.callees)) {
      for (const target of resolveCallee(callee, caller, byQualified, bySimple)) {
        if (target === qualifiedName || invokes.includes(target)) continue;
        invokes.push(target);
        graph.get(target)!.invokedBy.push(qualifiedName);
      }
    }
  }
  for (const neighbours of graph.values()) {
    neighbours.invokedBy.sort((a, b) => firstLine.get(a)! - firstLine.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  }
  return graph;
}

const SELF_QUALIFIERS = new Set(['self', 'this', 'cls', 'Self', 'super']);

function resolveCallee(
  callee: string,
  caller: CodeSymbol,
  byQualified: Map<string, CodeSymbol[]>,
  bySimple: Map<string, CodeSymbol[]>,
): string[] {
  const segments = callee.split(/\.|::|->/).filter(Boolean);
  if (segments.length === 0) return [];
  const simple = segments[segments.length - 1];
  const qualifier = segments.slice(0, -1);
  const candidates = bySimple.get(simple) ?? [];
  if (candidates.length === 0) return [];

  const foreign = qualifier.length > 0 && !SELF_QUALIFIERS.has(qualifier[0]);
  if (foreign) {
    const dotted = segments.join('.');
    const exact = [...byQualified.keys()].filter((q) => q === dotted || q.endsWith(`.${dotted}`));
    if (exact.length > 0) return exact.sort();
  }
  const sibling = (s: CodeSymbol) => caller.parent !== null && s.parent === caller.parent;
  const nested = (s: CodeSymbol) => s.parent === caller.qualifiedName;
  const topLevel = (s: CodeSymbol) => s.parent === null;
  // `obj.run()` on an unknown receiver: only a sibling (Go-style receivers such as
  // `s.run()`) is a safe guess; a nested or top-level `run` is not what it calls.
  const tiers = foreign ? [sibling] : [sibling, nested, topLevel];
  for (const tier of tiers) {
    const hit = candidates.filter(tier).map((s) => s.qualifiedName);
    if (hit.length > 0) return hit.sort();
  }
  if (candidates.length !== 1) return [];
  return foreign && candidates[0].parent === null ? [] : [candidates[0].qualifiedName];
}
