/**
 * Which functions and classes a change added, removed or modified, from the
 * symbols of both sides: matched by qualified name and kind (overloads by
 * their order), modified when the text of the span differs beyond trailing
 * whitespace. Pure and deterministic.
 */
import type { CodeSymbol } from '../parse/index.js';
import type { FileSide } from '../index/index.js';

/** One symbol-level change. */
export interface SymbolChange {
  change: 'added' | 'removed' | 'modified';
  qualifiedName: string;
  kind: string;
  /** The span on the side that has it (the new side for added and modified, the old for removed). */
  startLine: number;
  endLine: number;
}

/** Kinds a change is reported for (fields, variables and imports are left to the diff). */
const REPORTED_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'module', 'type', 'function', 'method']);

function spanText(side: FileSide, s: CodeSymbol): string {
  return side.lines
    .slice(s.startLine - 1, s.endLine)
    .map((line) => line.trimEnd())
    .join('\n');
}

function keyed(side: FileSide): Map<string, CodeSymbol> {
  const out = new Map<string, CodeSymbol>();
  const seen = new Map<string, number>();
  for (const s of side.symbols) {
    if (!REPORTED_KINDS.has(s.kind)) continue;
    const base = `${s.kind} ${s.qualifiedName}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(n === 0 ? base : `${base}#${n}`, s);
  }
  return out;
}

/**
 * The symbol changes from `before` (null: the file did not exist) to `after`
 * (null: it was deleted), in the order: by line on its side, removed last.
 */
export function symbolChanges(before: FileSide | null, after: FileSide | null): SymbolChange[] {
  const old = before ? keyed(before) : new Map<string, CodeSymbol>();
  const now = after ? keyed(after) : new Map<string, CodeSymbol>();
  const changes: SymbolChange[] = [];
  for (const [key, s] of now) {
    const was = old.get(key);
    if (!was) changes.push({ change: 'added', qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine, endLine: s.endLine });
    else if (spanText(before!, was) !== spanText(after!, s)) {
      changes.push({ change: 'modified', qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine, endLine: s.endLine });
    }
  }
  const removed: SymbolChange[] = [];
  for (const [key, s] of old) {
    if (!now.has(key)) removed.push({ change: 'removed', qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine, endLine: s.endLine });
  }
  const byLine = (a: SymbolChange, b: SymbolChange) => a.startLine - b.startLine || a.endLine - b.endLine || (a.qualifiedName < b.qualifiedName ? -1 : 1);
  return [...changes.sort(byLine), ...removed.sort(byLine)];
}

/** `+ added Cart.total, ~ modified checkout, - removed Old` in one line (at most `max` names, then a count). */
export function symbolChangeSummary(changes: readonly SymbolChange[], max = 8): string {
  const mark = { added: '+', removed: '-', modified: '~' } as const;
  const shown = changes.slice(0, max).map((c) => `${mark[c.change]}${c.qualifiedName}`);
  if (changes.length > max) shown.push(`… ${changes.length - max} more`);
  return shown.join(' ');
}
