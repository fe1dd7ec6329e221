/**
 * Symbols: one file's list_symbols skeleton as a collapsible outline
 * (details/summary, nested by parent), each symbol with its same-file
 * callers and callees; the file's imports and importers link to their
 * outlines, spans open the code.
 */
import type { FilesResponse, OutlineResponse, OutlineSymbol } from '../../src/http-api/api-types.js';
import { apiGet, messageOf } from './api.js';
import { errorBox, h, linkButton, replaceChildren, type Child } from './dom.js';
import { hashFor, nav } from './navigation.js';

export class SymbolsView {
  readonly element: HTMLElement;
  private readonly path = h('input', { id: 'symbols-path', name: 'path', list: 'indexed-files', placeholder: 'repository path, e.g. src/app.py', 'aria-label': 'File path', autocomplete: 'off' });
  private readonly datalist = h('datalist', { id: 'indexed-files' });
  private readonly content = h('div', { class: 'outline-content' });
  private shown = '';
  private filesLoaded = false;

  constructor() {
    const form = h(
      'form',
      {
        class: 'row path-form',
        onsubmit: (event: SubmitEvent) => {
          event.preventDefault();
          const path = this.path.value.trim();
          if (!path) replaceChildren(this.content, errorBox('Type a file path first.'));
          else location.hash = hashFor('symbols', { path });
        },
      },
      this.path,
      this.datalist,
      h('button', { type: 'submit', id: 'symbols-open' }, 'Open outline'),
    );
    this.element = h('section', { id: 'view-symbols', class: 'view' }, form, this.content);
    replaceChildren(this.content, h('p', { class: 'muted hint' }, 'Pick a file (type to see indexed paths), or click a file in Search.'));
  }

  /** Applies route parameters; the file list for completion is fetched the first time the tab opens. */
  route(params: URLSearchParams): void {
    if (!this.filesLoaded) {
      this.filesLoaded = true;
      apiGet<FilesResponse>('files')
        .then((files) => replaceChildren(this.datalist, files.paths.map((p) => h('option', { value: p }))))
        .catch(() => (this.filesLoaded = false));
    }
    const path = params.get('path');
    if (path && path !== this.shown) {
      this.path.value = path;
      void this.load(path);
    }
  }

  private async load(path: string): Promise<void> {
    this.shown = path;
    replaceChildren(this.content, h('p', { class: 'muted' }, `Loading ${path}…`));
    try {
      const outline = await apiGet<OutlineResponse>('symbols', { path });
      if (this.shown === path) this.render(outline);
    } catch (error) {
      if (this.shown === path) replaceChildren(this.content, errorBox(messageOf(error)));
      // Let the same path be retried after an error.
      this.shown = '';
    }
  }

  private render(outline: OutlineResponse): void {
    const fileLinks = (paths: string[]): Child =>
      paths.length === 0 ? h('span', { class: 'muted' }, 'none') : paths.map((p, i) => [i > 0 ? ', ' : '', linkButton(p, () => nav().openOutline(p), { class: 'file-link' })]);
    const facts = [outline.language, outline.lineCount !== null ? `${outline.lineCount} lines` : null, `${outline.symbols.length} symbols`].filter(Boolean).join(', ');
    const status = outline.status === 'ok' ? null : h('p', { class: 'warning' }, `Parse status: ${outline.status}${outline.errorCount ? ` (${outline.errorCount} syntax errors)` : ''}; symbols may be missing.`);
    const header = h(
      'div',
      { class: 'panel outline-head' },
      h('h2', null, linkButton(outline.path, () => nav().openCode({ path: outline.path }), { class: 'code-path', title: 'Open the file' }), h('span', { class: 'muted small' }, ` ${facts}`)),
      status,
      h('dl', { class: 'facts' },
        h('dt', null, 'imports'), h('dd', { class: 'mono' }, outline.imports.length ? outline.imports.join(', ') : h('span', { class: 'muted' }, 'none')),
        h('dt', null, 'imports →'), h('dd', { id: 'imports-files' }, fileLinks(outline.importsFiles)),
        h('dt', null, 'imported by ←'), h('dd', { id: 'imported-by' }, fileLinks(outline.importedBy)),
      ),
    );
    const tree = outline.symbols.length
      ? h('div', { class: 'panel outline', id: 'outline' }, this.tree(outline))
      : h('p', { class: 'muted panel' }, 'No symbols in this file.');
    const agentText = h('details', { class: 'panel' }, h('summary', null, 'list_symbols text (what the agent reads)'), h('pre', { class: 'scaffold' }, outline.text));
    replaceChildren(this.content, header, tree, agentText);
  }

  /** Nests symbols by parent (document order kept); orphans of a missing parent stay top level. */
  private tree(outline: OutlineResponse): HTMLElement {
    const known = new Set(outline.symbols.map((s) => s.qualifiedName));
    const children = new Map<string | null, OutlineSymbol[]>();
    for (const s of outline.symbols) {
      const parent = s.parent !== null && known.has(s.parent) && s.parent !== s.qualifiedName ? s.parent : null;
      children.set(parent, [...(children.get(parent) ?? []), s]);
    }
    const seen = new Set<OutlineSymbol>();
    const build = (parent: string | null, depth: number): HTMLElement =>
      h('ul', { class: depth === 0 ? 'outline-list root' : 'outline-list' }, (children.get(parent) ?? []).filter((s) => !seen.has(s)).map((s) => {
        seen.add(s);
        return h('li', null, this.entry(outline.path, s, children.has(s.qualifiedName) ? build(s.qualifiedName, depth + 1) : null));
      }));
    return build(null, 0);
  }

  private entry(path: string, s: OutlineSymbol, nested: HTMLElement | null): HTMLElement {
    const openSymbol = (name: string) => nav().openCode({ path, symbol: name });
    const names = (list: string[]) => list.map((n, i) => [i > 0 ? ', ' : '', linkButton(n, () => openSymbol(n))]);
    const edges = [
      s.invokes.length ? h('div', { class: 'edge' }, h('span', { class: 'edge-label' }, 'calls →'), names(s.invokes)) : null,
      s.invokedBy.length ? h('div', { class: 'edge' }, h('span', { class: 'edge-label' }, 'called by ←'), names(s.invokedBy)) : null,
      s.bases.length ? h('div', { class: 'edge' }, h('span', { class: 'edge-label' }, 'bases'), s.bases.join(', ')) : null,
    ];
    const summary = h(
      'summary',
      null,
      h('span', { class: `kind kind-${s.kind}` }, s.kind),
      h('span', { class: 'name' }, s.name),
      linkButton(`L${s.startLine}-${s.endLine}`, () => nav().openCode({ path, start: s.startLine, end: s.endLine, symbol: s.qualifiedName }), {
        class: 'span-badge outline-span',
        title: `Open ${path}:${s.startLine}-${s.endLine}`,
      }),
      h('code', { class: 'signature' }, s.signature),
    );
    const body = h('div', { class: 'entry-body' }, s.doc ? h('div', { class: 'doc' }, s.doc) : null, edges, nested);
    return h('details', { class: 'symbol', open: true, 'data-symbol': s.qualifiedName }, summary, body);
  }
}
