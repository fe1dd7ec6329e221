/**
 * Turning tool output into citation-ready evidence: each item is a file and a
 * line range with the numbered lines the model will see. Spans come from the
 * tools' machine-readable data (never from scraping their text); items are
 * then ranked by how much of the question they mention, and deduplicated
 * against what the trajectory already holds, so the memory grows only with
 * new code.
 */
import type { IndexStore, SymbolRow } from '../../index/index.js';
import { codeTokens } from '../../index/index.js';
import { STOPWORDS } from '../../retrieve/index.js';
import { clipLine } from '../../tools/index.js';
import { LineCache } from '../../tools/index.js';
import type { TraceEvidence } from './trace-types.js';
import { countOf } from '../../plural.js';

/** A raw span before excerpting. */
export interface EvidenceSpan {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
}

/** The words of a question that evidence can be matched on (code-tokenised, stopwords removed). */
export function questionTerms(question: string): Set<string> {
  return new Set(codeTokens(question).filter((t) => t.length > 2 && !STOPWORDS.has(t)));
}

/** Numbered lines `start..end` of `lines`, at most `maxLines`, each clipped; also the last line shown. */
export function excerptLines(lines: readonly string[], start: number, end: number, maxLines: number): { text: string; lastShown: number } {
  const last = Math.min(end, lines.length, start + maxLines - 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = start; n <= last; n++) out.push(`${String(n).padStart(width)} | ${clipLine(lines[n - 1] ?? '', 240)}`);
  if (last < Math.min(end, lines.length)) out.push(`… (${countOf(Math.min(end, lines.length) - last, 'more line', 'more lines')} to ${end})`);
  return { text: out.join('\n'), lastShown: last };
}

/** The innermost symbol containing lines `start..end`, or null. */
function innermostHolding(symbols: readonly SymbolRow[], start: number, end: number): SymbolRow | null {
  let best: SymbolRow | null = null;
  for (const s of symbols) {
    if (s.startLine <= start && end <= s.endLine && (!best || s.endLine - s.startLine < best.endLine - best.startLine)) best = s;
  }
  return best;
}

/**
 * The spans a tool's `data` names. Known shapes: find_class/find_function
 * (`matches[].path/startLine/endLine/qualifiedName`), find_code_snippet
 * (`matches[].path/line/endLine`, widened by two lines and named after the
 * enclosing symbol), semantic_search (`hits[]`), view_code (`path/start/end`;
 * a long view is split into the symbols it covers). Unknown shapes yield none.
 */
export function spansFromToolData(tool: string, data: unknown, store: IndexStore, windowLines: number): EvidenceSpan[] {
  const d = (data ?? {}) as Record<string, any>;
  const spans: EvidenceSpan[] = [];
  if ((tool === 'find_class' || tool === 'find_function') && Array.isArray(d.matches)) {
    for (const m of d.matches) {
      if (isSpan(m.path, m.startLine, m.endLine)) spans.push({ path: m.path, startLine: m.startLine, endLine: m.endLine, symbol: m.qualifiedName ?? null });
    }
  } else if (tool === 'find_code_snippet' && Array.isArray(d.matches)) {
    const symbolsByPath = new Map<string, SymbolRow[]>();
    for (const m of d.matches) {
      if (!isSpan(m.path, m.line, m.endLine ?? m.line)) continue;
      let symbols = symbolsByPath.get(m.path);
      if (!symbols) symbolsByPath.set(m.path, (symbols = store.symbolsOf(m.path)));
      const symbol = innermostHolding(symbols, m.line, m.line);
      spans.push({ path: m.path, startLine: Math.max(1, m.line - 2), endLine: (m.endLine ?? m.line) + 2, symbol: symbol?.qualifiedName ?? null });
    }
  } else if (tool === 'semantic_search' && Array.isArray(d.hits)) {
    for (const h of d.hits) if (isSpan(h.path, h.startLine, h.endLine)) spans.push({ path: h.path, startLine: h.startLine, endLine: h.endLine, symbol: h.symbol ?? null });
  } else if (tool === 'view_code' && isSpan(d.path, d.start, d.end)) {
    spans.push(...splitView(d.path, d.start, d.end, d.symbol?.qualifiedName ?? null, store, windowLines));
  }
  return spans;
}

function isSpan(path: unknown, start: unknown, end: unknown): path is string {
  return typeof path === 'string' && Number.isInteger(start) && Number.isInteger(end) && (start as number) >= 1 && (end as number) >= (start as number);
}

