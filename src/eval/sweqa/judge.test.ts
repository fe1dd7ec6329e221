import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/helpers/scripted-llm-server.js';
import type { ChatModel, ChatRequest, ChatResponse } from '../../llm/index.js';
import { JUDGE_MAX_TOKENS, judgeAnswer } from './judge.js';

/** A judge that answers from a script and records each request's token limit. */
function scriptedJudge(replies: Array<{ text: string; finishReason?: string }>): ChatModel & { limits: Array<number | undefined> } {
  const limits: Array<number | undefined> = [];
  return {
    id: 'stub:judge',
    limits,
    async complete(req: ChatRequest): Promise<ChatResponse> {
      limits.push(req.maxTokens);
      const next = replies.shift() ?? { text: '' };
      const finishReason = next.finishReason ?? 'stop';
      return { text: next.text, finishReason, outcome: finishReason === 'length' ? 'cut' : 'complete', cut: finishReason === 'length', model: 'judge', latencyMs: 1, usage: { inputTokens: 1, outputTokens: 1, costUsd: null } };
    },
  };
}

const input = { question: 'Q?', reference: 'R.', candidate: 'C.' };
const CUT = '{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 1';
const WHOLE = '{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 14, "total": 74}';

describe('judge: cut and unusable replies', () => {
  it('never scores a reply cut at the length limit: asks again with a longer limit and scores the whole reply', async () => {
    const judge = scriptedJudge([{ text: CUT, finishReason: 'length' }, { text: WHOLE }]);
    const result = await judgeAnswer([judge], input);
    expect(result.total).toBe(74);
    expect(result.scores!.reasoning).toBe(14);
    expect(judge.limits).toEqual([JUDGE_MAX_TOKENS.first, JUDGE_MAX_TOKENS.retry]);
    expect(result.verdicts[0]).toMatchObject({ ok: true, attempts: 2 });
  });

  it('a reply cut twice is unscored, with the reason', async () => {
    const judge = scriptedJudge([{ text: CUT, finishReason: 'length' }, { text: CUT, finishReason: 'length' }]);
    const result = await judgeAnswer([judge], input);
    expect(result.scores).toBeNull();
    expect(result.verdicts[0]).toMatchObject({ ok: false, error: 'the reply was cut off at the length limit (twice)', attempts: 2 });
  });

  it('an unclosed object is not scored from its fragment even when the endpoint did not say it was cut', async () => {
    const judge = scriptedJudge([{ text: CUT }, { text: CUT }]);
    const result = await judgeAnswer([judge], input);
    expect(result.scores).toBeNull();
    expect(result.verdicts[0]!.error).toBe('the JSON object is not closed (a cut reply) (twice)');
    expect(judge.limits).toEqual([JUDGE_MAX_TOKENS.first, JUDGE_MAX_TOKENS.retry]);
  });
});

describe('judge through the real client (scripted endpoint)', () => {
  let server: ScriptedLlmServer;
  beforeEach(async () => {
    server = await startScriptedLlmServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('a prose reply cut with no finish reason is never scored: asked again, scored from the finished reply', async () => {
    server.push({ text: 'Correctness: 14\nCompleteness: 12\nRelevance: 18\nClarity: 14\nReasoning: 1', noFinishReason: true }, { text: WHOLE });
    const result = await judgeAnswer([server.model('openai')], input);
    expect(result.total).toBe(74);
    expect(result.verdicts[0]).toMatchObject({ ok: true, attempts: 2 });
  });

  it('a judge that never finishes (refused, then filtered) is unscored with the reason', async () => {
    server.push({ refusal: "I can't evaluate this." }, { text: WHOLE, finishReason: 'content_filter' });
    const result = await judgeAnswer([server.model('openai')], input);
    expect(result.scores).toBeNull();
    expect(result.verdicts[0]).toMatchObject({ ok: false, attempts: 2, error: expect.stringContaining('content filter') });
  });

  it('reads "8/10" by its own denominator and re-asks a 0–100 scale instead of clamping it', async () => {
    server.push({ text: '{"correctness": "8/10", "completeness": "7/10", "relevance": "9/10", "clarity": "8/10", "reasoning": "7/10"}' });
    expect((await judgeAnswer([server.model('anthropic')], input)).total).toBe(78);
    server.push({ text: '{"correctness": 80, "completeness": 70, "relevance": 90, "clarity": 80, "reasoning": 70, "total": 78}' }, { text: WHOLE });
    const rescaled = await judgeAnswer([server.model('anthropic')], input);
    expect(rescaled.total).toBe(74);
    expect(rescaled.verdicts[0]).toMatchObject({ attempts: 2 });
  });
});
