import { describe, expect, it } from 'vitest';
import { parseJudgeReply, scoreValue } from './judge-parser.js';

const clean = { correctness: 15, completeness: 12, relevance: 18, clarity: 16, reasoning: 14 };

describe('parseJudgeReply', () => {
  it('reads clean JSON and checks the total', () => {
    expect(parseJudgeReply(JSON.stringify({ ...clean, total: 75 }))).toEqual({ ok: true, scores: clean, total: 75, flags: [] });
  });

  it('survives prose around the JSON, code fences and numbers as strings', () => {
    const text = 'Here is my evaluation:\n```json\n{"correctness": "15", "completeness": "12/20", "relevance": 18, "clarity": "16 points", "reasoning": 14, "total": "75"}\n```\nOverall a good answer.';
    expect(parseJudgeReply(text)).toEqual({ ok: true, scores: clean, total: 75, flags: [] });
  });

  it('computes a missing total and replaces a wrong one', () => {
    expect(parseJudgeReply(JSON.stringify(clean))).toMatchObject({ ok: true, total: 75, flags: ['total-computed'] });
    expect(parseJudgeReply(JSON.stringify({ ...clean, total: 90 }))).toMatchObject({ ok: true, total: 75, flags: ['total-mismatch(90→75)'] });
  });

  it('never clamps a score in another scale into range: the parse fails, naming the scores', () => {
    const r = parseJudgeReply(JSON.stringify({ ...clean, correctness: 25, reasoning: 0, clarity: 15.6, total: 67 }));
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/outside the 1–20 scale \(correctness 25, reasoning 0; another scale\?\)/) });
    const hundred = parseJudgeReply(JSON.stringify({ correctness: 80, completeness: 75, relevance: 90, clarity: 85, reasoning: 70, total: 80 }));
    expect(hundred.ok).toBe(false);
  });

  it('converts a fraction by its own denominator', () => {
    const r = parseJudgeReply(JSON.stringify({ correctness: '8/10', completeness: '7/10', relevance: '9/10', clarity: '16/20', reasoning: '4/5' }));
    expect(r).toMatchObject({ ok: true, scores: { correctness: 16, completeness: 14, relevance: 18, clarity: 16, reasoning: 16 }, total: 80 });
    const prose = parseJudgeReply('Correctness: 8/10\nCompleteness: 7/10\nRelevance: 9/10\nClarity: 8/10\nReasoning: 8/10\nTotal: 80/100');
    expect(prose).toMatchObject({ ok: true, total: 80 });
  });

  it('accepts synonyms, capitalised keys and nested objects', () => {
    const text = JSON.stringify({ scores: { Accuracy: { score: 15 }, Completeness: 12, Relevancy: 18, Clarity: 16, Logic: 14 }, overall_score: 75 });
    expect(parseJudgeReply(text)).toEqual({ ok: true, scores: clean, total: 75, flags: [] });
  });

  it('falls back to "name: number" lines when there is no JSON', () => {
    const text = '**Correctness**: 15/20\n**Completeness** - 12\nRelevance: 18\nClarity = 16\nReasoning: 14\nTotal: 75';
    expect(parseJudgeReply(text)).toEqual({ ok: true, scores: clean, total: 75, flags: ['from-text'] });
  });

  it('fills dimensions missing from the JSON from the prose', () => {
    const text = '{"correctness": 15, "completeness": 12, "relevance": 18, "clarity": 16} and reasoning: 14';
    expect(parseJudgeReply(text)).toMatchObject({ ok: true, total: 75, flags: ['from-text', 'total-computed'] });
  });

  it('fails, naming what is missing, when a dimension is nowhere', () => {
    expect(parseJudgeReply('{"correctness": 15}')).toMatchObject({ ok: false, error: 'no score for completeness, relevance, clarity, reasoning' });
    expect(parseJudgeReply('I cannot judge this.')).toMatchObject({ ok: false });
  });

  it('scoreValue reads the usual spellings', () => {
    expect([scoreValue(3), scoreValue('7/20'), scoreValue({ value: '9' }), scoreValue('n/a'), scoreValue(null), scoreValue('8/10')]).toEqual([3, 7, 9, null, null, 16]);
  });

  it('refuses a JSON object that is never closed instead of reading the cut fragment', () => {
    const cut = parseJudgeReply('{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 1');
    expect(cut).toMatchObject({ ok: false, error: 'the JSON object is not closed (a cut reply)' });
    // A brace inside a string does not count, and prose scores without any object still parse.
    expect(parseJudgeReply('{"note": "}", "correctness": 1, "completeness": 2, "relevance": 3, "clarity": 4, "reasoning": 5}').ok).toBe(true);
    expect(parseJudgeReply('Correctness: 10\nCompleteness: 10\nRelevance: 10\nClarity: 10\nReasoning: 10').ok).toBe(true);
  });
});
