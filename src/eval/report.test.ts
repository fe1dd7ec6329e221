import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { MetricAccumulator, scoreInstance } from './locbench-metrics.js';
import {
  assertLocbenchSummary,
  buildSummary,
  compareSummaries,
  getReponavRevision,
  renderMetricsTable,
  renderSummaryMarkdown,
  timingStats,
} from './report.js';
import type { ScoredPredictions } from './score-predictions.js';

/** A scored run where `fileHits` of 4 single-gold instances have the right file first and function first. */
function scored(fileHits: number, functionHits: number): ScoredPredictions {
  const acc = new MetricAccumulator();
  for (let i = 0; i < 4; i++) {
    acc.add(
      scoreInstance([`f${i}.py:g`], {
        found_files: [i < fileHits ? `f${i}.py` : 'x.py'],
        found_modules: [],
        found_entities: [i < functionHits ? `f${i}.py:g` : 'x.py:y'],
      }),
    );
  }
  const metrics = acc.result();
  return {
    metrics,
    metricsPredictedOnly: metrics,
    byCategory: { 'Bug Report': { instances: 4, withPrediction: 4, metrics } },
    byRepo: { 'o/r': { instances: 4, withPrediction: 4, metrics } },
    counts: {
      instances: 4,
      withPrediction: 4,
      missingPrediction: 0,
      duplicatesRemoved: 0,
      predictionsWithDuplicates: 0,
      repeatedPredictionLines: 0,
      outOfScopePredictionLines: 0,
      malformedPredictionLines: 0,
    },
    perInstance: [],
    malformedPredictionLines: [],
    timingSamples: { wallMs: [100, 300, 200, 1000], stages: { index: [10, 30] } },
  };
}

const summaryOf = (fileHits: number, functionHits: number) =>
  buildSummary({
    scored: scored(fileHits, functionHits),
    config: { mode: 'retrieval' },
    source: { instances: 'i.jsonl', predictions: 'p.jsonl' },
    skipped: [{ reason: 'unknown-repo', instanceId: 'z', repo: 'o/z', detail: 'no git dir' }],
    totalWallMs: 5000,
    createdAt: new Date('2025-01-01T00:00:00Z'),
    reponav: { revision: 'abc1234', dirty: false },
  });

describe('timingStats', () => {
  it('gives mean and nearest-rank percentiles', () => {
    expect(timingStats([100, 300, 200, 1000])).toEqual({ count: 4, mean: 400, p50: 200, p95: 1000, total: 1600 });
    expect(timingStats([])).toBeNull();
  });
});

describe('buildSummary / renderSummaryMarkdown', () => {
  it('carries metrics, gap, counts, skips and timings', () => {
    const s = summaryOf(3, 1);
    expect(s.kind).toBe('reponav-locbench-summary');
    expect(s.fileToFunctionGap).toBeCloseTo(0.5, 12);
    expect(s.counts.skippedByReason).toEqual({ 'unknown-repo': 1 });
    expect(s.timings.perInstance?.p50).toBe(200);
    expect(s.timings.stages.index?.mean).toBe(20);
    expect(s.byRepo['o/r']?.fileToFunctionGap).toBeCloseTo(0.5, 12);
    const md = renderSummaryMarkdown(s);
    expect(md).toContain('| level | Acc@1 | Acc@3 | Acc@5 | Acc@10 | Recall@1 | Recall@3 | Recall@5 | Recall@10 | n |');
    expect(md).toContain('| file | 0.750 | 0.750 | 0.750 |  | 0.750 | 0.750 | 0.750 |  | 4 |');
    expect(md).toContain('| module |  |  | 0.000 | 0.000 |  |  | 0.000 | 0.000 | 4 |');
    expect(md).toContain('| function |  |  | 0.250 | 0.250 |  |  | 0.250 | 0.250 | 4 |');
    expect(md).toContain('File-to-function gap (file Acc@5 − function Acc@5): 0.500');
    expect(md).toContain("SweRank's LocBench metrics (file Acc@5 / module Acc@10 / function Acc@10): 0.750 / 0.000 / 0.250");
    expect(s.sweRank).toEqual({ fileAcc5: 0.75, moduleAcc10: 0, functionAcc10: 0.25 });
    expect(md).toContain('- z: unknown-repo — no git dir');
    expect(md).toContain('reponav abc1234');
  });

  it('renders absent metrics as dashes', () => {
    expect(renderMetricsTable(new MetricAccumulator().result())).toContain('| file | – | – | – |');
  });
});

describe('compareSummaries', () => {
  it('puts runs side by side with deltas against the first', () => {
    const md = compareSummaries([
      { label: 'bm25', summary: summaryOf(2, 1) },
      { label: 'dense', summary: summaryOf(3, 1) },
      { label: 'worse', summary: summaryOf(1, 1) },
    ]);
    expect(md).toContain('| level | metric | bm25 | dense | worse |');
    expect(md).toContain('| file | Acc@1 | 0.500 | 0.750 (+0.250) | 0.250 (-0.250) |');
    expect(md).toContain('| function | Acc@5 | 0.250 | 0.250 (±0.000) | 0.250 (±0.000) |');
    expect(md).toContain('| file→function | gap@5 | 0.250 | 0.500 (+0.250) | 0.000 (-0.250) |');
    expect(md).not.toContain('Note:');
  });

  it('adds the behaviour figures of agent runs (Table 2) as mean rows', () => {
    const withStages = (steps: number) => {
      const summary = summaryOf(2, 1);
      summary.timings.stages = {
        steps: { count: 4, mean: steps, p50: steps, p95: steps, total: steps * 4 },
        agentMs: { count: 4, mean: 1500, p50: 1500, p95: 1500, total: 6000 },
      };
      return summary;
    };
    const md = compareSummaries([
      { label: 'bash', summary: withStages(12.5) },
      { label: 'reponav', summary: withStages(8) },
    ]);
    expect(md).toContain('| behaviour (mean) | steps | 12.50 | 8 |');
    expect(md).toContain('| behaviour (mean) | agentMs | 1.50 s | 1.50 s |');
  });

  it('needs a summary and validates the format', () => {
    expect(() => compareSummaries([])).toThrow();
    expect(() => assertLocbenchSummary({ kind: 'other' }, 'x.json')).toThrow(/x\.json is not a reponav LocBench summary/);
    try {
      assertLocbenchSummary({ kind: 'other' }, 'x.json');
      expect.unreachable();
    } catch (error) {
      expect(isReponavError(error, 'BAD_INPUT')).toBe(true);
    }
    expect(assertLocbenchSummary(JSON.parse(JSON.stringify(summaryOf(1, 1))), 's.json').version).toBe(1);
  });
});

describe('getReponavRevision', () => {
  it('is null outside a git checkout of the package', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-rev-'));
    try {
      expect(await getReponavRevision(dir)).toEqual({ revision: null, dirty: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is read once per process: an edit after the first read does not change what later runs record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reponav-rev-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: dir, encoding: 'utf8' });
    try {
      git('init', '-q');
      writeFileSync(join(dir, 'a.txt'), 'one\n');
      git('add', 'a.txt');
      git('commit', '-q', '-m', 'one');
      const first = await getReponavRevision(dir);
      expect(first).toEqual({ revision: git('rev-parse', '--short', 'HEAD').trim(), dirty: false });
      writeFileSync(join(dir, 'a.txt'), 'two\n');
      expect(await getReponavRevision(dir)).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the package revision here', async () => {
    const rev = await getReponavRevision();
    if (rev.revision !== null) expect(rev.revision).toMatch(/^[0-9a-f]{4,}$/);
  });
});
