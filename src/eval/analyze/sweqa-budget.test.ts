import { describe, expect, it } from 'vitest';
import type { SweqaSummary } from '../sweqa/index.js';
import { isSweqaSummary, sweqaBudgetCurve } from './sweqa-budget.js';

const summary = (iterations: number | undefined, total: number, tokens: number): SweqaSummary =>
  ({
    version: 1,
    benchmark: 'swe-qa',
    config: { method: 'mcts', model: 'fake', judges: ['fake'], settings: iterations === undefined ? {} : { iterations }, questions: 'q.jsonl', models: {}, reponav: null },
    counts: { questions: 2, ok: 2, unscored: 0, skipped: 0, budget: 0, errors: 0, judgeFailures: 0, judgeRepairs: 0 },
    mean: { correctness: total / 5, completeness: total / 5, relevance: total / 5, clarity: total / 5, reasoning: total / 5, total },
    byType: [],
    lengthVsScore: { pearson: null, buckets: [] },
    cost: { answerTokens: 0, answerUsd: 0, judgeTokens: 0, judgeUsd: 0, totalUsd: 0, meanTokensPerQuestion: tokens, meanUsdPerQuestion: null, unpricedCalls: 0 },
    perQuestion: [],
  }) as SweqaSummary;

describe('SWE-QA budget curve', () => {
  it('orders runs by budget, takes 15 for a run that records none, and keeps the dimensions apart', () => {
    const curve = sweqaBudgetCurve([
      { label: 'it15', summary: summary(undefined, 70, 3000) },
      { label: 'it1', summary: summary(1, 50, 800) },
      { label: 'it5', summary: summary(5, 65, 1500) },
    ]);
    expect(curve.rows.map((r) => [r.label, r.iterations, r.total])).toEqual([['it1', 1, 50], ['it5', 5, 65], ['it15', 15, 70]]);
    expect(curve.rows[0]!.dimensions.correctness).toBe(10);
    expect(curve.rows[2]!.meanTokensPerAnswer).toBe(3000);
    expect(isSweqaSummary(summary(1, 1, 1))).toBe(true);
    expect(isSweqaSummary({ kind: 'reponav-locbench-summary' })).toBe(false);
  });
});
