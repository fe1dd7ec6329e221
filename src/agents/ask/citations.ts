/**
 * Finding citations in an answer and what the answer claims about each.
 * A citation is `path:start-end` (or `path:line`, or GitHub's
 * `path#L10-L30`), a path followed by its lines in words (`path (lines 12 to
 * 30)`, `path, lines 40-66`, `path line 9`, `path 第 900-950 行`), or a bare
 * path mention (with a folder, or in backticks), optionally in backticks or
 * parentheses, or a path with a name after it (`inventory/stock.py:Catalogue.find_by_isbn`,
 * `stock.py::find_by_isbn`), which claims that the file defines the name:
 * every path an answer names is checked. The claim checked is by name: for a
 * span, the backticked identifiers in
 * the clause that leads up to the citation ("`parse_args` in cli.py:10-30"),
 * or, when that clause names none, the clause right after it ("cli.py:10-30
 * defines `parse_args`"); for a path named without lines, only a name written
 * right before it ("`parse_args` in shop/cli.py", "`parse_args` (shop/cli.py)"),
 * since a clause may name a file and a function it does not hold side by
 * side. Pure text work; verification is citation-check.ts.
 */

/** One citation occurrence in a text. */
export interface ParsedCitation {
  /** As written, without wrapping backticks: `cli.py:10-30`. */
  text: string;
  path: string;
  startLine: number;
  endLine: number;
  /** Offset and length of the occurrence in the text (backticks not included). */
  index: number;
  length: number;
  /** Identifiers the text attributes to the span. */
  names: string[];
  /** Offset where the clause holding the citation's claim ends (a boundary character or the text's end). */
  claimEnd: number;
  /** True for a path named without lines: its existence and its names are checked, and it is never listed as a checked span. */
  pathOnly?: true;
  /** True for `path:Name`: the claim is that the file defines the name (`names` holds it). */
  definition?: true;
}

