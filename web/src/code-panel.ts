/**
 * The code drawer: numbered lines of a file as view_code shows them, the
 * asked-for span highlighted and scrolled into view, and the symbol's name
 * marked inside the span. Opened from every view (targets, outline entries,
 * trace evidence, citations).
 */
import type { CodeResponse } from '../../src/http-api/api-types.js';
import { apiGet, messageOf } from './api.js';
import { errorBox, h, linkButton, replaceChildren } from './dom.js';
import { nav, type CodeTarget } from './navigation.js';

/** The simple name a qualified name ends with (`Cart.checkout` → `checkout`). */
function simpleName(symbol: string | undefined): string | null {
  if (!symbol) return null;
  const name = symbol.split(/[.:#]/).pop() ?? '';
  return /^[\w$]+$/.test(name) ? name : null;
}

/** A source line with every whole-word `name` wrapped in <mark>. */
function markedLine(text: string, name: string | null): Node[] {
  if (!name) return [document.createTextNode(text)];
  const out: Node[] = [];
  const pattern = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out.push(document.createTextNode(text.slice(last, match.index)));
    out.push(h('mark', { class: 'symbol-mark' }, match[0]));
    last = match.index! + match[0].length;
  }
  out.push(document.createTextNode(text.slice(last)));
  return out;
}

export class CodePanel {
  readonly element: HTMLElement;
  private readonly title = h('div', { class: 'code-title' });
  private readonly body = h('div', { class: 'code-body', tabindex: '0' });
  private request = 0;

  constructor() {
    const close = h('button', { type: 'button', class: 'icon', title: 'Close (Esc)', 'aria-label': 'Close code', onclick: () => this.close() }, '×');
    this.element = h('aside', { id: 'code-panel', class: 'code-panel', hidden: true, 'aria-label': 'Code' }, h('header', null, this.title, close), this.body);
    document.addEventListener('keydown', (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !this.element.hidden) this.close();
    });
  }

  close(): void {
    this.element.hidden = true;
    document.body.classList.remove('with-code');
  }

  /** Fetches and shows `target`; a failure is shown in the drawer. */
  async open(target: CodeTarget): Promise<void> {
    const request = ++this.request;
    this.element.hidden = false;
    document.body.classList.add('with-code');
    replaceChildren(this.title, h('span', { class: 'muted' }, `Opening ${target.path ?? target.symbol ?? ''}…`));
    replaceChildren(this.body);
    try {
      const code = await apiGet<CodeResponse>('code', { path: target.path, start: target.start, end: target.end, symbol: target.symbol });
      if (request === this.request) this.render(code, target);
    } catch (error) {
      if (request !== this.request) return;
      replaceChildren(this.title, h('span', null, target.path ?? target.symbol ?? 'code'));
      replaceChildren(this.body, errorBox(messageOf(error)));
    }
  }

  private render(code: CodeResponse, target: CodeTarget): void {
    const hl = code.highlight;
    const symbolLabel = code.symbol ? `${code.symbol.qualifiedName} (${code.symbol.kind})` : target.symbol ?? null;
    replaceChildren(
      this.title,
      h('span', { class: 'code-path' }, code.path),
      h('span', { class: 'muted' }, ` ${code.language}, ${code.lineCount} lines`),
      hl ? h('span', { class: 'span-badge' }, `L${hl.start}-${hl.end}`) : null,
      symbolLabel ? h('span', { class: 'code-symbol' }, symbolLabel) : null,
      linkButton('outline', () => nav().openOutline(code.path), { title: 'Open this file in Symbols' }),
    );
    if (code.lineCount === 0) {
      replaceChildren(this.body, h('p', { class: 'muted' }, 'The file is empty.'));
      return;
    }
    const name = simpleName(code.symbol?.qualifiedName ?? target.symbol);
    const width = String(code.firstLine + code.lines.length - 1).length;
    const rows: HTMLElement[] = [];
    let first: HTMLElement | null = null;
    code.lines.forEach((text, i) => {
      const number = code.firstLine + i;
      const inSpan = hl !== null && number >= hl.start && number <= hl.end;
      const row = h(
        'div',
        { class: inSpan ? 'line hl' : 'line', 'data-line': number },
        h('span', { class: 'ln' }, String(number).padStart(width, ' ')),
        h('span', { class: 'src' }, ...(inSpan ? markedLine(text, name) : [text])),
      );
      if (inSpan && !first) first = row;
      rows.push(row);
    });
    const pre = h('pre', { class: 'code' }, rows);
    const note = code.firstLine > 1 || code.firstLine + code.lines.length - 1 < code.lineCount
      ? h('p', { class: 'muted' }, `Showing lines ${code.firstLine}-${code.firstLine + code.lines.length - 1} of this long file.`)
      : null;
    replaceChildren(this.body, note, pre);
    const anchor = first as HTMLElement | null;
    // After layout, so the drawer has its size; 'center' keeps a few lines of context above.
    if (anchor) requestAnimationFrame(() => anchor.scrollIntoView({ block: 'center' }));
    else this.body.scrollTop = 0;
  }
}
