/**
 * Same-file call graph: each symbol's calls resolved to the symbols of its own
 * file by the one receiver-aware rule (call-resolution.ts), which find_references
 * applies too: `x.get()` links to this file's `get` only when `x` is the
 * caller's own object, the method's class or a variable declared with it.
 */
import { callsOf, sameFileTargets, type CallScope } from './call-resolution.js';
import type { CodeSymbol } from './symbol-model.js';

/** Edges of one symbol, by qualified name. */
export interface CallEdges {
  invokes: string[];
  invokedBy: string[];
}

/** The file the symbols come from: its language and, when at hand, its text (receiver variables resolve only with it). */
export interface CallGraphFile {
  language: string;
  text: string | null;
}

/**
 * For each symbol (keyed by qualified name; overloads share one entry), the symbols
 * of the same file it calls and is called by. Self-calls (recursion) are kept when
 * the call resolves. Order: `invokes` follows the caller's call order, `invokedBy`
 * follows symbol order; both are de-duplicated. Every symbol has an entry,
 * possibly with empty lists; with `only`, only the symbols named there have one,
 * with the same lists, and only the calls that can leave or reach them are
 * resolved (a scaffold wants two symbols' neighbours in a file of thousands).
 */
export function sameFileCallGraph(symbols: readonly CodeSymbol[], file: CallGraphFile, only?: ReadonlySet<string>): Map<string, CallEdges> {
  const graph = new Map<string, CallEdges>();
  const byName = new Map<string, CodeSymbol[]>();
  // A call reaches a symbol of its own name only (sameFileTargets picks among byName's list), so with `only` a call of
  // any other name, from a symbol not asked for, is not resolved.
  const wantedNames = only ? new Set<string>() : null;
  for (const symbol of symbols) {
    const wanted = !only || only.has(symbol.qualifiedName);
    if (wanted && !graph.has(symbol.qualifiedName)) graph.set(symbol.qualifiedName, { invokes: [], invokedBy: [] });
    if (wanted) wantedNames?.add(symbol.name);
    let list = byName.get(symbol.name);
    if (!list) byName.set(symbol.name, (list = []));
    list.push(symbol);
  }
  const scope: CallScope = { language: file.language, symbols, lines: file.text === null ? null : file.text.split('\n') };

  const invokedBy = new Map<string, Set<string>>();
  for (const caller of symbols) {
    const edges = graph.get(caller.qualifiedName);
    for (const call of callsOf(caller)) {
      if (!edges && !wantedNames!.has(call[0])) continue;
      const candidates = byName.get(call[0]);
      if (!candidates) continue;
      for (const target of sameFileTargets(call, caller, candidates, scope)) {
        if (edges && !edges.invokes.includes(target)) edges.invokes.push(target);
        if (!graph.has(target)) continue;
        let callers = invokedBy.get(target);
        if (!callers) invokedBy.set(target, (callers = new Set()));
        callers.add(caller.qualifiedName);
      }
    }
  }
  for (const [target, callers] of invokedBy) graph.get(target)!.invokedBy.push(...callers);
  return graph;
}
