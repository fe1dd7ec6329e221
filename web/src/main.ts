/**
 * The app shell: header with the repository and the five tabs, a status line
 * for indexing, the views (built once, kept while switching tabs) and the
 * code drawer. Routes live in the URL hash (`#/search?q=…`), so a view can
 * be bookmarked and the back button works.
 */
import './styles.css';
import type { InfoResponse } from '../../src/http-api/api-types.js';
import { apiGet, messageOf, onIndexingWait, setApiScope } from './api.js';
import { CodePanel } from './code-panel.js';
import { errorBox, h, replaceChildren } from './dom.js';
import { hashFor, parseHash, setNavigator, type ViewName } from './navigation.js';
import { OverviewView } from './overview-view.js';
import { ReportView } from './report-view.js';
import { SearchView } from './search-view.js';
import { SymbolsView } from './symbols-view.js';
import { teamHeader } from './team-header.js';
import { TraceView } from './trace-view.js';

interface View {
  element: HTMLElement;
  route(params: URLSearchParams): void;
}

const TABS: Array<[ViewName, string]> = [
  ['search', 'Search'],
  ['overview', 'Overview'],
  ['symbols', 'Symbols'],
  ['trace', 'Search trees'],
  ['reports', 'Reports'],
];

function start(): void {
  const root = document.getElementById('app')!;
  // On the team server the repository and a pinned commit live in the query string (?repo=&commit=).
  const query = new URLSearchParams(location.search);
  setApiScope(Object.fromEntries(['repo', 'commit'].flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : []))));
  const codePanel = new CodePanel();
  const views: Record<ViewName, View> = {
    search: new SearchView(),
    overview: new OverviewView(),
    symbols: new SymbolsView(),
    trace: new TraceView(),
    reports: new ReportView(),
  };
  const repoLabel = h('span', { class: 'repo', id: 'repo-name' });
  const status = h('div', { class: 'status', id: 'status', role: 'status', hidden: true });
  const tabs = TABS.map(([name, label]) => h('a', { href: hashFor(name), class: 'tab', 'data-view': name }, label));
  const header = h('header', { class: 'top' }, h('span', { class: 'brand' }, 'reponav'), repoLabel, h('nav', { class: 'tabs' }, tabs));
  const main = h('main', null, Object.values(views).map((v) => v.element));
  replaceChildren(root, header, status, main, codePanel.element);

  onIndexingWait((message) => {
    status.hidden = message === null;
    replaceChildren(status, message ?? '');
  });

  setNavigator({
    openCode: (target) => void codePanel.open(target),
    openOutline: (path) => {
      location.hash = hashFor('symbols', { path });
    },
    show: (view, params) => {
      location.hash = hashFor(view, params);
    },
  });

  const route = () => {
    const { view, params } = parseHash(location.hash);
    for (const [name, v] of Object.entries(views) as Array<[ViewName, View]>) v.element.hidden = name !== view;
    for (const tab of tabs) tab.classList.toggle('active', tab.dataset.view === view);
    views[view].route(params);
  };
  window.addEventListener('hashchange', route);
  route();

  apiGet<InfoResponse>('info')
    .then((info) => {
      if (info.team) return replaceChildren(repoLabel, teamHeader(info.team, query));
      const repo = info.repositories[0];
      replaceChildren(repoLabel, repo ? h('span', { title: repo.root }, repo.name) : '');
      document.title = repo ? `reponav — ${repo.name}` : 'reponav';
    })
    .catch((error) => {
      status.hidden = false;
      replaceChildren(status, errorBox(messageOf(error)));
    });
}

start();
