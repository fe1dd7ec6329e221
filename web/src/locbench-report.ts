/**
 * The LocBench part of the Reports view: Acc@k bars per level, the
 * file-to-function gap, the metric table (deltas against the first run),
 * counts, and per-category / per-repo breakdowns side by side.
 */
import type { GroupSummary, LocbenchSummary } from '../../src/eval/report.js';
import { LEVEL_KS, LOC_LEVELS, type LocLevel } from '../../src/eval/locbench-metrics.js';
import { fmt, h, type Child } from './dom.js';
import { gapChart, groupedBars, seriesLegend, type Series } from './report-charts.js';

export interface LocbenchRun {
  series: Series;
  summary: LocbenchSummary;
}

function score(summary: Pick<LocbenchSummary, 'metrics'>, level: LocLevel, key: string): number | null {
  const value = summary.metrics?.[level]?.scores?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `0.591 (+0.045)` against the first run's value. */
function withDelta(value: number | null, base: number | null, isBase: boolean): Child {
  if (value === null) return '–';
  if (isBase || base === null) return fmt(value);
  const delta = value - base;
  const cls = delta > 0.0005 ? 'delta up' : delta < -0.0005 ? 'delta down' : 'delta';
  return [fmt(value), ' ', h('span', { class: cls }, `(${delta >= 0 ? '+' : ''}${delta.toFixed(3)})`)];
}

function runHeader(runs: readonly LocbenchRun[], first: string): HTMLElement {
  return h('tr', null, h('th', null, first), runs.map((r) => h('th', { class: 'run-head', style: `border-bottom-color:${r.series.colour}` }, r.series.label)));
}

function metricTable(runs: readonly LocbenchRun[]): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const level of LOC_LEVELS) {
    for (const name of ['Acc', 'Recall', 'NDCG']) {
      for (const k of LEVEL_KS[level]) {
        const key = `${name}@${k}`;
        const base = score(runs[0]!.summary, level, key);
        rows.push(h('tr', null, h('td', null, `${level} ${key}`), runs.map((r, i) => h('td', { class: 'num' }, withDelta(score(r.summary, level, key), base, i === 0)))));
      }
    }
  }
  const baseGap = runs[0]!.summary.fileToFunctionGap;
  rows.push(h('tr', { class: 'gap-row' }, h('td', null, 'file→function gap @5'), runs.map((r, i) => h('td', { class: 'num' }, withDelta(r.summary.fileToFunctionGap, baseGap, i === 0)))));
  return h('table', { class: 'metrics', id: 'metric-table' }, h('thead', null, runHeader(runs, 'metric')), h('tbody', null, rows));
}

function countsTable(runs: readonly LocbenchRun[]): HTMLElement {
  const facts: Array<[string, (s: LocbenchSummary) => string]> = [
    ['instances scored', (s) => String(s.counts?.instances ?? '–')],
    ['with predictions', (s) => String(s.counts?.withPrediction ?? '–')],
    ['without (misses)', (s) => String(s.counts?.missingPrediction ?? '–')],
    ['skipped', (s) => String(s.counts?.skipped ?? 0)],
    ['interrupted', (s) => (s.interrupted ? 'yes (partial)' : 'no')],
    ['reponav', (s) => (s.reponav?.revision ? `${s.reponav.revision}${s.reponav.dirty ? '-dirty' : ''}` : '–')],
    ['created', (s) => (s.createdAt ? s.createdAt.replace('T', ' ').slice(0, 19) : '–')],
    ['config', (s) => (s.config ? JSON.stringify(s.config) : '–')],
  ];
  return h(
    'table',
    { class: 'metrics' },
    h('thead', null, runHeader(runs, '')),
    h('tbody', null, facts.map(([label, get]) => h('tr', null, h('td', null, label), runs.map((r) => h('td', { class: label === 'config' ? 'mono small' : 'num' }, get(r.summary)))))),
  );
}

/** Categories (or repos) × runs: n, file Acc@5, function Acc@5, gap for each run. */
function breakdownTable(runs: readonly LocbenchRun[], pick: (s: LocbenchSummary) => Record<string, GroupSummary> | undefined, title: string, id: string): HTMLElement {
  const names = [...new Set(runs.flatMap((r) => Object.keys(pick(r.summary) ?? {})))].sort();
  const columns = ['n', 'file Acc@5', 'func Acc@5', 'gap'];
  const head = [
    h('tr', null, h('th', { rowspan: 2 }, title), runs.map((r) => h('th', { colspan: columns.length, class: 'run-head', style: `border-bottom-color:${r.series.colour}` }, r.series.label))),
    h('tr', null, runs.map(() => columns.map((c) => h('th', { class: 'sub' }, c)))),
  ];
  const body = names.map((name) =>
    h(
      'tr',
      null,
      h('td', null, name),
      runs.map((r) => {
        const g = pick(r.summary)?.[name];
        if (!g) return columns.map(() => h('td', { class: 'num muted' }, '–'));
        return [
          h('td', { class: 'num' }, String(g.instances)),
          h('td', { class: 'num' }, fmt(score(g, 'file', 'Acc@5'))),
          h('td', { class: 'num' }, fmt(score(g, 'function', 'Acc@5'))),
          h('td', { class: 'num' }, fmt(g.fileToFunctionGap)),
        ];
      }),
    ),
  );
  if (names.length === 0) return h('p', { class: 'muted' }, `No ${title} breakdown in these summaries.`);
  return h('table', { class: 'metrics', id }, h('thead', null, head), h('tbody', null, body));
}

/** The whole LocBench section for the given runs (at least one). */
export function locbenchSection(runs: readonly LocbenchRun[]): HTMLElement {
  const groups = LOC_LEVELS.flatMap((level) => LEVEL_KS[level].map((k) => ({ label: `Acc@${k}`, band: level, values: runs.map((r) => score(r.summary, level, `Acc@${k}`)) })));
  const series = runs.map((r) => r.series);
  const gapRows = runs.map((r) => ({ series: r.series, file: score(r.summary, 'file', 'Acc@5'), func: score(r.summary, 'function', 'Acc@5') }));
  return h(
    'section',
    { class: 'locbench' },
    h('div', { class: 'panel' }, h('h2', null, 'LocBench — Acc@k per level'), seriesLegend(series), groupedBars(groups, series, { max: 1, id: 'acc-chart', title: 'Acc@k per level and run' })),
    h(
      'div',
      { class: 'two-columns' },
      h('div', { class: 'panel' }, h('h2', null, 'File-to-function gap ', h('span', { class: 'muted small' }, '(○ function Acc@5 → ● file Acc@5)')), gapChart(gapRows)),
      h('div', { class: 'panel' }, h('h2', null, 'Counts'), countsTable(runs)),
    ),
    h('div', { class: 'panel' }, h('h2', null, 'Metrics', runs.length > 1 ? h('span', { class: 'muted small' }, ` (deltas against ${runs[0]!.series.label})`) : null), metricTable(runs)),
    h('div', { class: 'panel' }, h('h2', null, 'Per category'), breakdownTable(runs, (s) => s.byCategory, 'category', 'category-table')),
    h('details', { class: 'panel' }, h('summary', null, 'Per repository'), breakdownTable(runs, (s) => s.byRepo, 'repository', 'repo-table')),
  );
}
