import { describe, expect, it } from 'vitest';
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
