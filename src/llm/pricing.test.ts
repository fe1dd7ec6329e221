import { describe, expect, it } from 'vitest';
import { costOf, createPriceTable, lookupPrice } from './pricing.js';

describe('pricing', () => {
  it('prices known models, dated snapshots and vendor-prefixed names', () => {
    expect(costOf('gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(0.75, 10);
    expect(lookupPrice('gpt-4o-mini-2024-07-18')).toEqual(lookupPrice('gpt-4o-mini'));
    expect(lookupPrice('claude-sonnet-4-5-20250929')).toEqual({ inputPerMTok: 3, outputPerMTok: 15 });
    expect(lookupPrice('openai/gpt-4o-mini')).toEqual(lookupPrice('gpt-4o-mini'));
  });

  it('returns null for unknown models and different products sharing a prefix', () => {
    expect(costOf('qwen2.5-coder:7b', { inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(costOf('gpt-4o-audio-preview', { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });

  it('accepts overrides and rejects invalid prices', () => {
    const table = createPriceTable({ 'gpt-4o-mini': { inputPerMTok: 1, outputPerMTok: 1 }, local: { inputPerMTok: 0, outputPerMTok: 0 } });
    expect(costOf('gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 0 }, table)).toBe(1);
    expect(costOf('local', { inputTokens: 5, outputTokens: 5 }, table)).toBe(0);
    expect(() => createPriceTable({ bad: { inputPerMTok: -1, outputPerMTok: 0 } })).toThrow(/Invalid price/);
  });
});
