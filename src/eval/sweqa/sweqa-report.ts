/**
 * SWE-QA results: the per-question record written to `answers.jsonl`, and
 * the summary built from those records — mean scores per dimension and per
 * question type, answer length next to score (a long answer can win on
 * completeness alone), and tokens and cost per question — as JSON and as
 * Markdown.
 */
import type { AllowedChange } from '../run-settings.js';
import type { AnswerCost } from './answerer.js';
import { JUDGE_DIMENSIONS, type DimensionScores } from './judge-parser.js';
import type { JudgeVerdict } from './judge.js';
import { QUESTION_TYPES } from './sweqa-questions.js';
import { countOf } from '../../plural.js';

/**
 * What a run was configured with: every setting that can change an answer or
 * a score. Recorded in `run.json` and the summary; a resume with any
 * difference is refused (eval/run-settings.ts) unless allowed, and an
 * allowed difference is kept in `allowedChanges`.
 */
export interface SweqaRunConfig {
  method: string;
  model: string;
  judges: string[];
  /** The answering method's resolved settings (every agent, search and retrieval setting, the rubric). */
  settings: Record<string, unknown>;
  questions: string;
  /** The caller's facts about the models (provider, base URL host of the answering model and of each judge). */
  models: Record<string, unknown>;
  /** The reponav revision (git short hash; null outside a checkout). */
  reponav: string | null;
  /** Differences a resume accepted with --allow-changed-settings. */
  allowedChanges?: AllowedChange[];
}

/** Tokens and spend of the judges for one question. */
export interface JudgeCost {
  calls: number;
  totalTokens: number;
  costUsd: number | null;
}

/**
 * One line of `answers.jsonl`. `status`: `ok` (answered and scored by at
 * least one judge), `unscored` (answered, no judge reply usable), `skipped`
 * (repository or commit missing), `budget` (the spend cap stopped it),
 * `error` (anything else). Only `ok` and `unscored` count as finished when
 * resuming; the others are tried again.
 */
export interface SweqaRecord {
  id: string;
  repo: string;
  commit: string | null;
  qtype: string;
  status: 'ok' | 'unscored' | 'skipped' | 'budget' | 'error';
  reason?: string;
  method: string;
  model: string;
  question: string;
  answer: string | null;
  answerChars: number;
  citations: number;
  droppedCitations: number;
  stopReason: string | null;
  cost: AnswerCost | null;
  judgeCost: JudgeCost | null;
  judges: JudgeVerdict[];
  scores: DimensionScores | null;
  total: number | null;
  elapsedMs: number;
  at: string;
}

/** Mean scores: the five dimensions and the total. */
export type MeanScores = DimensionScores & { total: number };

/** The summary written to `summary.json`. */
export interface SweqaSummary {
  version: 1;
  benchmark: 'swe-qa';
  config: SweqaRunConfig;
  counts: { questions: number; ok: number; unscored: number; skipped: number; budget: number; errors: number; judgeFailures: number; judgeRepairs: number };
  /** Each answer no judge could score, and why (a resumed run judges them again). Absent in older summaries. */
  unscored?: Array<{ id: string; reason: string }>;
  /** Each question that failed (a model outage, an interruption, …), and why (a resumed run answers them again). Absent in older summaries. */
  errors?: Array<{ id: string; reason: string }>;
  mean: MeanScores | null;
  byType: Array<{ qtype: string; n: number; mean: MeanScores | null; meanAnswerChars: number | null }>;
  lengthVsScore: { pearson: number | null; buckets: Array<{ label: string; n: number; meanTotal: number | null }> };
  cost: {
    answerTokens: number;
    answerUsd: number;
    judgeTokens: number;
    judgeUsd: number;
    totalUsd: number;
    meanTokensPerQuestion: number | null;
    meanUsdPerQuestion: number | null;
    unpricedCalls: number;
  };
  perQuestion: Array<{
    id: string;
    qtype: string;
    status: SweqaRecord['status'];
    total: number | null;
    answerChars: number;
    answerTokens: number;
    answerUsd: number | null;
    judgeTokens: number;
    judgeUsd: number | null;
    stopReason: string | null;
    citations: number;
    flags: string[];
  }>;
}

const LENGTH_BUCKETS: Array<{ label: string; max: number }> = [
  { label: '< 500 chars', max: 500 },
  { label: '500-1499', max: 1500 },
  { label: '1500-2999', max: 3000 },
  { label: '>= 3000', max: Number.POSITIVE_INFINITY },
];

