/**
 * A file's index rows as flat lists of column values, built where the file is
 * analyzed (a parse worker): the indexer's writing thread only binds them.
 * Structured-cloning a parse's objects (symbols, imports, chunks with their
 * field records) cost the writing thread ~3× as much to deserialize as the same
 * values in flat arrays (sympy: 490 vs 166 ms), and the JSON columns (a symbol's
 * callees and bases, an import's names, the blob's parse) are stringified here
 * instead of there.
 */
import type { ParsedFile } from '../../parse/index.js';
import type { BuiltChunk } from './build-chunks.js';

/** One bound value. */
export type SqlValue = string | number | null;

/** Values per symbol in {@link FileRows.symbols}: name, qualified_name, kind, parent, start_line, end_line, signature, doc, callees, calls, bases. */
export const SYMBOL_WIDTH = 11;
/** Values per import in {@link FileRows.imports}: source, names, line. */
export const IMPORT_WIDTH = 3;
/**
 * Values per chunk in {@link FileRows.chunks}: kind, symbol, start_line, end_line,
 * content_hash, then the full-text fields in FTS_FIELDS order (path, name, signature, doc, body).
 */
export const CHUNK_WIDTH = 10;

/** Everything `IndexStore.putFileRows` writes for one file, apart from its path and identity. */
export interface FileRows {
  language: string;
  status: string;
  errorCount: number;
  decodedWithReplacement: 0 | 1;
  lineCount: number;
  /** {@link SYMBOL_WIDTH} values per symbol, in the parse's order. */
  symbols: SqlValue[];
  /** {@link IMPORT_WIDTH} values per import, in the parse's order. */
  imports: SqlValue[];
  /** {@link CHUNK_WIDTH} values per chunk, in the chunks' order. */
  chunks: SqlValue[];
  /** The `graph_facts` row's JSON columns (see graphFacts). */
  graphDefines: string;
  graphCalls: string;
}

/**
 * What the file graph reads of a file's symbols (index-schema.ts, graph_facts):
 * the simple names defined at depth 0 or 1 (a qualified name with at most one
 * dot), in the parse's order, and the distinct names its symbols call, sorted
 * by code unit, as JSON arrays.
 */
export function graphFacts(symbols: readonly { name: string; qualifiedName: string; callees: readonly string[] }[]): { defines: string; calls: string } {
  const defines: string[] = [];
  const calls = new Set<string>();
  for (const s of symbols) {
    const dot = s.qualifiedName.indexOf('.');
    if (dot < 0 || s.qualifiedName.indexOf('.', dot + 1) < 0) defines.push(s.name);
    for (const callee of s.callees) calls.add(callee);
  }
  return { defines: JSON.stringify(defines), calls: JSON.stringify([...calls].sort()) };
}

/** The rows of `parsed` and its `chunks` (the same values the index stored from the objects themselves). */
export function toFileRows(parsed: ParsedFile, chunks: readonly BuiltChunk[]): FileRows {
  const symbols: SqlValue[] = [];
  for (const s of parsed.symbols) {
    symbols.push(s.name, s.qualifiedName, s.kind, s.parent, s.startLine, s.endLine, s.signature, s.doc, JSON.stringify(s.callees), JSON.stringify(s.calls ?? []), JSON.stringify(s.bases));
  }
  const imports: SqlValue[] = [];
  for (const i of parsed.imports) imports.push(i.source, JSON.stringify(i.names), i.line);
  const facts = graphFacts(parsed.symbols);
  return {
    language: parsed.language,
    status: parsed.status,
    errorCount: parsed.errorCount,
    decodedWithReplacement: parsed.decodedWithReplacement ? 1 : 0,
    lineCount: parsed.lineCount,
    symbols,
    imports,
    chunks: chunkRowValues(chunks),
    graphDefines: facts.defines,
    graphCalls: facts.calls,
  };
}

/** The {@link FileRows.chunks} values of `chunks`. */
export function chunkRowValues(chunks: readonly BuiltChunk[]): SqlValue[] {
  const values: SqlValue[] = [];
  for (const c of chunks) {
    const f = c.fields;
    values.push(c.kind, c.symbol, c.startLine, c.endLine, c.contentHash, f.path, f.name, f.signature, f.doc, f.body);
  }
  return values;
}
