import { describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import { createRerankLocalizer, rerankTimings } from './rerank-localizer.js';
import type { RerankTrace } from '../retrieve/rerank/index.js';

const ENV = { REPONAV_LLM_BASE_URL: 'http://127.0.0.1:9/v1' };

describe('createRerankLocalizer', () => {
  it('records the retrieval\'s ranker, the model used and the effective rerank settings as run facts', async () => {
    const localizer = await createRerankLocalizer({ mode: 'rerank', settings: { model: 'openai-compatible:m', window: 4, step: 2 } }, { env: ENV });
    try {
      expect(localizer.runFacts).toEqual({
        // The retrieval it reranks: the default ranker and the shipped model's sha256.
        ranker: 'auto',
        rankerModel: expect.stringMatching(/^[0-9a-f]{64}$/),
        model: 'openai-compatible:m',
        provider: 'openai-compatible',
        baseUrlHost: '127.0.0.1:9',
        rerank: expect.objectContaining({ candidates: 20, window: 4, step: 2, bodyTokens: 300, onFailure: 'error', deadlineMs: null }),
      });
    } finally {
      await localizer.close?.();
    }
  });

  it('passes the other keys to the retrieval settings, which name a misspelt one', async () => {
    const error = await createRerankLocalizer({ mode: 'rerank', settings: { model: 'openai-compatible:m', windw: 4 } }, { env: ENV }).catch((e: unknown) => e);
    expect(isReponavError(error, 'BAD_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(/windw/);
  });

  it('refuses API keys in the recorded settings and a step wider than the window', async () => {
    const key = await createRerankLocalizer({ mode: 'rerank', settings: { model: { model: 'openai-compatible:m', apiKey: 'sk-x' } } }, { env: ENV }).catch((e: unknown) => e);
    expect((key as Error).message).toMatch(/do not put API keys/);
    const step = await createRerankLocalizer({ mode: 'rerank', settings: { model: 'openai-compatible:m', window: 3, step: 5 } }, { env: ENV }).catch((e: unknown) => e);
    expect((step as Error).message).toMatch(/step \(5\) must not exceed the window \(3\)/);
  });

  it('fails with LLM_ERROR naming the variables when no model is configured', async () => {
    const error = await createRerankLocalizer({ mode: 'rerank', settings: {} }, { env: {} }).catch((e: unknown) => e);
    expect(isReponavError(error, 'LLM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/REPONAV_LLM_MODEL/);
  });
});

describe('rerankTimings', () => {
  it('gives the figures the summary aggregates, the cost only when priced', () => {
    const trace = { input: ['a', 'b'], calls: 3, inputTokens: 100, outputTokens: 10, costUsd: null, unknownIds: 1, repeatedIds: 0, missingIds: 2, cutReplies: 0, reasks: 1, wallMs: 5 } as unknown as RerankTrace;
    expect(rerankTimings(trace)).toEqual({
      rerankCalls: 3,
      rerankInputTokens: 100,
      rerankOutputTokens: 10,
      rerankTotalTokens: 110,
      rerankCandidates: 2,
      rerankUnknownIds: 1,
      rerankRepeatedIds: 0,
      rerankMissingIds: 2,
      rerankCutReplies: 0,
      rerankReasks: 1,
      rerankFallback: 0,
      rerankMs: 5,
    });
    expect(rerankTimings({ ...trace, costUsd: 0.25 }).rerankCostUsd).toBe(0.25);
  });
});