/** The latest record per id (a resumed run may have retried a question), in first-seen order. */
export function latestRecords(records: readonly SweqaRecord[]): SweqaRecord[] {
  const byId = new Map<string, SweqaRecord>();
  for (const r of records) {
    byId.delete(r.id);
    byId.set(r.id, r);
  }
  const order = [...new Set(records.map((r) => r.id))];
  return order.map((id) => byId.get(id)!);
}

/** Builds the summary from the records (latest per id). */
export function buildSweqaSummary(config: SweqaRunConfig, all: readonly SweqaRecord[]): SweqaSummary {
  const records = latestRecords(all);
  const scored = records.filter((r) => r.status === 'ok' && r.total !== null && r.scores !== null);
  const types = [...QUESTION_TYPES, 'other'];
  const answered = records.filter((r) => r.cost !== null);
  const answerTokens = sum(answered.map((r) => r.cost!.totalTokens));
  const judgeTokens = sum(records.map((r) => r.judgeCost?.totalTokens ?? 0));
  const answerUsd = sum(answered.map((r) => r.cost!.costUsd ?? 0));
  const judgeUsd = sum(records.map((r) => r.judgeCost?.costUsd ?? 0));
  return {
    version: 1,
    benchmark: 'swe-qa',
    config,
    counts: {
      questions: records.length,
      ok: scored.length,
      unscored: records.filter((r) => r.status === 'unscored').length,
      skipped: records.filter((r) => r.status === 'skipped').length,
      budget: records.filter((r) => r.status === 'budget').length,
      errors: records.filter((r) => r.status === 'error').length,
      judgeFailures: sum(records.map((r) => r.judges.filter((j) => !j.ok).length)),
      judgeRepairs: sum(records.map((r) => r.judges.filter((j) => j.ok && j.flags.length > 0).length)),
    },
    unscored: records.filter((r) => r.status === 'unscored').map((r) => ({ id: r.id, reason: r.reason ?? unscoredReason(r.judges) })),
    errors: records.filter((r) => r.status === 'error').map((r) => ({ id: r.id, reason: r.reason ?? 'unknown' })),
    mean: meanScores(scored),
    byType: types
      .map((qtype) => {
        const group = scored.filter((r) => r.qtype === qtype);
        return { qtype, n: group.length, mean: meanScores(group), meanAnswerChars: mean(group.map((r) => r.answerChars)) };
      })
      .filter((t) => t.n > 0 || t.qtype !== 'other'),
    lengthVsScore: {
      pearson: pearson(scored.map((r) => r.answerChars), scored.map((r) => r.total!)),
      buckets: LENGTH_BUCKETS.map((b, i) => {
        const min = i === 0 ? 0 : LENGTH_BUCKETS[i - 1]!.max;
        const group = scored.filter((r) => r.answerChars >= min && r.answerChars < b.max);
        return { label: b.label, n: group.length, meanTotal: mean(group.map((r) => r.total!)) };
      }),
    },
    cost: {
      answerTokens,
      answerUsd: round(answerUsd, 6),
      judgeTokens,
      judgeUsd: round(judgeUsd, 6),
      totalUsd: round(answerUsd + judgeUsd, 6),
      meanTokensPerQuestion: answered.length ? round(answerTokens / answered.length, 1) : null,
      meanUsdPerQuestion: answered.length ? round(answerUsd / answered.length, 6) : null,
      unpricedCalls: sum(answered.map((r) => r.cost!.unpricedCalls)),
    },
    perQuestion: records.map((r) => ({
      id: r.id,
      qtype: r.qtype,
      status: r.status,
      total: r.total,
      answerChars: r.answerChars,
      answerTokens: r.cost?.totalTokens ?? 0,
      answerUsd: r.cost?.costUsd ?? null,
      judgeTokens: r.judgeCost?.totalTokens ?? 0,
      judgeUsd: r.judgeCost?.costUsd ?? null,
      stopReason: r.stopReason,
      citations: r.citations,
      flags: r.judges.flatMap((j) => (j.ok ? j.flags : [`judge-failed:${j.error ?? 'unknown'}`])),
    })),
  };
}

