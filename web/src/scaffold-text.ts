/**
 * The scaffold text exactly as an agent reads it, made clickable line by
 * line: `[FILE] path` opens the file's outline, `- Name [L10-20]` opens the
 * code at that span, `invokes ->` / `invoked-by <-` names open those symbols
 * in the same file, and `imports-by <-` paths open the importers' outlines.
 */
import { h, linkButton, type Child } from './dom.js';
import { nav } from './navigation.js';

const FILE_LINE = /^(\s*\[FILE\] )(\S+)(.*)$/;
const SYMBOL_LINE = /^(\s*- )(\S+) \[L(\d+)-(\d+)\](.*)$/;
const NAMES_LINE = /^(\s*(?:invokes ->|invoked-by <-) )(.*)$/;
const IMPORTERS_LINE = /^(\s*imports-by <- )(.*)$/;

/** `a, b (+2 more)` → the names and the trailing note. */
function splitNames(list: string): { names: string[]; rest: string } {
  const more = /\s*\(\+\d+ more\)$/.exec(list);
  const body = more ? list.slice(0, more.index) : list;
  return { names: body.split(', ').filter(Boolean), rest: more ? more[0] : '' };
}

function joined(items: Child[]): Child[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [', ', item]));
}

/** One scaffold line as text and buttons; `file` is the [FILE] the line belongs to. */
function renderLine(text: string, file: string | null): Child {
  let m = FILE_LINE.exec(text);
  if (m) {
    const path = m[2]!;
    return [m[1], linkButton(path, () => nav().openOutline(path), { class: 'scaffold-file', title: 'Open the outline' }), m[3]];
  }
  m = SYMBOL_LINE.exec(text);
  if (m && file) {
    const [, lead, name, start, end, rest] = m;
    const target = { path: file, start: Number(start), end: Number(end), symbol: name };
    return [lead, linkButton(`${name} [L${start}-${end}]`, () => nav().openCode(target), { class: 'scaffold-symbol', title: `Open ${file}:${start}-${end}` }), rest];
  }
  m = NAMES_LINE.exec(text);
  if (m && file) {
    const { names, rest } = splitNames(m[2]!);
    return [m[1], joined(names.map((name) => linkButton(name, () => nav().openCode({ path: file, symbol: name })))), rest];
  }
  m = IMPORTERS_LINE.exec(text);
  if (m) {
    const { names, rest } = splitNames(m[2]!);
    return [m[1], joined(names.map((path) => linkButton(path, () => nav().openOutline(path), { class: 'file-link' }))), rest];
  }
  return text;
}

/** The scaffold as a <pre> with clickable parts. */
export function renderScaffoldText(text: string): HTMLElement {
  let file: string | null = null;
  const lines = text.split('\n').map((line) => {
    const fileMatch = FILE_LINE.exec(line);
    if (fileMatch) file = fileMatch[2]!;
    else if (/^\[DIR\]/.test(line)) file = null;
    return h('div', { class: 'scaffold-line' }, renderLine(line, file) ?? '');
  });
  return h('pre', { class: 'scaffold', id: 'scaffold-text' }, lines);
}
