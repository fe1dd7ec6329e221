/**
 * Markdown of an {@link AnalysisDocument}: one section per analysis, tables
 * in the papers' layout, the defaults marked, and what was left out.
 */
import { renderComparisonMarkdown } from '../compare-runs.js';
import type { AnalysisDocument } from './analyze-runs.js';
import { STRATA_METRICS } from './complexity-strata.js';
import { countOf } from '../../plural.js';

const f3 = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? '' : value.toFixed(3));
const f1 = (value: number | null | undefined) => (value === null || value === undefined ? '' : value.toFixed(1));
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '±') + Math.abs(value).toFixed(3);

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

const MISS_LABELS: Record<string, string> = {
  'no-prediction': 'no prediction',
  'wrong-qualifier': 'same name, wrong class/qualifier',
  'wrong-function': 'correct file, wrong function',
  'wrong-file': 'wrong file',
};

/** The whole analysis as Markdown (sections in the order of the issue). */
export function renderAnalysisMarkdown(doc: AnalysisDocument): string {
  const out: string[] = ['# Analysis', ''];
  out.push(...table(['run', 'mode', 'instances', ''], doc.runs.map((r) => [r.label, r.mode, String(r.instances), r.baseline ? 'baseline' : ''])), '');

  out.push('## 1. Paired comparison', '');
  if (doc.comparisons.length === 0) out.push('No baseline (`--against`) given.', '');
  for (const comparison of doc.comparisons) out.push(renderComparisonMarkdown(comparison).replace(/^## /, '### '));

  out.push('## 2. Failure taxonomy (function-level misses)', '');
  for (const t of doc.taxonomies) {
    out.push(`### ${t.label}`, '', `${t.misses} of ${t.goldFunctions} gold functions missed in the top ${t.k} predicted functions.`, '');
    const viewed = t.classes.some((c) => c.viewed !== null);
    out.push(
      ...table(
        ['class', 'misses', 'share', ...(viewed ? ['gold file viewed'] : [])],
        t.classes.map((c) => [MISS_LABELS[c.missClass] ?? c.missClass, String(c.count), pct(c.share), ...(viewed ? [`${c.viewed ?? 0} of ${c.count}`] : [])]),
      ),
      '',
    );
  }

  out.push('## 3. Parameter sweeps (file level, from recorded raw chunk hits)', '');
  if (doc.sweeps.length === 0) out.push('No run recorded raw chunk hits.', '');
  for (const s of doc.sweeps) {
    out.push(
      `### ${s.label}`,
      '',
      `${countOf(s.instances, 'instance')}, ${countOf(s.recordedDepth, 'raw hit')} recorded per instance` +
        (s.withoutHits ? `, ${s.withoutHits} without recorded hits left out` : '') +
        `; the recomputed default reproduces the run's own top-5 files on ${s.reproduction.matchingTop5} of ${s.reproduction.of}. ` +
        'One parameter varies at a time, the others at their defaults (α 0.5, depth 80, m 3); * marks the default.',
      '',
    );
    const names = { alpha: 'α', depth: 'depth', m: 'm' } as const;
    out.push(
      ...table(
        ['parameter', 'value', 'Acc@1', 'Acc@5', 'MRR', 'Recall@10'],
        s.rows.map((r) => [
          names[r.parameter],
          `${r.value}${r.isDefault ? ' *' : ''}`,
          ...(r.computed ? [f3(r.acc1), f3(r.acc5), f3(r.mrr), f3(r.recall10)] : ['n/a', 'n/a', 'n/a', 'n/a']),
        ]),
      ),
      '',
    );
  }

  out.push('## 4. Complexity strata (median splits of the gold file)', '');
  if (!doc.strata) out.push('Not computed (needs `--repos`).', '');
  else {
    const labels = doc.runs.filter((r) => r.mode !== 'sweqa').map((r) => r.label);
    out.push(`${countOf(doc.strata.instances, 'instance')} with gold-file facts` + (doc.strata.withoutFacts ? ` (${doc.strata.withoutFacts} without, left out)` : '') + '.', '');
    const metricKeys = STRATA_METRICS.map((m) => `${m.level} ${m.metric}`);
    const header = ['feature', 'half', 'n', ...labels.flatMap((label) => metricKeys.map((key) => `${label} ${key}`)), ...labels.slice(1).flatMap((label) => metricKeys.map((key) => `Δ ${label} ${key}`))];
    const rows: string[][] = [];
    for (const split of doc.strata.splits) {
      for (const stratum of split.strata) {
        rows.push([
          split.feature,
          stratum.range,
          String(stratum.n),
          ...labels.flatMap((label) => metricKeys.map((key) => f3(stratum.runs[label]?.[key]))),
          ...labels.slice(1).flatMap((label) => metricKeys.map((key) => signed(stratum.gains[label]?.[key] ?? 0))),
        ]);
      }
    }
    out.push(...table(header, rows), '');
  }

  out.push('## 5. Evidence funnel (agent mode)', '');
  if (doc.funnels.length === 0) out.push('No agent-mode run with trajectories.', '');
  for (const funnel of doc.funnels) {
    out.push(
      `### ${funnel.label}`,
      '',
      `${countOf(funnel.instances, 'instance')} with a trajectory` + (funnel.missingTraces ? ` (${funnel.missingTraces} without, left out)` : '') + '; each stage counts the instances that also passed the previous ones.',
      '',
      ...table(
        ['stage', 'instances', 'rate', 'conditional on previous'],
        funnel.stages.map((s) => [s.stage, String(s.count), f3(s.rate), f3(s.conditional)]),
      ),
      '',
      ...table(
        ['list_symbols use rate', 'steps / instance', 'tokens / instance', 'seconds / instance'],
        [[f3(funnel.listSymbolsRate), f1(funnel.meanSteps), String(Math.round(funnel.meanTokens)), f1(funnel.meanSeconds)]],
      ),
      '',
    );
  }

  out.push('## 6. Question answering: score against the iteration budget', '');
  if (!doc.sweqa) out.push('No `eval sweqa` run given.', '');
  else {
    out.push(
      ...table(
        ['run', 'method', 'iterations', 'scored', 'total', 'correctness', 'completeness', 'relevance', 'clarity', 'reasoning', 'tokens / answer', 'USD / answer'],
        doc.sweqa.rows.map((r) => [
          r.label,
          r.method,
          String(r.iterations),
          String(r.scored),
          f1(r.total),
          f1(r.dimensions.correctness),
          f1(r.dimensions.completeness),
          f1(r.dimensions.relevance),
          f1(r.dimensions.clarity),
          f1(r.dimensions.reasoning),
          r.meanTokensPerAnswer === null ? '' : String(Math.round(r.meanTokensPerAnswer)),
          r.meanUsdPerAnswer === null ? '' : r.meanUsdPerAnswer.toFixed(4),
        ]),
      ),
      '',
    );
  }

  if (doc.notes.length > 0) out.push('## Left out', '', ...doc.notes.map((note) => `- ${note}`), '');
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
