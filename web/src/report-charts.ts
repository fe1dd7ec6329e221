/**
 * The two SVG charts of the Reports view: grouped vertical bars (one group
 * per metric, one bar per run) and a gap chart (one row per run, a line
 * from function Acc@5 up to file Acc@5 labelled with the difference).
 */
import { h, svg } from './dom.js';

/** Colours of runs, in loading order. */
export const RUN_COLOURS = ['#2563eb', '#f59e0b', '#10b981', '#db2777', '#7c3aed', '#0891b2'];

export interface Series {
  label: string;
  colour: string;
}

export interface BarGroup {
  /** Shown under the group, e.g. `Acc@5`. */
  label: string;
  /** A second line shared by neighbouring groups, e.g. the level `file`. */
  band?: string;
  /** One value per series (null: not reported). */
  values: Array<number | null>;
}

/** Grouped bars on a 0–`max` axis; each bar carries its value as a label and a tooltip. */
export function groupedBars(groups: readonly BarGroup[], series: readonly Series[], options: { max: number; digits?: number; id?: string; title: string }): SVGSVGElement {
  const digits = options.digits ?? 3;
  const barWidth = series.length > 3 ? 16 : 30;
  // Wide enough for the bars and for the group's label (about 6.6 px per character at 11 px).
  const groupWidths = groups.map((g) => Math.max(series.length * barWidth + 28, g.label.length * 6.6 + 16));
  const groupX = groupWidths.map((_, i) => groupWidths.slice(0, i).reduce((a, b) => a + b, 0));
  const left = 40;
  const top = 16;
  const plotHeight = 180;
  const hasBands = groups.some((g) => g.band);
  const width = left + groupWidths.reduce((a, b) => a + b, 0) + 10;
  const height = top + plotHeight + (hasBands ? 46 : 26);
  const y = (v: number) => top + plotHeight - (Math.max(0, Math.min(options.max, v)) / options.max) * plotHeight;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * options.max);
  const grid = ticks.map((t) => [
    svg('line', { x1: left, x2: width - 6, y1: y(t), y2: y(t), class: 'grid' }),
    svg('text', { x: left - 6, y: y(t) + 4, 'text-anchor': 'end', class: 'axis' }, t.toFixed(options.max > 1 ? 0 : 2)),
  ]);
  const bars = groups.map((group, g) => {
    const x0 = left + groupX[g]! + (groupWidths[g]! - series.length * barWidth) / 2;
    const rects = group.values.map((value, s) => {
      if (value === null) return null;
      const x = x0 + s * barWidth;
      const label = value.toFixed(digits).replace(/^0\./, '.');
      return svg(
        'g',
        { class: 'bar', 'data-series': series[s]!.label, 'data-metric': group.band ? `${group.band} ${group.label}` : group.label },
        svg('title', null, `${series[s]!.label} — ${group.band ? `${group.band} ` : ''}${group.label}: ${value.toFixed(digits)}`),
        svg('rect', { x: x + 2, y: y(value), width: barWidth - 4, height: Math.max(0.5, top + plotHeight - y(value)), fill: series[s]!.colour, rx: 2 }),
        svg('text', { x: x + barWidth / 2, y: y(value) - 3, 'text-anchor': 'middle', class: 'bar-value' }, label),
      );
    });
    return svg(
      'g',
      null,
      rects,
      svg('text', { x: left + groupX[g]! + groupWidths[g]! / 2, y: top + plotHeight + 16, 'text-anchor': 'middle', class: 'axis group-label' }, group.label),
    );
  });
  // Band labels centred under each run of neighbouring groups with the same band, with a bracket.
  const bands: SVGElement[] = [];
  for (let i = 0; i < groups.length; ) {
    let j = i;
    while (j + 1 < groups.length && groups[j + 1]!.band === groups[i]!.band) j++;
    const band = groups[i]!.band;
    if (band) {
      const x1 = left + groupX[i]! + 6;
      const x2 = left + groupX[j]! + groupWidths[j]! - 6;
      const by = top + plotHeight + 24;
      bands.push(svg('path', { d: `M${x1},${by - 3} V${by} H${x2} V${by - 3}`, class: 'band-line' }));
      bands.push(svg('text', { x: (x1 + x2) / 2, y: by + 14, 'text-anchor': 'middle', class: 'band-label' }, band));
    }
    i = j + 1;
  }
  return svg(
    'svg',
    { class: 'chart', ...(options.id ? { id: options.id } : {}), width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': options.title },
    svg('title', null, options.title),
    grid,
    svg('line', { x1: left, x2: width - 6, y1: top + plotHeight, y2: top + plotHeight, class: 'baseline' }),
    bars,
    bands,
  );
}

export interface GapRow {
  series: Series;
  file: number | null;
  func: number | null;
}

/** One row per run on a 0–1 axis: function Acc@5 ● — ● file Acc@5, the gap written beside it. */
export function gapChart(rows: readonly GapRow[]): SVGSVGElement {
  const left = 150;
  const plotWidth = 360;
  const rowHeight = 30;
  const width = left + plotWidth + 90;
  const height = rows.length * rowHeight + 34;
  const x = (v: number) => left + Math.max(0, Math.min(1, v)) * plotWidth;
  const axis = [0, 0.25, 0.5, 0.75, 1].map((t) => [
    svg('line', { x1: x(t), x2: x(t), y1: 6, y2: height - 22, class: 'grid' }),
    svg('text', { x: x(t), y: height - 8, 'text-anchor': 'middle', class: 'axis' }, t.toFixed(2)),
  ]);
  const lines = rows.map((row, i) => {
    const cy = 16 + i * rowHeight;
    const label = svg('text', { x: left - 10, y: cy + 4, 'text-anchor': 'end', class: 'axis' }, row.series.label.length > 22 ? `${row.series.label.slice(0, 21)}…` : row.series.label);
    if (row.file === null || row.func === null) return svg('g', null, label, svg('text', { x: left, y: cy + 4, class: 'axis' }, 'not reported'));
    const gap = row.file - row.func;
    return svg(
      'g',
      { class: 'gap-row', 'data-series': row.series.label },
      svg('title', null, `${row.series.label}: file Acc@5 ${row.file.toFixed(3)}, function Acc@5 ${row.func.toFixed(3)}, gap ${gap.toFixed(3)}`),
      label,
      svg('line', { x1: x(row.func), x2: x(row.file), y1: cy, y2: cy, stroke: row.series.colour, 'stroke-width': 4, 'stroke-linecap': 'round' }),
      svg('circle', { cx: x(row.func), cy, r: 6, fill: '#fff', stroke: row.series.colour, 'stroke-width': 2.5 }),
      svg('circle', { cx: x(row.file), cy, r: 6, fill: row.series.colour }),
      svg('text', { x: x(Math.max(row.file, row.func)) + 12, y: cy + 4, class: 'bar-value' }, `gap ${gap.toFixed(3)}`),
    );
  });
  return svg('svg', { class: 'chart', id: 'gap-chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'File-to-function gap' }, axis, lines);
}

/** The run colour legend. */
export function seriesLegend(series: readonly Series[]): HTMLElement {
  return h('div', { class: 'legend' }, series.map((s) => h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${s.colour}` }), s.label)));
}
