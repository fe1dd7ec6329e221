/**
 * The Reports view draws an `eval analyze` document (analysis.json) as
 * charts, in Chromium: paired-difference intervals, the failure taxonomy,
 * the α / depth / m sweeps, the complexity strata, the evidence funnel and
 * the SWE-QA budget curve. The document is computed here by analyzeRuns over
 * small recorded runs (retrieval runs with raw hits, an agent run with
 * trajectories, two SWE-QA summaries), so the page reads what the command writes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRuns, complexityStrata } from '../../src/eval/analyze/index.js';
import { loadRun } from '../../src/eval/analyze/load-run.js';
import type { LocbenchInstance } from '../../src/eval/locbench-instances.js';
import { writeRecordedRun } from '../helpers/recorded-runs.js';
import { browserRequired, chromiumProblem } from './chromium.js';
import { ensureWebBuild, FIXTURES, launchPage, screenshotDir, startFixtureServer, type FixtureServer } from './web-harness.js';

const skip = chromiumProblem() !== null && !browserRequired();
const shots = screenshotDir();
let fx: FixtureServer;
let browser: { page: Page; close(): Promise<void> };
let page: Page;
let dir: string;
let analysisPath: string;

const instances: LocbenchInstance[] = Array.from({ length: 6 }, (_, n) => ({
  instance_id: `i${n}`,
  repo: 'o/r',
  base_commit: 'a'.repeat(40),
  category: 'Bug Report',
  problem_statement: 'q',
  edit_functions: [`f${n}.py:fn${n}`],
}));

const writeRun = (name: string, lines: object[], config: Record<string, unknown>) => writeRecordedRun(dir, name, instances, join(dir, 'instances.jsonl'), lines, config);

async function makeAnalysis(): Promise<string> {
  writeFileSync(join(dir, 'instances.jsonl'), instances.map((i) => JSON.stringify(i)).join('\n'));
  const rawHits = (n: number) => [
    { path: 'x.py', symbol: 'big', score: 9 },
    { path: `f${n}.py`, symbol: `fn${n}`, score: 6 },
    { path: `f${n}.py`, symbol: 'other', score: 5.5 },
    { path: 'x.py', symbol: 'small', score: 0.5 },
  ];
  const line = (n: number, hit: boolean) => ({
    instance_id: `i${n}`,
    found_files: hit ? [`f${n}.py`] : ['x.py'],
    found_modules: [],
    found_entities: hit ? [`f${n}.py:fn${n}`] : n % 2 === 0 ? [`f${n}.py:other`] : ['x.py:big'],
    meta: { raw_hits: rawHits(n) },
  });
  const base = await writeRun('baseline', [0, 1, 2, 3, 4, 5].map((n) => line(n, n === 0)), { mode: 'retrieval', settings: { recordHits: 100 } });
  const better = await writeRun('better', [0, 1, 2, 3, 4, 5].map((n) => line(n, n < 4)), { mode: 'retrieval', settings: { recordHits: 100 } });
  const agent = await writeRun('agent', [0, 1, 2].map((n) => ({ ...line(n, n === 0), meta: {} })), { mode: 'agent', settings: {} });
  mkdirSync(join(agent, 'traces'));
  for (const n of [0, 1, 2]) {
    const steps = [
      { action: 'tool', tool: 'search', args: { query: 'q' }, observation: n < 2 ? `[FILE] f${n}.py` : '[FILE] x.py' },
      ...(n === 0 ? [{ action: 'tool', tool: 'list_symbols', args: { file: `f${n}.py` }, inspected: [`f${n}.py`] }] : []),
    ];
    writeFileSync(
      join(agent, 'traces', `i${n}.json`),
      JSON.stringify({ instanceId: `i${n}`, steps, stopReason: 'answered', stats: { steps: steps.length, totalTokens: 900, wallMs: 3000, listSymbolsUsed: n === 0, toolCalls: {} } }),
    );
  }
  const sweqaRuns = [2, 8].map((iterations) => {
    const folder = join(dir, `sweqa-it${iterations}`);
    mkdirSync(folder);
    const summary = JSON.parse(readFileSync(join(FIXTURES, 'sweqa-summary.json'), 'utf8')) as { config: { settings: Record<string, unknown> }; mean: { total: number } };
    summary.config.settings.iterations = iterations;
    summary.mean.total -= iterations === 2 ? 12 : 0;
    writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary));
    return folder;
  });
  const doc = await analyzeRuns({ runs: [better, agent, ...sweqaRuns], against: base, resamples: 1000 });
  // Strata need gold-file facts from commit indexes; here they are given.
  const facts = new Map(instances.map((i, n) => [i.instance_id, { functions: n < 3 ? 2 : 20, lines: 40 * (n + 1), siblings: n % 3 }]));
  doc.strata = complexityStrata(await Promise.all([base, better].map(async (run) => (await loadRun(run)).scores)), facts);
  const path = join(dir, 'analysis', 'analysis.json');
  mkdirSync(join(dir, 'analysis'));
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'reponav-analysis-web-'));
  analysisPath = await makeAnalysis();
  ensureWebBuild();
  fx = await startFixtureServer('tools-repo');
  browser = await launchPage();
  page = browser.page;
});
afterAll(async () => {
  await browser?.close();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('analysis report in Chromium', () => {
  it('draws every analysis of an analysis.json as SVG charts', async () => {
    await page.goto(`${fx.url}#/reports`);
    await page.locator('#report-path').fill(analysisPath);
    await page.locator('#report-add').click();
    await page.locator('#analysis-paired-chart').waitFor();
    expect(await page.locator('#view-reports .error').count()).toBe(0);
    expect(await page.locator('#report-runs li').textContent()).toContain('Analysis');
    // Paired: the Acc metrics of three levels (file @1/3/5, module @5/10, function @5/10); function Acc@5 went 1/6 → 4/6.
    expect(await page.locator('#analysis-paired-chart g.interval-row').count()).toBe(7);
    expect(await page.locator('#analysis-paired-chart g.interval-row[data-measure="function Acc@5"] title').textContent()).toMatch(/^function Acc@5: 0\.500/);
    // Taxonomy: one bar per LocBench run, four classes each.
    expect(await page.locator('#analysis-taxonomy-chart g.taxonomy-segment').count()).toBe(12);
    // Sweeps: 11 α values × 4 metrics as points, for both retrieval runs.
    expect(await page.locator('#analysis-alpha-chart circle.sweep-point').count()).toBe(44);
    expect(await page.locator('#analysis-alpha-chart-2').count()).toBe(1);
    expect(await page.locator('#analysis-depth-chart g.bar').count()).toBe(16);
    // α = 1 (max pooling) puts x.py first; α = 0 (mean of 3) puts the gold file first.
    const acc1 = page.locator('#analysis-alpha-chart g.sweep-line[data-series="Acc@1"] circle title');
    expect(await acc1.first().textContent()).toBe('Acc@1 at α 0: 1.000');
    expect(await acc1.last().textContent()).toBe('Acc@1 at α 1: 0.000');
    // Strata: 3 features × 2 halves × 2 runs.
    expect(await page.locator('#analysis-strata-chart g.bar').count()).toBe(12);
    // Funnel: 3 stages for the agent run; coverage 2 of 3.
    expect(await page.locator('#analysis-funnel-chart g.bar').count()).toBe(3);
    expect(await page.locator('#analysis-funnel-chart g.bar[data-metric="coverage"] title').textContent()).toContain('0.667');
    expect(await page.locator('#analysis-funnel-table tbody tr').count()).toBe(1);
    // SWE-QA: one method, two budgets.
    expect(await page.locator('#analysis-sweqa-chart circle.sweep-point').count()).toBe(2);
    if (shots) {
      await page.locator('#analysis-paired-chart').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, 'analysis.png'), fullPage: true });
    }
  });
});