/**
 * A short view stays one span; a long one becomes the symbols inside it (else
 * the whole range), so ranking can pick. Every span is then cut into windows
 * of `windowLines`, the most an excerpt shows: viewing a function already found
 * gives its remaining lines as new evidence instead of repeating (and being
 * deduped against) its head.
 */
function splitView(path: string, start: number, end: number, symbol: string | null, store: IndexStore, windowLines: number): EvidenceSpan[] {
  return viewPieces(path, start, end, symbol, store, windowLines).flatMap((piece) => {
    const windows: EvidenceSpan[] = [];
    for (let from = piece.startLine; from <= piece.endLine; from += windowLines) {
      windows.push({ ...piece, startLine: from, endLine: Math.min(piece.endLine, from + windowLines - 1) });
    }
    return windows;
  });
}

function viewPieces(path: string, start: number, end: number, symbol: string | null, store: IndexStore, windowLines: number): EvidenceSpan[] {
  if (end - start + 1 <= windowLines * 2) {
    // Name a plain line range after the innermost symbol holding it, so the answer can refer to it.
    const holder = symbol ? null : innermostHolding(store.symbolsOf(path), start, end);
    return [{ path, startLine: start, endLine: end, symbol: symbol ?? holder?.qualifiedName ?? null }];
  }
  const inside = store
    .symbolsOf(path)
    .filter((s) => s.startLine >= start && s.endLine <= end && s.endLine - s.startLine + 1 <= windowLines * 3)
    // Keep the outermost of nested symbols that fit: a method inside a fitting class is covered by it.
    .filter((s, _, all) => !all.some((o) => o !== s && o.startLine <= s.startLine && o.endLine >= s.endLine && o.endLine - o.startLine > s.endLine - s.startLine));
  if (inside.length > 0) return inside.map((s) => ({ path, startLine: s.startLine, endLine: s.endLine, symbol: s.qualifiedName }));
  return [{ path, startLine: start, endLine: end, symbol }];
}

/** Options for {@link buildEvidence}. */
export interface BuildEvidenceOptions {
  terms: ReadonlySet<string>;
  /** Evidence already on the trajectory: spans it fully shows are dropped. */
  seen: readonly TraceEvidence[];
  maxItems: number;
  excerptLines: number;
}

/**
 * Excerpts, ranks and dedupes spans into evidence. Rank = question terms
 * found in the symbol name (×3), path and excerpt, plus a small bonus for the
 * tool's own order. Spans whose file is no longer indexed are dropped.
 */
export function buildEvidence(tool: string, spans: readonly EvidenceSpan[], store: IndexStore, options: BuildEvidenceOptions): TraceEvidence[] {
  const reader = new LineCache(store);
  const items: TraceEvidence[] = [];
  spans.forEach((span, i) => {
    const lines = reader.lines(span.path);
    if (!lines || span.startLine > lines.length) return;
    const endLine = Math.min(span.endLine, lines.length);
    const { text, lastShown } = excerptLines(lines, span.startLine, endLine, options.excerptLines);
    const relevance = termScore(span.symbol ?? '', options.terms) * 3 + termScore(span.path, options.terms) + termScore(text, options.terms);
    const order = (spans.length - i) / spans.length;
    items.push({ path: span.path, startLine: span.startLine, endLine, symbol: span.symbol, excerpt: text, excerptEndLine: lastShown, tool, rank: round(relevance + order) });
  });
  const ranked = items.sort((a, b) => b.rank - a.rank || a.path.localeCompare(b.path) || a.startLine - b.startLine);
  const kept: TraceEvidence[] = [];
  for (const item of ranked) {
    if (kept.length >= options.maxItems) break;
    if (covered(item, options.seen) || covered(item, kept)) continue;
    kept.push(item);
  }
  return kept;
}

/** True when some item in `pool` already shows every line `item` shows. */
export function covered(item: Pick<TraceEvidence, 'path' | 'startLine' | 'excerptEndLine'>, pool: readonly TraceEvidence[]): boolean {
  return pool.some((p) => p.path === item.path && p.startLine <= item.startLine && p.excerptEndLine >= item.excerptEndLine);
}

function termScore(text: string, terms: ReadonlySet<string>): number {
  if (terms.size === 0 || text === '') return 0;
  const found = new Set(codeTokens(text).filter((t) => terms.has(t)));
  return found.size;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** `path:start-end` for an evidence item. */
export function spanLabel(e: Pick<TraceEvidence, 'path' | 'startLine' | 'endLine'>): string {
  return `${e.path}:${e.startLine}-${e.endLine}`;
}
