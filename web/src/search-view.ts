/**
 * Search: a query in, the RepoNav scaffold out (as the agent reads it), and
 * beside it the ranked files, the candidate targets of the expanded files
 * and the ranked functions. Every target opens the code at its span.
 */
import type { SearchResponse } from '../../src/http-api/api-types.js';
import { apiGet, messageOf } from './api.js';
import { errorBox, fmt, h, linkButton, replaceChildren } from './dom.js';
import { hashFor, nav } from './navigation.js';
import { renderScaffoldText } from './scaffold-text.js';

export class SearchView {
  readonly element: HTMLElement;
  private readonly query = h('textarea', {
    id: 'search-query',
    name: 'q',
    rows: 2,
    placeholder: 'An issue text, an error message, or a few words and identifiers…',
    'aria-label': 'Query',
  });
  private readonly pattern = h('input', { id: 'search-pattern', name: 'file_pattern', placeholder: 'file pattern (optional), e.g. src/**/*.py', 'aria-label': 'File pattern' });
  private readonly results = h('div', { class: 'search-results' });
  private lastQuery = '';

  constructor() {
    const form = h(
      'form',
      {
        class: 'search-form',
        onsubmit: (event: SubmitEvent) => {
          event.preventDefault();
          this.submit();
        },
      },
      this.query,
      h('div', { class: 'row' }, this.pattern, h('button', { type: 'submit', id: 'search-button' }, 'Search')),
    );
    this.query.addEventListener('keydown', (event: KeyboardEvent) => {
      // Enter searches; Shift+Enter keeps a newline for pasted issue texts.
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        this.submit();
      }
    });
    this.element = h('section', { id: 'view-search', class: 'view' }, form, this.results);
    replaceChildren(this.results, h('p', { class: 'muted hint' }, 'Type a query and press Enter. Click a target to read its code; click a file to see its outline.'));
  }

  /** Applies route parameters (a bookmarked `#/search?q=`). */
  route(params: URLSearchParams): void {
    const q = params.get('q') ?? '';
    const pattern = params.get('file_pattern') ?? '';
    if (q && `${q}\u0000${pattern}` !== this.lastQuery) {
      this.query.value = q;
      this.pattern.value = pattern;
      void this.run(q, pattern);
    }
  }

  private submit(): void {
    const q = this.query.value.trim();
    if (!q) {
      replaceChildren(this.results, errorBox('Type a query first.'));
      return;
    }
    const params: Record<string, string> = { q };
    if (this.pattern.value.trim()) params.file_pattern = this.pattern.value.trim();
    const hash = hashFor('search', params);
    // Same hash: hashchange would not fire, so run directly.
    if (location.hash === hash) void this.run(q, this.pattern.value.trim());
    else location.hash = hash;
  }

  private async run(q: string, pattern: string): Promise<void> {
    this.lastQuery = `${q}\u0000${pattern}`;
    replaceChildren(this.results, h('p', { class: 'muted' }, 'Searching…'));
    try {
      const result = await apiGet<SearchResponse>('search', { q, file_pattern: pattern });
      if (this.lastQuery === `${q}\u0000${pattern}`) this.render(result);
    } catch (error) {
      replaceChildren(this.results, errorBox(messageOf(error)));
    }
  }

  private render(result: SearchResponse): void {
    const scaffoldColumn = h(
      'div',
      { class: 'panel scaffold-panel' },
      h('h2', null, 'Scaffold ', h('span', { class: 'muted small' }, '(what the agent reads)')),
      renderScaffoldText(result.text),
    );
    replaceChildren(this.results, h('div', { class: 'two-columns' }, scaffoldColumn, h('div', { class: 'side' }, this.targets(result), this.files(result), this.functions(result))));
  }

  private files(result: SearchResponse): HTMLElement {
    const items = result.files.map((file, i) =>
      h(
        'li',
        null,
        h('span', { class: 'rank' }, String(i + 1)),
        linkButton(file.path, () => nav().openOutline(file.path), { class: 'file-link', title: 'Open the outline' }),
        h('span', { class: 'score' }, `${fmt(file.score)} · ${file.evidence} hit${file.evidence === 1 ? '' : 's'}`),
        linkButton('code', () => nav().openCode({ path: file.path }), { class: 'small', title: 'Open the file' }),
      ),
    );
    return h('div', { class: 'panel' }, h('h2', null, 'Ranked files'), items.length ? h('ol', { class: 'ranked', id: 'ranked-files' }, items) : h('p', { class: 'muted' }, 'No file matched.'));
  }

  private targets(result: SearchResponse): HTMLElement {
    const blocks = result.scaffold.files
      .filter((file) => file.expanded && (file.targets?.length ?? 0) > 0)
      .map((file) =>
        h(
          'div',
          { class: 'target-file' },
          h('div', { class: 'target-path' }, `${file.rank}. ${file.path}`),
          h(
            'ul',
            { class: 'targets' },
            (file.targets ?? []).map((t) =>
              h(
                'li',
                null,
                linkButton(
                  [h('span', { class: 'name' }, t.qualifiedName), h('span', { class: 'span-badge' }, `L${t.startLine}-${t.endLine}`)],
                  () => nav().openCode({ path: file.path, start: t.startLine, end: t.endLine, symbol: t.qualifiedName }),
                  { class: 'target', title: `${file.path}:${t.startLine}-${t.endLine}` },
                ),
                h('span', { class: `kind kind-${t.kind}` }, t.kind),
                h('span', { class: 'muted small' }, ` via ${t.source}`),
              ),
            ),
          ),
        ),
      );
    return h('div', { class: 'panel' }, h('h2', null, 'Candidate targets'), blocks.length ? blocks : h('p', { class: 'muted' }, 'No candidate targets.'));
  }

  private functions(result: SearchResponse): HTMLElement {
    const items = result.functions.map((f, i) =>
      h(
        'li',
        null,
        h('span', { class: 'rank' }, String(i + 1)),
        linkButton(
          [h('span', { class: 'name' }, f.qualifiedName), h('span', { class: 'muted small' }, ` ${f.path}`)],
          () => nav().openCode({ path: f.path, start: f.startLine ?? undefined, end: f.endLine ?? undefined, symbol: f.qualifiedName }),
          { class: 'function-link' },
        ),
        h('span', { class: 'score' }, fmt(f.score)),
      ),
    );
    return h('div', { class: 'panel' }, h('h2', null, 'Ranked functions'), items.length ? h('ol', { class: 'ranked' }, items) : h('p', { class: 'muted' }, 'No function ranked.'));
  }
}
