/**
 * list_symbols: a file's skeleton — imports, then every definition with its
 * line range and signature, nested by parent, with the first doc line. Bodies
 * are never shown: the skeleton is for choosing what to read, and reading is a
 * separate, explicit step for the agent.
 */
import type { CodeSymbol, ImportRecord, ParseStatus } from '../parse/index.js';
import { compareStrings } from './hit-evidence.js';
import { displayPath, formatNameList, formatSpan } from './text-format.js';
import {
  type CutCount,
  DEFAULT_BUDGET_TOKENS,
  estimateTokens,
  LineAccumulator,
  truncationLine,
} from '../budget/index.js';
import { countOf } from '../plural.js';

/** What the skeleton needs of a parsed file (a ParsedFile fits; lineCount is optional). */
export interface SkeletonInput {
  path: string;
  language: string;
  imports: ImportRecord[];
  symbols: CodeSymbol[];
  status: ParseStatus;
  errorCount: number;
  lineCount?: number;
}

export interface SkeletonOptions {
  /** Default 1500. */
  budgetTokens?: number;
  /** Imports listed before `(+n more)`. Default 25. */
  maxImports?: number;
}

/** Doc lines are cut to this many characters (they are a hint, not documentation). */
const MAX_DOC_CHARS = 100;

/** One skeleton entry in document order with its nesting depth. */
export interface SkeletonEntry {
  symbol: CodeSymbol;
  depth: number;
}

/**
 * Symbols in document order (start line ascending, longer span first on a
 * shared start line, then qualified name) with their depth: the number of
 * enclosing symbols reachable through `parent` inside this file.
 */
export function skeletonEntries(symbols: readonly CodeSymbol[]): SkeletonEntry[] {
  const parentOf = new Map<string, string | null>();
  for (const s of symbols) if (!parentOf.has(s.qualifiedName)) parentOf.set(s.qualifiedName, s.parent);
  const depthOf = (symbol: CodeSymbol): number => {
    const seen = new Set<string>([symbol.qualifiedName]);
    let depth = 0;
    let parent = symbol.parent;
    while (parent !== null && parentOf.has(parent) && !seen.has(parent)) {
      seen.add(parent);
      depth++;
      parent = parentOf.get(parent) ?? null;
    }
    return depth;
  };
  return [...symbols]
    .sort(
      (a, b) =>
        a.startLine - b.startLine || b.endLine - a.endLine || compareStrings(a.qualifiedName, b.qualifiedName),
    )
    .map((symbol) => ({ symbol, depth: depthOf(symbol) }));
}

/**
 * Renders the skeleton text. When it exceeds the budget, doc suffixes are
 * dropped first (the symbol list is what list_symbols is for), then trailing
 * symbols; one final `[TRUNCATED]` line says what was left out.
 */
export function renderSkeleton(file: SkeletonInput, options: SkeletonOptions = {}): string {
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const head = skeletonHead(file, options.maxImports ?? 25);
  const entries = skeletonEntries(file.symbols);
  const full = [...head, ...entries.map((e) => symbolLine(e, true))].join('\n');
  if (estimateTokens(full) <= budget) return full;

  const docCount = (upTo: number) => entries.slice(0, upTo).filter((e) => e.symbol.doc).length;
  const cut = (docs: number, symbols: number) =>
    truncationLine(
      [
        { count: docs, singular: 'doc line', plural: 'doc lines' },
        { count: symbols, singular: 'symbol', plural: 'symbols' },
      ] satisfies CutCount[],
      budget,
    );
  // Reserve room for the worst-case truncation line so the real one always fits.
  const worstCut = cut(docCount(entries.length), entries.length);
  const accumulator = new LineAccumulator(Math.max(0, budget - estimateTokens(worstCut)), 'stop');
  accumulator.offer(head);
  let keptSymbols = 0;
  for (const entry of entries) if (accumulator.offer([symbolLine(entry, false)])) keptSymbols++;
  // Docs are reported only for symbols still shown: a cut symbol's doc is gone with it.
  return [...accumulator.lines(), cut(docCount(keptSymbols), entries.length - keptSymbols)].join('\n');
}

/** The header, parse-status note and imports line of a skeleton. */
function skeletonHead(file: SkeletonInput, maxImports: number): string[] {
  const facts = file.lineCount === undefined ? file.language : `${file.language}, ${countOf(file.lineCount, 'line')}`;
  const lines = [`[FILE] ${displayPath(file.path)} (${facts})`];
  const note = statusNote(file);
  if (note) lines.push(note);
  const imports = importEntries(file.imports);
  if (imports.length > 0) lines.push(`imports: ${formatNameList(imports, maxImports)}`);
  return lines;
}

