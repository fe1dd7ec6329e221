/**
 * The outline of a prose file — Markdown, reStructuredText or plain text —
 * as `section` symbols: one per heading, spanning the heading line to the
 * line before the next heading of the same or a higher level, nested by
 * level. No grammar: headings are line patterns (ATX and setext headings
 * outside fenced code in Markdown; over- and underlined titles in RST and in
 * plain text, which Python projects often write as RST). A file without a
 * heading has no sections.
 */
import type { CodeSymbol } from './symbol-model.js';

/** The prose formats the outline reads; plain text is read with RST's title rules. */
export type ProseFormat = 'markdown' | 'rst' | 'text';

const FORMAT_OF_EXTENSION: Readonly<Record<string, ProseFormat>> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.rst': 'rst',
  '.txt': 'text',
};

/** The prose format of a path by its extension (case-insensitive), or null when it is not a prose file. */
export function proseFormatOf(path: string): ProseFormat | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return FORMAT_OF_EXTENSION[path.slice(dot).toLowerCase()] ?? null;
}

interface Heading {
  title: string;
  level: number;
  /** 1-based line of the title text (an underline or overline belongs to the heading too). */
  line: number;
  /** First line of the heading block (the overline, when there is one). */
  startLine: number;
}

/** Longest heading title kept (a runaway "heading" is a paragraph). */
const MAX_TITLE_CHARS = 160;

/**
 * The headings of `text` as nested `section` symbols in document order.
 * `qualifiedName` joins the titles from the top level down with ` > ` (titles
 * hold dots and spaces, so the dotted form of code would be ambiguous);
 * `signature` is the heading as written, `doc` the first prose line under it.
 */
export function proseOutline(text: string, format: ProseFormat): CodeSymbol[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const headings = format === 'markdown' ? markdownHeadings(lines) : rstHeadings(lines);
  const lastLine = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const symbols: CodeSymbol[] = [];
  const open: { level: number; name: string }[] = [];
  headings.forEach((heading, i) => {
    while (open.length > 0 && open[open.length - 1]!.level >= heading.level) open.pop();
    const parent = open.length > 0 ? open[open.length - 1]!.name : null;
    const name = parent === null ? heading.title : `${parent} > ${heading.title}`;
    const next = headings.slice(i + 1).find((h) => h.level <= heading.level);
    const endLine = Math.max(heading.line, (next ? next.startLine : lastLine + 1) - 1);
    symbols.push({
      name: heading.title,
      qualifiedName: name,
      kind: 'section',
      parent,
      startLine: heading.startLine,
      endLine,
      signature: lines[heading.line - 1]!.trim(),
      doc: firstProseLine(lines, heading.line, endLine),
      callees: [],
      bases: [],
    });
    open.push({ level: heading.level, name });
  });
  return symbols;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

function markdownHeadings(lines: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  let frontMatter = lines[0] === '---';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (frontMatter) {
      if (i > 0 && (line === '---' || line === '...')) frontMatter = false;
      continue;
    }
    const fenced = FENCE.exec(line);
    if (fence !== null) {
      if (fenced && fenced[1]![0] === fence[0] && fenced[1]!.length >= fence.length) fence = null;
      continue;
    }
    if (fenced) {
      fence = fenced[1]!;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx && atx[2]!.trim()) {
      out.push({ title: clean(atx[2]!), level: atx[1]!.length, line: i + 1, startLine: i + 1 });
      continue;
    }
    const underline = SETEXT.exec(line);
    const previous = i > 0 ? lines[i - 1]! : '';
    // A setext title is a one-line paragraph: the line above it starts after a blank line and is not a list item, quote or table.
    if (underline && previous.trim() && (i < 2 || !lines[i - 2]!.trim()) && !/^\s*([-*+>|]|\d+[.)])\s/.test(previous) && !/^ {4}/.test(previous)) {
      if (out.length > 0 && out[out.length - 1]!.line === i) continue;
      out.push({ title: clean(previous), level: underline[1]![0] === '=' ? 1 : 2, line: i, startLine: i });
    }
  }
  return out.filter((h) => h.title.length > 0 && h.title.length <= MAX_TITLE_CHARS);
}

/** RST adornment characters (docutils accepts any printable non-alphanumeric ASCII; these are the ones used). */
const ADORNMENT = /^([=\-~^"'`#*+.:_!$%&,;<>?@\\/|])\1{2,}[ \t]*$/;

function rstHeadings(lines: readonly string[]): Heading[] {
  const out: Heading[] = [];
  // Levels by the order in which adornment styles first appear, as docutils assigns them.
  const styles: string[] = [];
  const levelOf = (style: string): number => {
    if (!styles.includes(style)) styles.push(style);
    return styles.indexOf(style) + 1;
  };
  for (let i = 1; i < lines.length; i++) {
    const under = ADORNMENT.exec(lines[i]!);
    const title = lines[i - 1]!;
    if (!under || !title.trim() || /^\s/.test(title) || ADORNMENT.test(title)) continue;
    if (lines[i]!.trimEnd().length < title.trimEnd().length) continue;
    const over = i >= 2 && lines[i - 2]!.trimEnd() === lines[i]!.trimEnd();
    // The title is a paragraph of one line: a blank line (or an overline, or the file's start) above it.
    if (!over && i >= 2 && lines[i - 2]!.trim()) continue;
    out.push({ title: clean(title), level: levelOf(`${over ? 'o' : 'u'}${under[1]}`), line: i, startLine: over ? i - 1 : i });
  }
  return out.filter((h) => h.title.length > 0 && h.title.length <= MAX_TITLE_CHARS);
}

/** A title without inline markup that only decorates it (backticks, emphasis, trailing colons). */
function clean(title: string): string {
  return title
    .trim()
    .replace(/`+/g, '')
    .replace(/^\*+|\*+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first non-blank line below a heading that is neither an adornment nor markup-only, within the section. */
function firstProseLine(lines: readonly string[], headingLine: number, endLine: number): string | null {
  for (let n = headingLine + 1; n <= endLine; n++) {
    const text = lines[n - 1]!.trim();
    if (!text || ADORNMENT.test(text) || SETEXT.test(text) || text.startsWith('..') || text.startsWith('<!--')) continue;
    return text.length > 100 ? `${text.slice(0, 99)}…` : text;
  }
  return null;
}
