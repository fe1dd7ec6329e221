/**
 * Overview: the repository map (repo_map: files ranked by import/call
 * centrality with their key symbols, optionally centred on a focus) beside
 * the changed files (changed_files: working tree against HEAD, or between two
 * revisions, with the symbols each change added, removed or modified). Files
 * open their outline, symbols and changes open the code.
 */
import type { ChangesResponse, MapResponse } from '../../src/http-api/api-types.js';
import { apiGet, messageOf } from './api.js';
import { errorBox, h, linkButton, replaceChildren } from './dom.js';
import { hashFor, nav } from './navigation.js';

const MARK = { added: '+', removed: '−', modified: '~' } as const;

export class OverviewView {
  readonly element: HTMLElement;
  private readonly focus = h('input', { id: 'map-focus', name: 'focus', placeholder: 'focus (optional): files or symbols, comma-separated', 'aria-label': 'Map focus' });
  private readonly from = h('input', { id: 'changes-from', name: 'from', placeholder: 'from (default HEAD)', 'aria-label': 'From revision' });
  private readonly to = h('input', { id: 'changes-to', name: 'to', placeholder: 'to (default: working tree)', 'aria-label': 'To revision' });
  private readonly map = h('div', { class: 'panel', id: 'map-panel' });
  private readonly changes = h('div', { class: 'panel', id: 'changes-panel' });
  private shown: string | null = null;

  constructor() {
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      const params: Record<string, string> = {};
      for (const [key, input] of [['focus', this.focus], ['from', this.from], ['to', this.to]] as const) if (input.value.trim()) params[key] = input.value.trim();
      const hash = hashFor('overview', params);
      if (location.hash === hash) void this.load(new URLSearchParams(params));
      else location.hash = hash;
    };
    const mapForm = h('form', { class: 'row path-form', onsubmit: submit }, this.focus, h('button', { type: 'submit', id: 'map-button' }, 'Map'));
    const changesForm = h('form', { class: 'row path-form', onsubmit: submit }, this.from, this.to, h('button', { type: 'submit', id: 'changes-button' }, 'Changes'));
    this.element = h(
      'section',
      { id: 'view-overview', class: 'view' },
      h('div', { class: 'two-columns' }, h('div', null, mapForm, this.map), h('div', { class: 'side' }, changesForm, this.changes)),
    );
  }

  /** Applies route parameters (`#/overview?focus=&from=&to=`); loads both panels once per distinct route. */
  route(params: URLSearchParams): void {
    const key = params.toString();
    if (key === this.shown) return;
    this.focus.value = params.get('focus') ?? '';
    this.from.value = params.get('from') ?? '';
    this.to.value = params.get('to') ?? '';
    void this.load(params);
  }

  private async load(params: URLSearchParams): Promise<void> {
    const key = params.toString();
    this.shown = key;
    replaceChildren(this.map, h('p', { class: 'muted' }, 'Ranking files…'));
    replaceChildren(this.changes, h('p', { class: 'muted' }, 'Reading git…'));
    const focus = params.get('focus') ?? '';
    const mapCall = apiGet<MapResponse>('map', focus ? { focus } : {}).then(
      (map) => this.shown === key && this.renderMap(map),
      (error) => this.shown === key && replaceChildren(this.map, errorBox(messageOf(error))),
    );
    const revisions: Record<string, string> = {};
    for (const name of ['from', 'to']) if (params.get(name)) revisions[name] = params.get(name)!;
    const changesCall = apiGet<ChangesResponse>('changes', revisions).then(
      (changes) => this.shown === key && this.renderChanges(changes),
      (error) => this.shown === key && replaceChildren(this.changes, errorBox(messageOf(error))),
    );
    await Promise.all([mapCall, changesCall]);
  }

  private renderMap(map: MapResponse): void {
    const items = map.files.map((file) =>
      h(
        'li',
        { class: 'map-file' },
        h('span', { class: 'rank' }, String(file.rank)),
        h(
          'div',
          null,
          linkButton(file.path, () => nav().openOutline(file.path), { class: 'file-link' }),
          file.importedBy > 0 ? h('span', { class: 'muted small' }, ` imported by ${file.importedBy}`) : null,
          file.symbols.length > 0
            ? h(
                'ul',
                { class: 'targets' },
                file.symbols.map((s) =>
                  h('li', { class: 'symbol' }, linkButton(h('span', { class: 'name' }, s.signature || s.qualifiedName), () => nav().openCode({ path: file.path, start: s.startLine, end: s.endLine, symbol: s.qualifiedName }))),
                ),
              )
            : null,
        ),
      ),
    );
    const folders = map.folders.length > 0 ? h('p', { class: 'muted small' }, `Not shown: ${map.folders.map((f) => `${f.path}/ (${f.files})`).join(', ')}${map.foldersLeftOut > 0 ? ` and ${map.foldersLeftOut} more folders` : ''}.`) : null;
    const focus = map.focus.files.length > 0 ? ` centred on ${map.focus.files.length} file(s)` : '';
    replaceChildren(
      this.map,
      h('h2', null, `Map: ${map.files.length} of ${map.totalFiles} files${focus}`),
      map.focus.unresolved.length > 0 ? h('div', { class: 'warning' }, `Focus not found: ${map.focus.unresolved.join(', ')}`) : null,
      h('ol', { class: 'ranked', id: 'map-files' }, items),
      folders,
    );
  }

  private renderChanges(changes: ChangesResponse): void {
    const rows = changes.files.map((file) =>
      h(
        'tr',
        null,
        h('td', { class: 'muted small' }, changes.comparison.kind === 'worktree-head' ? file.area : ''),
        h('td', { class: 'small' }, file.status),
        h('td', null, file.status === 'deleted' ? h('span', { class: 'mono' }, file.path) : linkButton(file.path, () => nav().openCode({ path: file.path }), { class: 'file-link' })),
        h(
          'td',
          { class: 'mono small' },
          (file.symbols ?? []).map((s) =>
            s.change === 'removed' || file.status === 'deleted'
              ? h('span', { class: `change-${s.change}` }, `${MARK[s.change]}${s.qualifiedName} `)
              : linkButton(`${MARK[s.change]}${s.qualifiedName}`, () => nav().openCode({ path: file.path, start: s.startLine, end: s.endLine }), { class: `change-${s.change}` }),
          ),
        ),
      ),
    );
    replaceChildren(
      this.changes,
      h('h2', null, `Changes: ${changes.comparison.label}`),
      changes.total === 0 ? h('p', { class: 'muted' }, 'Nothing changed.') : h('table', { class: 'changes', id: 'changes-table' }, h('tbody', null, rows)),
      changes.filesLeftOut > 0 ? h('p', { class: 'muted small' }, `${changes.filesLeftOut} more files not listed.`) : null,
    );
  }
}