/** The warning line for a parse that is not `ok`, or null. */
export function statusNote(file: Pick<SkeletonInput, 'status' | 'errorCount' | 'language'>): string | null {
  switch (file.status) {
    case 'ok':
      return null;
    case 'partial':
      return `[PARTIAL] parse recovered from ${file.errorCount} syntax error${file.errorCount === 1 ? '' : 's'}; symbols near them may be missing or mis-spanned.`;
    case 'unsupported':
      return `[UNSUPPORTED] no parser for ${file.language}; symbols are not listed.`;
    case 'failed':
      return '[FAILED] the file could not be parsed; symbols are not listed.';
  }
}

/**
 * Imports as short strings in source-line order, de-duplicated: a whole-module
 * import is its source (`os`); named imports join source and name with the
 * source's own separator (`typing.List`, `.base.Base`, `std::io::Read`); a
 * path-like source lists its names in braces (`./util {a, b}`).
 */
export function importEntries(imports: readonly ImportRecord[]): string[] {
  const out: string[] = [];
  const ordered = [...imports].sort((a, b) => a.line - b.line);
  for (const record of ordered) {
    const source = record.source;
    if (record.names.length === 0) out.push(source);
    else if (/[/\\]/.test(source)) out.push(`${source} {${record.names.join(', ')}}`);
    else {
      const separator = source.includes('::') ? '::' : source.endsWith('.') ? '' : '.';
      for (const name of record.names) out.push(`${source}${separator}${name}`);
    }
  }
  return [...new Set(out)];
}

/** `  def run(self) [L22-80]  — Run it.`: indentation by depth, the signature without its body opener. */
function symbolLine(entry: SkeletonEntry, withDoc: boolean): string {
  const { symbol, depth } = entry;
  const signature = cleanSignature(symbol.signature) || `${symbol.kind} ${symbol.name}`;
  const doc = withDoc && symbol.doc ? `  — ${shorten(symbol.doc.trim(), MAX_DOC_CHARS)}` : '';
  return `${'  '.repeat(depth)}${signature} ${formatSpan(symbol.startLine, symbol.endLine)}${doc}`;
}

/** Collapses whitespace and drops the trailing body opener (`:` in Python, `{` in brace languages). */
export function cleanSignature(signature: string): string {
  return signature.replace(/\s+/g, ' ').trim().replace(/\s*[{:]$/, '').trim();
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The JSON form of a skeleton. */
export interface SkeletonJson {
  path: string;
  language: string;
  lineCount: number | null;
  status: ParseStatus;
  errorCount: number;
  imports: Array<{ source: string; names: string[]; line: number }>;
  symbols: Array<{
    qualifiedName: string;
    name: string;
    kind: CodeSymbol['kind'];
    parent: string | null;
    depth: number;
    startLine: number;
    endLine: number;
    signature: string;
    doc: string | null;
  }>;
  /** Symbols cut from the end to fit the budget, or 0. */
  symbolsLeftOut: number;
}

/**
 * The skeleton as a plain object with a fixed key order, symbols in document
 * order. Trailing symbols are dropped while estimateTokens(JSON.stringify(json))
 * would exceed the budget; `symbolsLeftOut` says how many.
 */
export function buildSkeletonJson(file: SkeletonInput, options: SkeletonOptions = {}): SkeletonJson {
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const symbols = skeletonEntries(file.symbols).map(({ symbol, depth }) => ({
    qualifiedName: symbol.qualifiedName,
    name: symbol.name,
    kind: symbol.kind,
    parent: symbol.parent,
    depth,
    startLine: symbol.startLine,
    endLine: symbol.endLine,
    signature: symbol.signature,
    doc: symbol.doc,
  }));
  const json: SkeletonJson = {
    path: file.path,
    language: file.language,
    lineCount: file.lineCount ?? null,
    status: file.status,
    errorCount: file.errorCount,
    imports: [...file.imports]
      .sort((a, b) => a.line - b.line)
      .map((i) => ({ source: i.source, names: [...i.names], line: i.line })),
    symbols,
    symbolsLeftOut: 0,
  };
  if (estimateTokens(JSON.stringify(json)) <= budget) return json;
  // Worst-case count so the digits of the final count cannot push it over.
  // Pieces do not span the JSON's commas and brackets' neighbours by more than one token each: +1 per symbol.
  let used = estimateTokens(JSON.stringify({ ...json, symbols: [], symbolsLeftOut: symbols.length }));
  let kept = 0;
  for (const symbol of symbols) {
    const extra = estimateTokens(JSON.stringify(symbol)) + 2;
    if (used + extra > budget) break;
    used += extra;
    kept++;
  }
  return { ...json, symbols: symbols.slice(0, kept), symbolsLeftOut: symbols.length - kept };
}
