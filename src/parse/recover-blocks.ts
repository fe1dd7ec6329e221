/**
 * Error isolation for brace languages. tree-sitter's own recovery in
 * TypeScript, Java, Go … often wraps everything from the last good point to the
 * end of the file in one ERROR node (one stray `<` in a method hides every
 * later class and function), while Python's indentation keeps a syntax error
 * local. This gives brace languages the same locality using the layout people
 * write: the file is cut into blocks by indentation (a line at the block's
 * indentation starts a piece; deeper lines and closers like `}` continue it),
 * each piece is parsed on its own with everything else blanked out, and the
 * pieces that do not parse are blanked in a final parse. A broken piece with a
 * body is searched one level deeper, so a broken method costs that method, not
 * its class. Blanking replaces characters with spaces, so every line, column
 * and offset stays where it was.
 */
import type { Parser, Tree } from 'web-tree-sitter';

/** A line range, inclusive, 0-based. */
interface Piece {
  start: number;
  end: number;
}

/** Trial parses per file at most: recovery is best effort and must stay cheap. */
const MAX_TRIALS = 256;
/** How many block levels below the top are searched. */
const MAX_DEPTH = 3;

/** A line that continues the piece above it instead of starting one (closers, continuations). */
const CONTINUES = /^(?:[}\])]|end\b|else\b|catch\b|finally\b|\.|\?|:|&&|\|\||,)/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Cuts lines [lo, hi] into pieces at their smallest indentation. */
function cut(lines: readonly string[], lo: number, hi: number): Piece[] {
  let indent = Infinity;
  for (let i = lo; i <= hi; i++) if (lines[i]!.trim() !== '') indent = Math.min(indent, indentOf(lines[i]!));
  const pieces: Piece[] = [];
  for (let i = lo; i <= hi; i++) {
    const line = lines[i]!;
    const starts = line.trim() !== '' && indentOf(line) === indent && !CONTINUES.test(line.trimStart());
    if (starts || pieces.length === 0) pieces.push({ start: i, end: i });
    // Blank lines join a piece only when more of it follows, so a piece ends on its closer.
    else if (line.trim() !== '') pieces[pieces.length - 1]!.end = i;
  }
  return pieces;
}

/** Text with only the lines in `keep` (sorted, disjoint) left; everything else is spaces (newlines stay). */
function keepOnly(text: string, lineStarts: readonly number[], keep: readonly Piece[]): string {
  const lineEnd = (line: number) => (line + 1 < lineStarts.length ? lineStarts[line + 1]! : text.length);
  let out = '';
  let at = 0;
  for (const piece of keep) {
    const from = lineStarts[piece.start]!;
    out += text.slice(at, from).replace(/[^\n]/g, ' ') + text.slice(from, lineEnd(piece.end));
    at = lineEnd(piece.end);
  }
  return out + text.slice(at).replace(/[^\n]/g, ' ');
}

/**
 * The text with its broken pieces blanked, or null when isolation finds
 * nothing to keep apart (no piece parses cleanly on its own, or the file is
 * laid out on too few lines to cut).
 */
export function isolateErrors(parser: Parser, text: string, lineStarts: readonly number[]): string | null {
  const lines = text.split('\n');
  if (lines.length < 3) return null;
  let trials = 0;
  const parsesCleanly = (keep: Piece[]): boolean | null => {
    if (++trials > MAX_TRIALS) return null;
    let tree: Tree | null = null;
    try {
      // A trial only asks "does this parse?", so it parses just the kept lines: its cost is the piece's, not the file's.
      tree = parser.parse(keep.map((p) => lines.slice(p.start, p.end + 1).join('\n')).join('\n'));
      return tree !== null && !tree.rootNode.hasError;
    } finally {
      tree?.delete();
    }
  };

  const broken: Piece[] = [];
  let keptAny = false;
  /** Sorts `pieces` of lines [lo, hi] into kept and broken, given the ancestors' header and closer lines. */
  const sort = (lo: number, hi: number, context: Piece[], depth: number): void => {
    for (const piece of cut(lines, lo, hi)) {
      const clean = parsesCleanly([...context, piece].sort((a, b) => a.start - b.start));
      if (clean === null) {
        broken.push(piece);
        continue;
      }
      if (clean) {
        keptAny = true;
        continue;
      }
      // A broken piece with a body: keep its first and last lines and search inside.
      const inner = piece.end - piece.start >= 2 && depth < MAX_DEPTH && CONTINUES.test(lines[piece.end]!.trimStart());
      if (!inner) {
        broken.push(piece);
        continue;
      }
      const before = broken.length;
      const keptBefore = keptAny;
      keptAny = false;
      const frame = [...context, { start: piece.start, end: piece.start }, { start: piece.end, end: piece.end }];
      sort(piece.start + 1, piece.end - 1, frame, depth + 1);
      if (!keptAny) {
        // Nothing inside parses even in its frame: the frame itself is broken.
        broken.splice(before);
        broken.push(piece);
      }
      keptAny ||= keptBefore;
    }
  };
  sort(0, lines.length - 1, [], 0);
  if (!keptAny || broken.length === 0) return null;

  // Keep the complement of the broken pieces.
  broken.sort((a, b) => a.start - b.start);
  const keep: Piece[] = [];
  let next = 0;
  for (const piece of broken) {
    if (piece.start > next) keep.push({ start: next, end: piece.start - 1 });
    next = Math.max(next, piece.end + 1);
  }
  if (next < lines.length) keep.push({ start: next, end: lines.length - 1 });
  return keepOnly(text, lineStarts, keep);
}