// A path with an extension, then :start[-end]; `:L12` and GitHub's `#L12-L20` are accepted.
// The look-behind stops matches inside URLs (`//host:443`) and longer paths.
const PATH = String.raw`((?:[\w.-]+\/)*[\w.-]*[\w-]\.[A-Za-z][A-Za-z0-9]*)`;
const CITATION = new RegExp(String.raw`(?<![\w/.-])${PATH}(?::L?|#L)(\d{1,7})(?:\s?[-–]\s?L?(\d{1,7}))?(?![\w])`, 'g');
// `path (lines 12 to 30)`, `path, lines 40-66`, `path line 9`, `path: ll. 3-4`.
const LINES_IN_WORDS = new RegExp(String.raw`(?<![\w/.-])${PATH}\x60?[\s,(（:：]*(?:lines?|ll\.)\s*(\d{1,7})(?:\s*(?:-|–|to|through)\s*(\d{1,7}))?(?![\w])`, 'gi');
// `path 第 900-950 行`, `path 的第 9 行`.
const LINES_CJK = new RegExp(String.raw`(?<![\w/.-])${PATH}\x60?[\s,，(（的]*第\s*(\d{1,7})\s*(?:(?:-|–|~|～|至|到)\s*(\d{1,7})\s*)?行`, 'g');
// A path with a name after it: `path:Name`, `path::Name` (the name a dotted identifier, not a line number).
const PATH_NAME = new RegExp(String.raw`(?<![\w/.-])${PATH}::?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?![\w])`, 'g');
// A path named without lines; kept only with a folder or in backticks ("Node.js" is not a path).
const PATH_MENTION = new RegExp(String.raw`(?<![\w/.-])${PATH}(?![\w/-]|\.[A-Za-z])`, 'g');
const BACKTICKED = /`([^`\n]+)`/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** Words in backticks that are not claims about a span's content. */
const NOT_NAMES = new Set(['True', 'False', 'None', 'null', 'undefined', 'true', 'false', 'self', 'this', 'cls', 'nil']);
const FILE_EXTENSIONS = /\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|md|rst|txt|json|ya?ml|toml|cfg|ini|html|css|sh|lock)$/i;

/** What may separate two citations of one list. */
const CITATION_LIST_GAP = /^[\s`]*(?:[,;]|and)?[\s`]*$/;

/** What may stand between a name and the path named without lines that it is attached to. */
const ADJACENT_NAME_GAP = /^\s*(?:[(（]\s*|(?:in|inside|within|from|of|at|defined in|declared in)\s+)?\x60?$/i;

/** Longest run of names taken from one side of a citation. */
const MAX_NAMES = 3;

/**
 * Every citation in `text`, in order, with the names attributed to it.
 * A reversed range (`30-10`) is kept as written; verification rejects it.
 */
export function parseCitations(text: string): ParsedCitation[] {
  const ticks = [...text.matchAll(BACKTICKED)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, inner: m[1]!.trim() }));
  const found: ParsedCitation[] = [];
  const overlaps = (index: number, length: number) => found.some((c) => index < c.index + c.length && c.index < index + length);
  for (const pattern of [CITATION, LINES_IN_WORDS, LINES_CJK]) {
    for (const m of text.matchAll(pattern)) {
      if (overlaps(m.index!, m[0].length)) continue;
      const start = Number(m[2]);
      // `path (lines 12 to 30)`: the parenthesis opened inside the match closes with it, or removing it would leave a stray `)`.
      const closes = pattern !== CITATION && /[(（]/.test(m[0].slice(m[1]!.length)) && /^[)）]/.test(text.slice(m.index! + m[0].length));
      const written = closes ? text.slice(m.index!, m.index! + m[0].length + 1) : m[0];
      found.push({ text: written, path: m[1]!, startLine: start, endLine: m[3] !== undefined ? Number(m[3]) : start, index: m.index!, length: written.length, names: [], claimEnd: text.length });
    }
  }
  for (const m of text.matchAll(PATH_NAME)) {
    const path = m[1]!;
    if (overlaps(m.index!, m[0].length) || !FILE_EXTENSIONS.test(path)) continue;
    found.push({ text: m[0], path, startLine: 1, endLine: 1, index: m.index!, length: m[0].length, names: [m[2]!], claimEnd: text.length, pathOnly: true, definition: true });
  }
  for (const m of text.matchAll(PATH_MENTION)) {
    const path = m[1]!;
    const backticked = text[m.index! - 1] === '`' && text[m.index! + m[0].length] === '`';
    if (overlaps(m.index!, m[0].length) || !FILE_EXTENSIONS.test(path) || !(path.includes('/') || backticked)) continue;
    found.push({ text: m[0], path, startLine: 1, endLine: 1, index: m.index!, length: m[0].length, names: [], claimEnd: text.length, pathOnly: true });
  }
  found.sort((a, b) => a.index - b.index);
  const insideTicks = (pos: number) => ticks.some((t) => t.start < pos && pos < t.end - 1);
  // Backticked spans that hold a citation are references, not names.
  const names = ticks.filter((t) => !found.some((c) => c.index >= t.start && c.index < t.end)).map((t) => ({ ...t, name: asName(t.inner) }));
  found.forEach((c, i) => {
    const prevEnd = i > 0 ? found[i - 1]!.index + found[i - 1]!.length : 0;
    const nextStart = i + 1 < found.length ? found[i + 1]!.index : text.length;
    const before = clauseStart(text, c.index, insideTicks);
    const after = clauseEnd(text, c.index + c.length, insideTicks);
    // The claim ends after the whole list of citations this one opens (`(a.py:1-2, b.py:3-4)`), not at its comma.
    let last = i;
    while (last + 1 < found.length && CITATION_LIST_GAP.test(text.slice(found[last]!.index + found[last]!.length, found[last + 1]!.index))) last += 1;
    c.claimEnd = last === i ? after : clauseEnd(text, found[last]!.index + found[last]!.length, insideTicks);
    if (c.definition) return;
    const lead = names.filter((n) => n.name && n.start >= Math.max(before, prevEnd) && n.end <= c.index);
    if (c.pathOnly) {
      // Only the name written right before the path: "`X` in path", "`X` (path)".
      const adjacent = lead.at(-1);
      c.names = adjacent && ADJACENT_NAME_GAP.test(text.slice(adjacent.end, c.index)) ? [adjacent.name!] : [];
      return;
    }
    const trail = names.filter((n) => n.name && n.start >= c.index + c.length && n.end <= Math.min(after, nextStart));
    const chosen = lead.length > 0 ? lead.slice(-MAX_NAMES) : trail.slice(0, MAX_NAMES);
    c.names = [...new Set(chosen.map((n) => n.name!))];
  });
  return found;
}

/**
 * The identifier a backticked token claims, or null: `parse_args()` →
 * `parse_args`, `Flask.run` → `Flask.run`; file names, keywords and
 * expressions are not names.
 */
export function asName(token: string): string | null {
  const bare = token.replace(/\(.*\)$/, '').replace(/^@/, '').trim();
  if (bare.length < 2 || !IDENTIFIER.test(bare) || NOT_NAMES.has(bare)) return null;
  if (bare.includes('.') && FILE_EXTENSIONS.test(bare)) return null;
  return bare;
}

/** Clause boundaries: sentence ends, newlines, commas and semicolons outside backticks. */
function isBoundary(text: string, i: number, insideTicks: (pos: number) => boolean): boolean {
  const ch = text[i]!;
  if (ch === '\n') return true;
  if (insideTicks(i)) return false;
  if (ch === ',' || ch === ';') return true;
  return (ch === '.' || ch === '!' || ch === '?') && (i + 1 >= text.length || /\s/.test(text[i + 1]!));
}

function clauseStart(text: string, from: number, insideTicks: (pos: number) => boolean): number {
  for (let i = from - 1; i >= 0; i--) if (isBoundary(text, i, insideTicks)) return i + 1;
  return 0;
}

function clauseEnd(text: string, from: number, insideTicks: (pos: number) => boolean): number {
  for (let i = from; i < text.length; i++) if (isBoundary(text, i, insideTicks)) return i;
  return text.length;
}

/**
 * `text` with the given occurrences removed, together with wrapping
 * backticks, parentheses/brackets left empty and list separators left
 * dangling. Only the junction of each removal is touched, so code elsewhere
 * in the answer keeps its spacing.
 */
export function removeCitations(text: string, occurrences: ReadonlyArray<Pick<ParsedCitation, 'index' | 'length'>>): string {
  let out = text;
  for (const c of [...occurrences].sort((a, b) => b.index - a.index)) {
    let start = c.index;
    let end = c.index + c.length;
    if (out[start - 1] === '`' && out[end] === '`') {
      start -= 1;
      end += 1;
    }
    let before = out.slice(0, start);
    let after = out.slice(end);
    const open = /[([]\s*$/.test(before);
    const close = /^\s*[)\]]/.test(after);
    if (open && close) {
      before = before.replace(/\s*[([]\s*$/, '');
      after = after.replace(/^\s*[)\]]/, '');
    } else if (open) after = after.replace(/^\s*(?:,|;|and\b)\s*/, '');
    else if (close) before = before.replace(/\s*(?:,|;|\band)\s*$/, '');
    else if (/[,;]\s*$/.test(before) && /^\s*[,;]/.test(after)) after = after.replace(/^\s*[,;]/, '');
    // The last of a list removed ("see a.py and b.py [unverified]."): the separator before it has nothing left to join.
    else if (/(?:[,;]|\s(?:and|or))\s*$/.test(before) && /^\s*(?:\[unverified\]|[.!?;]|$)/.test(after)) before = before.replace(/\s*(?:[,;]|\s(?:and|or))\s*$/, ' ');
    if (/[ \t]$/.test(before) && /^[ \t]/.test(after)) after = after.replace(/^[ \t]+/, '');
    if (/[ \t]$/.test(before) && /^[.,;:!?]/.test(after)) before = before.replace(/[ \t]+$/, '');
    if (/^[ \t]+[.,;:!?]/.test(after)) after = after.replace(/^[ \t]+/, '');
    out = before + after;
  }
  return out;
}

/** The visible mark a claim gets when the citation behind it did not check out. */
export const UNVERIFIED_MARK = '[unverified]';

/**
 * `text` with the given occurrences removed (as {@link removeCitations}) and
 * the claim each one supported marked: {@link UNVERIFIED_MARK} at the end of
 * the clause holding it, once per clause. A reader sees which statements no
 * checked code backs, instead of the same statement with its source gone.
 */
export function markUnverified(text: string, occurrences: ReadonlyArray<Pick<ParsedCitation, 'index' | 'length' | 'claimEnd'>>): string {
  const ends = [...new Set(occurrences.map((c) => c.claimEnd))].sort((a, b) => b - a);
  let out = text;
  const mark = ` ${UNVERIFIED_MARK}`;
  for (const end of ends) out = out.slice(0, end) + mark + out.slice(end);
  // Each occurrence moves right by one mark per clause end inserted before it.
  const shifted = occurrences.map((c) => ({ index: c.index + mark.length * ends.filter((e) => e <= c.index).length, length: c.length }));
  return removeCitations(out, shifted);
}