/** The summary as Markdown (what `eval sweqa` prints). */
export function renderSweqaMarkdown(s: SweqaSummary): string {
  const c = s.counts;
  const out = [
    `# SWE-QA — ${s.config.method} with ${s.config.model}`,
    '',
    `Judges: ${s.config.judges.join(', ')}. Questions: ${c.questions} (scored ${c.ok}, unscored ${c.unscored}, skipped ${c.skipped}, stopped by the spend cap ${c.budget}, errors ${c.errors}). Judge replies repaired: ${c.judgeRepairs}, unusable: ${c.judgeFailures}.`,
    ...(s.unscored?.length ? ['', `Unscored (judged again on resume): ${s.unscored.map((u) => `${u.id} (${u.reason})`).join('; ')}.`] : []),
    ...(s.errors?.length ? ['', `Errors (answered again on resume): ${s.errors.map((e) => `${e.id} (${e.reason})`).join('; ')}.`] : []),
    ...(s.config.allowedChanges?.length ? ['', `Settings changed on resume (--allow-changed-settings): ${s.config.allowedChanges.flatMap((c) => c.differences).join('; ')}.`] : []),
    '',
    '## Scores (mean over judges, then questions; 1-20 each, total 100)',
    '',
    `| ${['type', 'n', ...JUDGE_DIMENSIONS, 'total', 'answer chars'].join(' | ')} |`,
    `|${' --- |'.repeat(JUDGE_DIMENSIONS.length + 4)}`,
    row('all', c.ok, s.mean, mean(s.perQuestion.filter((q) => q.status === 'ok').map((q) => q.answerChars))),
    ...s.byType.map((t) => row(t.qtype, t.n, t.mean, t.meanAnswerChars)),
    '',
    '## Answer length next to score',
    '',
    `Pearson correlation of answer length (chars) with total score: ${fmt(s.lengthVsScore.pearson, 3)}.`,
    '',
    '| length | n | mean total |',
    '| --- | --- | --- |',
    ...s.lengthVsScore.buckets.map((b) => `| ${b.label} | ${b.n} | ${fmt(b.meanTotal, 1)} |`),
    '',
    '## Cost',
    '',
    `Answering: ${s.cost.answerTokens} tokens, $${s.cost.answerUsd.toFixed(4)} (mean ${fmt(s.cost.meanTokensPerQuestion, 0)} tokens, $${fmt(s.cost.meanUsdPerQuestion, 4)} per question). Judging: ${s.cost.judgeTokens} tokens, $${s.cost.judgeUsd.toFixed(4)}. Total $${s.cost.totalUsd.toFixed(4)}${s.cost.unpricedCalls > 0 ? ` (${countOf(s.cost.unpricedCalls, 'call')} of unpriced models not included)` : ''}.`,
    '',
    '## Per question',
    '',
    '| id | type | status | total | answer chars | tokens | $ | judge tokens | stop | citations | flags |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...s.perQuestion.map(
      (q) =>
        `| ${q.id} | ${q.qtype} | ${q.status} | ${fmt(q.total, 1)} | ${q.answerChars} | ${q.answerTokens} | ${q.answerUsd === null ? '-' : q.answerUsd.toFixed(4)} | ${q.judgeTokens} | ${q.stopReason ?? '-'} | ${q.citations} | ${q.flags.join('; ').replace(/\|/g, '/') || ''} |`,
    ),
    '',
  ];
  return out.join('\n');
}

/** Why no judge could score an answer: each judge's error. */
export function unscoredReason(verdicts: readonly JudgeVerdict[]): string {
  const failed = verdicts.filter((v) => !v.ok);
  return failed.length === 0 ? 'no judge' : `no usable judge reply: ${failed.map((v) => `${v.judge}: ${v.error ?? 'unknown'}`).join('; ')}`;
}

function row(label: string, n: number, m: MeanScores | null, chars: number | null): string {
  const cells = m ? [...JUDGE_DIMENSIONS.map((d) => fmt(m[d], 2)), fmt(m.total, 2)] : JUDGE_DIMENSIONS.map(() => '-').concat('-');
  return `| ${label} | ${n} | ${cells.join(' | ')} | ${fmt(chars, 0)} |`;
}

function meanScores(records: readonly SweqaRecord[]): MeanScores | null {
  if (records.length === 0) return null;
  const m = {} as MeanScores;
  for (const d of JUDGE_DIMENSIONS) m[d] = round(sum(records.map((r) => r.scores![d])) / records.length, 2);
  m.total = round(sum(records.map((r) => r.total!)) / records.length, 2);
  return m;
}

/** Pearson's r, or null with fewer than 3 points or no variance. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 3) return null;
  const mx = sum(xs) / n;
  const my = sum(ys) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : round(sxy / Math.sqrt(sxx * syy), 4);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function mean(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : round(sum(xs) / xs.length, 1);
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function fmt(n: number | null, digits: number): string {
  return n === null ? '-' : n.toFixed(digits);
}
