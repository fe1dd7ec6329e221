import { createHash } from 'node:crypto';
import type { CodeSymbol, ParsedFile } from '../../parse/index.js';
import { lineStartsOf } from '../../parse/index.js';
import { TYPE_KINDS } from '../../parse/index.js';
import type { ChunkKind, FtsField } from './index-schema.js';
import { codeTokenText } from './code-tokens.js';

/** A retrieval unit with its pre-tokenized search fields (space-joined tokens). */
export interface BuiltChunk {
  kind: ChunkKind;
  symbol: string | null;
  startLine: number;
  endLine: number;
  /** sha1 of the chunk's text: the key of the embedding cache. */
  contentHash: string;
  fields: Record<FtsField, string>;
}

/** Caps the body tokens of one chunk so one giant function cannot dominate memory or BM25 length norms. */
const MAX_BODY_TOKENS = 4000;

/**
 * Cuts a parsed file into chunks: one per function or method (the paper's
 * unit), one per type header (its lines before the first member chunk), and
 * one for the lines not covered by any other chunk, so every line can be found.
 */
export function buildChunks(parsed: Pick<ParsedFile, 'path' | 'symbols'>, text: string): BuiltChunk[] {
  const lines = text.split('\n');
  const lineText = lineRangeReader(text);
  const pathTokens = codeTokenText(parsed.path.replace(/\.[^./]+$/, ''));
  const covered = new Uint8Array(lines.length + 2);
  const chunks: BuiltChunk[] = [];
  const functions = parsed.symbols.filter((s) => !TYPE_KINDS.has(s.kind));
  const types = parsed.symbols.filter((s) => TYPE_KINDS.has(s.kind));

  for (const symbol of functions) {
    chunks.push(symbolChunk('function', symbol, symbol.startLine, symbol.endLine, lineText, pathTokens));
    for (let line = symbol.startLine; line <= symbol.endLine; line++) covered[line] = 1;
  }
  // Symbols are sorted by start line, so a type's members follow it: one forward scan each.
  const sorted = [...parsed.symbols].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  for (const type of types) {
    let firstMember = type.endLine + 1;
    for (const s of sorted) {
      if (s.startLine <= type.startLine) continue;
      if (s.startLine > type.endLine) break;
      if (s.endLine <= type.endLine) {
        firstMember = s.startLine;
        break;
      }
    }
    const headerEnd = Math.max(type.startLine, firstMember - 1);
    chunks.push(symbolChunk('class', type, type.startLine, headerEnd, lineText, pathTokens));
    for (let line = type.startLine; line <= headerEnd; line++) covered[line] = 1;
  }
  const remainder: string[] = [];
  let first = 0;
  let last = 0;
  for (let line = 1; line <= lines.length; line++) {
    if (covered[line]) continue;
    const content = lines[line - 1];
    if (!content.trim()) continue;
    remainder.push(content);
    if (!first) first = line;
    last = line;
  }
  if (remainder.length) {
    const body = remainder.join('\n');
    const stem = parsed.path.split('/').pop() ?? parsed.path;
    chunks.push({
      kind: 'file',
      symbol: null,
      startLine: first,
      endLine: last,
      contentHash: sha1(body),
      fields: { path: pathTokens, name: codeTokenText(stem), signature: '', doc: '', body: codeTokenText(body, MAX_BODY_TOKENS) },
    });
  }
  chunks.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return chunks;
}

function symbolChunk(
  kind: ChunkKind,
  symbol: CodeSymbol,
  startLine: number,
  endLine: number,
  lineText: (startLine: number, endLine: number) => string,
  pathTokens: string,
): BuiltChunk {
  const text = lineText(startLine, endLine);
  return {
    kind,
    symbol: symbol.qualifiedName,
    startLine,
    endLine,
    contentHash: sha1(text),
    fields: {
      path: pathTokens,
      name: codeTokenText(symbol.qualifiedName),
      signature: codeTokenText(symbol.signature),
      doc: symbol.doc ? codeTokenText(symbol.doc) : '',
      body: codeTokenText(text, MAX_BODY_TOKENS),
    },
  };
}

/**
 * Returns a reader of lines `start..end` (1-based, inclusive) joined by their
 * newlines, equal to `text.split('\n').slice(start - 1, end).join('\n')` but
 * a substring of `text` rather than a copy: chunks of nested code overlap.
 */
function lineRangeReader(text: string): (startLine: number, endLine: number) => string {
  const starts = lineStartsOf(text);
  const lineCount = starts.length;
  return (startLine, endLine) => {
    const first = Math.max(1, startLine);
    if (first > lineCount || endLine < first) return '';
    return endLine >= lineCount ? text.slice(starts[first - 1]) : text.slice(starts[first - 1], starts[endLine]! - 1);
  };
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
