/**
 * The SWE-QA part of the Reports view: mean judge scores per dimension
 * (1–20) as bars, totals, counts and cost, and the per-question-type table.
 */
import type { SweqaSummary } from '../../src/eval/sweqa/sweqa-report.js';
import { fmt, h } from './dom.js';
import { groupedBars, seriesLegend, type Series } from './report-charts.js';

export interface SweqaRun {
  series: Series;
  summary: SweqaSummary;
}

/** The dimensions in the order the judge prompt lists them (eval/sweqa/judge-parser.ts). */
const DIMENSIONS = ['correctness', 'completeness', 'relevance', 'clarity', 'reasoning'] as const;

function runHeader(runs: readonly SweqaRun[], first: string): HTMLElement {
  return h('tr', null, h('th', null, first), runs.map((r) => h('th', { class: 'run-head', style: `border-bottom-color:${r.series.colour}` }, r.series.label)));
}

/** The SWE-QA section for the given runs (at least one). */
export function sweqaSection(runs: readonly SweqaRun[]): HTMLElement {
  const groups = DIMENSIONS.map((d) => ({ label: d, values: runs.map((r) => r.summary.mean?.[d] ?? null) }));
  const facts: Array<[string, (s: SweqaSummary) => string]> = [
    ['mean total (0–100)', (s) => fmt(s.mean?.total ?? null, 2)],
    ['method · model', (s) => `${s.config.method} · ${s.config.model}`],
    ['questions', (s) => String(s.counts.questions)],
    ['scored', (s) => String(s.counts.ok)],
    ['errors / skipped / budget', (s) => `${s.counts.errors} / ${s.counts.skipped} / ${s.counts.budget}`],
    ['answer length vs score (r)', (s) => fmt(s.lengthVsScore?.pearson ?? null, 2)],
    ['tokens per question', (s) => fmt(s.cost?.meanTokensPerQuestion ?? null, 0)],
    ['cost (answers + judges)', (s) => (s.cost ? `$${s.cost.totalUsd.toFixed(4)}` : '–')],
  ];
  const types = [...new Set(runs.flatMap((r) => r.summary.byType.map((t) => t.qtype)))];
  const typeRows = types.map((qtype) =>
    h(
      'tr',
      null,
      h('td', null, qtype),
      runs.map((r) => {
        const t = r.summary.byType.find((x) => x.qtype === qtype);
        return h('td', { class: 'num' }, t && t.n > 0 ? `${fmt(t.mean?.total ?? null, 1)} (n=${t.n})` : '–');
      }),
    ),
  );
  return h(
    'section',
    { class: 'sweqa' },
    h('div', { class: 'panel' }, h('h2', null, 'SWE-QA — mean score per dimension'), seriesLegend(runs.map((r) => r.series)), groupedBars(groups, runs.map((r) => r.series), { max: 20, digits: 1, id: 'sweqa-chart', title: 'Mean judge score per dimension' })),
    h(
      'div',
      { class: 'two-columns' },
      h('div', { class: 'panel' }, h('h2', null, 'Totals'), h('table', { class: 'metrics' }, h('thead', null, runHeader(runs, '')), h('tbody', null, facts.map(([label, get]) => h('tr', null, h('td', null, label), runs.map((r) => h('td', { class: 'num' }, get(r.summary)))))))),
      h('div', { class: 'panel' }, h('h2', null, 'Per question type ', h('span', { class: 'muted small' }, '(mean total)')), h('table', { class: 'metrics', id: 'sweqa-types' }, h('thead', null, runHeader(runs, 'type')), h('tbody', null, typeRows))),
    ),
  );
}
