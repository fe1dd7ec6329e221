import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { enforceBudget } from './output-budget.js';
import { envelopeTokens, structuredEnvelope, withoutNulls } from './structured-envelope.js';

/** A text of `lines` scaffold-like lines (quotes and backslashes make its JSON cost more than itself). */
function textOf(lines: number, pick: () => number): string {
  return Array.from({ length: lines }, (_, i) => `  - "Order.total" [L${i}-${i + 3}] path\\to\\file_${Math.floor(pick() * 1000)}.py`).join('\n');
}

/** Data shaped like search's JSON: ranked arrays of objects, a nested scaffold, some nulls. */
function dataOf(pick: () => number): Record<string, unknown> {
  const span = (i: number) => ({ id: `a/b${i}.py:f${i}`, path: `a/b${i}.py`, score: pick(), startLine: pick() < 0.2 ? null : i, endLine: i + 4 });
  return {
    query: 'order total',
    files: Array.from({ length: Math.floor(pick() * 20) }, (_, i) => ({ path: `a/b${i}.py`, score: pick() })),
    functions: Array.from({ length: Math.floor(pick() * 20) }, (_, i) => span(i)),
    scaffold: { files: Array.from({ length: Math.floor(pick() * 10) }, (_, i) => ({ path: `a/b${i}.py`, anchors: Array.from({ length: 5 }, (_, j) => span(j)) })) },
  };
}

describe('structuredEnvelope', () => {
  it('keeps the JSON within the budget, the text first and whole when it fits, arrays as their leading entries (generated cases)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const pick = mulberry32(seed);
      const budget = 100 + Math.floor(pick() * 3000);
      const data = dataOf(pick);
      const before = JSON.stringify(data);
      const lines = Math.floor(pick() * 200);
      const render = (b: number) => enforceBudget(textOf(Math.min(lines, Math.floor(b / 12)), mulberry32(seed)), b);
      const envelope = structuredEnvelope(render(budget), data, budget, render);
      const where = `seed ${seed}, budget ${budget}`;
      expect(envelopeTokens(envelope), where).toBeLessThanOrEqual(budget);
      expect(Object.keys(envelope)[0], where).toBe('text');
      expect(envelope.text.length, where).toBeGreaterThan(0);
      expect(JSON.stringify(data), `${where}: data unchanged`).toBe(before);
      expect(JSON.stringify(envelope), where).not.toContain('null');
      const full = withoutNulls(data) as Record<string, unknown[]>;
      for (const key of ['files', 'functions'] as const) {
        const kept = envelope[key] as unknown[] | undefined;
        if (kept) expect(kept, where).toEqual(full[key].slice(0, kept.length));
      }
      if (envelope.dataCut === undefined) expect({ ...envelope, text: undefined }, where).toEqual({ text: undefined, ...full });
    }
  });

  it('leaves the data whole and says nothing when it fits', () => {
    const envelope = structuredEnvelope('[FILE] a.py', { query: 'q', files: [{ path: 'a.py', line: null }] }, 1500);
    expect(envelope).toEqual({ text: '[FILE] a.py', query: 'q', files: [{ path: 'a.py' }] });
  });

  it('re-renders a text whose JSON does not fit at a smaller budget, so that it keeps its structure', () => {
    const budgets: number[] = [];
    const render = (b: number) => {
      budgets.push(b);
      return Array.from({ length: Math.floor(b / 4) }, () => '"q"').join('\n');
    };
    const envelope = structuredEnvelope(render(400), {}, 400, render);
    expect(budgets.length).toBeGreaterThan(1);
    expect(envelopeTokens(envelope)).toBeLessThanOrEqual(400);
    expect(envelope.text).not.toContain('[TRUNCATED]');
  });
});
