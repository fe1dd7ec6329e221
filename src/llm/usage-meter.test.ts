import { describe, expect, it } from 'vitest';
import { isReponavError } from '../errors.js';
import type { ChatModel, ChatResponse } from './chat-model.js';
import { UsageMeter, withUsageMeter } from './usage-meter.js';

function stubModel(usage: ChatResponse['usage'], id = 'stub:m'): ChatModel & { calls: number } {
  const m = {
    id,
    calls: 0,
    async complete(): Promise<ChatResponse> {
      m.calls++;
      return { text: 'x', usage, model: 'm', latencyMs: 1, finishReason: 'stop', outcome: 'complete', cut: false };
    },
  };
  return m;
}

const ask = { messages: [{ role: 'user' as const, content: 'q' }] };

describe('UsageMeter', () => {
  it('accumulates tokens, cost and calls per model', async () => {
    const meter = new UsageMeter();
    const a = withUsageMeter(stubModel({ inputTokens: 10, outputTokens: 5, costUsd: 0.01 }, 'p:a'), meter);
    const b = withUsageMeter(stubModel({ inputTokens: 1, outputTokens: 1, costUsd: null }, 'p:b'), meter);
    await a.complete(ask);
    await a.complete(ask);
    await b.complete(ask);
    const snap = meter.snapshot();
    expect(snap).toMatchObject({ calls: 3, inputTokens: 21, outputTokens: 11, totalTokens: 32, unpricedCalls: 1 });
    expect(snap.costUsd).toBeCloseTo(0.02, 10);
    expect(snap.byModel['p:a']).toMatchObject({ calls: 2, totalTokens: 30 });
    expect(snap.byModel['p:b']).toMatchObject({ calls: 1, unpricedCalls: 1 });
    expect(a.id).toBe('p:a');
  });

  it('refuses a call whose expected size would cross the token ceiling, before making it', async () => {
    const meter = new UsageMeter({ maxTokens: 25 });
    const inner = stubModel({ inputTokens: 14, outputTokens: 6, costUsd: null });
    const model = withUsageMeter(inner, meter);
    const long = { messages: [{ role: 'user' as const, content: 'x'.repeat(40) }] }; // estimated 10 + 4 tokens
    await model.complete(long); // 20 used
    // Next: 20 used + 14 prompt + 6 expected reply (the mean so far) = 40 > 25: refused unpaid.
    const error = await model.complete(long).catch((e: unknown) => e);
    expect(isReponavError(error, 'BUDGET_EXCEEDED')).toBe(true);
    expect((error as Error).message).toMatch(/20 tokens used of 25 allowed over 1 call\. The next call \(about 20 tokens\) would cross it, so it was not made/);
    expect(inner.calls).toBe(1);
    expect(meter.exceeded()).toBeNull();
  });

  it('refuses a call whose expected cost would cross the USD ceiling (models that know their price)', async () => {
    const meter = new UsageMeter({ maxCostUsd: 0.05 });
    const inner = Object.assign(stubModel({ inputTokens: 1, outputTokens: 1, costUsd: 0.03 }), { estimateCostUsd: () => 0.03 });
    const model = withUsageMeter(inner, meter);
    await model.complete(ask);
    await expect(model.complete(ask)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED', details: { limit: 'cost', beforeCall: true } });
    expect(inner.calls).toBe(1);
    expect(meter.snapshot().costUsd).toBeCloseTo(0.03, 10);
  });

  it('enforces a USD ceiling', async () => {
    const meter = new UsageMeter({ maxCostUsd: 0.05 });
    const model = withUsageMeter(stubModel({ inputTokens: 1, outputTokens: 1, costUsd: 0.03 }), meter);
    await model.complete(ask);
    expect(meter.exceeded()).toBeNull();
    await model.complete(ask);
    expect(meter.exceeded()).toBe('cost');
    await expect(model.complete(ask)).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  it('warns once when an unpriced model runs under a USD ceiling', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    const meter = new UsageMeter({ maxCostUsd: 1 }, { logger });
    const model = withUsageMeter(stubModel({ inputTokens: 1, outputTokens: 1, costUsd: null }, 'ollama:q'), meter);
    await model.complete(ask);
    await model.complete(ask);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ollama:q has no known price');
  });

  it('rejects a negative ceiling', () => {
    expect(() => new UsageMeter({ maxTokens: -1 })).toThrow(/maxTokens/);
  });
});
