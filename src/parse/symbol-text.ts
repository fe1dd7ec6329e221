/**
 * Text derived from a definition: its signature (declaration up to the body) and
 * its one-line doc (docstring or the comment block directly above).
 */
import type { Node } from 'web-tree-sitter';
import type { CommentFact } from './capture-facts.js';

/** Longest signature kept; longer ones end with an ellipsis. */
export const MAX_SIGNATURE = 200;

/** Collapses whitespace and caps the length at {@link MAX_SIGNATURE} characters. */
export function collapseSignature(text: string): string {
  // A trailing `;` (prototypes, `def f;`) or ` =` (endless Ruby defs) is not part of the shape.
  const collapsed = text.replace(/\s+/g, ' ').trim().replace(/(?:;| =)$/, '').trimEnd();
  return collapsed.length <= MAX_SIGNATURE ? collapsed : `${collapsed.slice(0, MAX_SIGNATURE - 1)}…`;
}

/**
 * The signature for source range [start, end): comments inside it are removed
 * (`def f():  # note` → `def f():`), then whitespace is collapsed and capped.
 * `comments` must be sorted by start; found by binary search.
 */
export function signatureText(source: string, start: number, end: number, comments: readonly CommentFact[]): string {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.startIndex < start) lo = mid + 1;
    else hi = mid;
  }
  let text = '';
  let at = start;
  for (let i = lo; i < comments.length && comments[i]!.startIndex < end; i++) {
    const comment = comments[i]!;
    text += `${source.slice(at, comment.startIndex)} `;
    at = Math.min(end, comment.startIndex + comment.text.length);
  }
  text += source.slice(at, end);
  return collapseSignature(text);
}

/**
 * The node where a definition's body starts: the first node after the name that is a
 * `body` field or of one of `bodyTypes`, searched breadth-first a few levels deep so
 * that nearer candidates win over bodies of nested lambdas in default values.
 */
export function findBody(definition: Node, nameEnd: number, bodyTypes: ReadonlySet<string>): Node | null {
  let level: Node[] = [definition];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: Node[] = [];
    for (const parent of level) {
      const count = parent.childCount;
      for (let i = 0; i < count; i++) {
        const child = parent.child(i);
        if (!child || child.endIndex <= nameEnd) continue;
        if (child.startIndex >= nameEnd && (bodyTypes.has(child.type) || parent.fieldNameForChild(i) === 'body')) {
          return child;
        }
        if (child.childCount > 0) next.push(child);
      }
    }
    level = next;
  }
  return null;
}

const STRING_PREFIX = /^[rRbBuUfF]{0,2}/;

/** First non-empty line of a string literal used as a docstring, quotes removed. */
export function docstringLine(literal: string): string | null {
  let body = literal.replace(STRING_PREFIX, '');
  for (const quote of ['"""', "'''", '"', "'"]) {
    if (body.startsWith(quote) && body.endsWith(quote) && body.length >= 2 * quote.length) {
      body = body.slice(quote.length, body.length - quote.length);
      break;
    }
  }
  return firstNonEmpty(body.split('\n'));
}

function firstNonEmpty(lines: readonly string[]): string | null {
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed) return trimmed;
  }
  return null;
}

// Markers at the start of a comment line: `///`, `//!`, `//`, `/**`, `/*`, `*`, `#`, `--[[`, `--`, `=begin`.
const LEADING_MARKER = /^\s*(?:\/\/[/!]?|\/\*+!?|\*+(?!\/)|#+!?|--\[=*\[|--+|=begin\b|=end\b)/;
const TRAILING_MARKER = /(?:\*+\/|\]=*\]|=end)\s*$/;

// C# XML doc wrappers carry no text of their own (`/// <summary>`).
const XML_DOC_TAG = /<\/?(?:summary|remarks|para|returns)\b[^>]*>/g;

/** The comment's text lines with comment markers removed. */
export function commentLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(LEADING_MARKER, '').replace(TRAILING_MARKER, '').replace(XML_DOC_TAG, '').trim());
}

/**
 * Indexes comments by the row they end on so a definition can find the contiguous
 * block directly above it in O(block size). Only comments that start their line are
 * kept: a trailing `x = 1  # note` belongs to the code on its left.
 */
export class CommentIndex {
  private readonly byEndRow = new Map<number, CommentFact>();

  constructor(comments: readonly CommentFact[], source: string, lineStarts: readonly number[]) {
    for (const comment of comments) {
      const lineStart = lineStarts[comment.startRow] ?? 0;
      if (source.slice(lineStart, comment.startIndex).trim() !== '') continue;
      this.byEndRow.set(comment.endRow, comment);
    }
  }

  /** First non-empty line of the comment block ending on the row just above `row` (0-based). */
  docAbove(row: number): string | null {
    const block: CommentFact[] = [];
    let current = this.byEndRow.get(row - 1);
    while (current && current.endRow < row) {
      block.push(current);
      row = current.startRow;
      current = this.byEndRow.get(row - 1);
    }
    for (let i = block.length - 1; i >= 0; i--) {
      const line = firstNonEmpty(commentLines(block[i]!.text));
      if (line) return line;
    }
    return null;
  }
}
