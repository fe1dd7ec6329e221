/**
 * Same-file call neighbours for the scaffold's `invokes ->` / `invoked-by <-`
 * lines: the parse layer's call graph (one receiver-aware resolution, shared
 * with the web view and find_references) without self-calls, callers in file
 * order. A call whose receiver does not resolve to the definition's class
 * (`_cv_app.get()` beside a method `get`) is no edge: a wrong edge sends an
 * agent to read the wrong function, a missing one only costs a list_symbols call.
 */
import { sameFileCallGraph, type CallGraphFile, type CodeSymbol } from '../parse/index.js';

/** Same-file neighbours of one symbol, by qualified name. */
export interface CallNeighbours {
  /** Callees in order of first call. */
  invokes: string[];
  /** Callers in file order (start line, then qualified name). */
  invokedBy: string[];
}

/**
 * qualifiedName → same-file neighbours, for every symbol (overloads sharing a
 * qualified name are merged), or with `only` for those symbols alone (the
 * calls that cannot leave or reach them are not resolved: a scaffold shows two
 * anchors' neighbours in a file of thousands of symbols). `file` gives the
 * language and text the receivers are resolved with; without it no plain call
 * reaches a method and no receiver variable resolves.
 */
export function sameFileCalls(
  symbols: readonly CodeSymbol[],
  file: CallGraphFile = { language: '', text: null },
  only?: ReadonlySet<string>,
): Map<string, CallNeighbours> {
  const firstLine = new Map<string, number>();
  for (const s of symbols) firstLine.set(s.qualifiedName, Math.min(firstLine.get(s.qualifiedName) ?? s.startLine, s.startLine));
  const graph = new Map<string, CallNeighbours>();
  for (const [name, edges] of sameFileCallGraph(symbols, file, only)) {
    graph.set(name, {
      invokes: edges.invokes.filter((t) => t !== name),
      invokedBy: edges.invokedBy
        .filter((c) => c !== name)
        .sort((a, b) => firstLine.get(a)! - firstLine.get(b)! || (a < b ? -1 : a > b ? 1 : 0)),
    });
  }
  return graph;
}
