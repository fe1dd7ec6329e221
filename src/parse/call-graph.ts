/**
 * Same-file call graph: resolves the callee names recorded on each symbol to the
 * symbols of the same file, by simple name only (no types, no imports).
 */
import { TYPE_KINDS, type CodeSymbol } from './symbol-model.js';

/** Edges of one symbol, by qualified name. */
export interface CallEdges {
  invokes: string[];
  invokedBy: string[];
}

/**
 * The type a symbol works inside: the nearest enclosing type of the file (a closure in
 * a method belongs to the method's class), or null at top level.
 */
function owningType(symbol: CodeSymbol, byQualified: ReadonlyMap<string, CodeSymbol>): string | null {
  for (let parent = symbol.parent; parent !== null; ) {
    const enclosing = byQualified.get(parent);
    if (!enclosing) return null;
    if (TYPE_KINDS.has(enclosing.kind)) return parent;
    parent = enclosing.parent;
  }
  return null;
}

/**
 * For each symbol (keyed by qualified name; overloads share one entry), the symbols
 * of the same file it calls and is called by. A callee name resolves to the symbols
 * with that simple name, preferring, in order: methods/members of the caller's own
 * type, top-level functions, then every other candidate. Self-calls (recursion) are
 * kept. Order: `invokes` follows the caller's callee order, `invokedBy` follows symbol
 * order; both are de-duplicated. Every symbol has an entry, possibly with empty lists.
 */
export function sameFileCallGraph(symbols: readonly CodeSymbol[]): Map<string, CallEdges> {
  const graph = new Map<string, CallEdges>();
  const byName = new Map<string, CodeSymbol[]>();
  const byQualified = new Map<string, CodeSymbol>();
  for (const symbol of symbols) {
    if (!graph.has(symbol.qualifiedName)) graph.set(symbol.qualifiedName, { invokes: [], invokedBy: [] });
    let list = byName.get(symbol.name);
    if (!list) byName.set(symbol.name, (list = []));
    list.push(symbol);
    if (!byQualified.has(symbol.qualifiedName)) byQualified.set(symbol.qualifiedName, symbol);
  }

  const resolve = (caller: CodeSymbol, name: string): string[] => {
    const candidates = byName.get(name);
    if (!candidates) return [];
    const callerType = TYPE_KINDS.has(caller.kind) ? caller.qualifiedName : owningType(caller, byQualified);
    if (callerType !== null) {
      const sameType = candidates.filter((c) => c.parent === callerType);
      if (sameType.length > 0) return sameType.map((c) => c.qualifiedName);
    }
    const topLevel = candidates.filter((c) => c.parent === null && c.kind === 'function');
    if (topLevel.length > 0) return topLevel.map((c) => c.qualifiedName);
    return candidates.map((c) => c.qualifiedName);
  };

  const invokedBy = new Map<string, Set<string>>();
  for (const caller of symbols) {
    const edges = graph.get(caller.qualifiedName)!;
    for (const name of caller.callees) {
      for (const target of resolve(caller, name)) {
        if (!edges.invokes.includes(target)) edges.invokes.push(target);
        let callers = invokedBy.get(target);
        if (!callers) invokedBy.set(target, (callers = new Set()));
        callers.add(caller.qualifiedName);
      }
    }
  }
  for (const [target, callers] of invokedBy) graph.get(target)!.invokedBy.push(...callers);
  return graph;
}
