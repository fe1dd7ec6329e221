import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../budget/index.js';
import type { ChunkHit, RetrievalResult } from '../retrieve/index.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { renderSnippets } from './render-snippet.js';

function resultOf(hits: ChunkHit[]): RetrievalResult {
  return { query: 'q', queryTokens: ['q'], hits, files: [] };
}

function hit(i: number, lines: number): ChunkHit {
  return { chunkId: i, path: `pkg/module_${i}.py`, kind: 'function', symbol: `Handler.method_${i}`, startLine: 10, endLine: 10 + lines - 1, score: 100 - i };
}

describe('renderSnippets under a budget', () => {
  it('shortens hits before leaving any out, instead of answering with the truncation line alone', () => {
    const hits = Array.from({ length: 14 }, (_, i) => hit(i, 60));
    const text = renderSnippets(resultOf(hits), {
      readLines: (_p, start, end) => Array.from({ length: end - start + 1 }, (_, j) => `        value_${j} = compute_something(argument_${j}, other_${j})  # a long line of code`),
      budgetTokens: 120,
    });
    expect(estimateTokens(text)).toBeLessThanOrEqual(120);
    expect(text).toContain('pkg/module_0.py:10-69 Handler.method_0');
    expect(text).toMatch(/\n {2}10 \| /);
  });

  // Generated: seeded budgets × result shapes. The answer is never only a truncation line when a hit exists,
  // always within the budget, and keeps hits in rank order.
  it('always fits the budget and always carries the best hit (seeded random budgets and results)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = mulberry32(seed);
      const count = 1 + Math.floor(next() * 20);
      const budget = 100 + Math.floor(next() * 1900);
      const lineWidth = 5 + Math.floor(next() * 200);
      const hits = Array.from({ length: count }, (_, i) => hit(i, 1 + Math.floor(next() * 80)));
      const text = renderSnippets(resultOf(hits), {
        readLines: (_p, start, end) => Array.from({ length: end - start + 1 }, (_, j) => `x${j} = ${'y'.repeat(lineWidth)}`),
        budgetTokens: budget,
        topK: 1 + Math.floor(next() * 15),
      });
      const context = `seed ${seed}: ${count} hits, budget ${budget}, line width ${lineWidth}`;
      expect(estimateTokens(text), context).toBeLessThanOrEqual(budget);
      expect(text, context).toContain('Handler.method_0 (');
      const shown = [...text.matchAll(/Handler\.method_(\d+) \(/g)].map((m) => Number(m[1]));
      expect(shown, context).toEqual(shown.map((_, i) => i));
    }
  });
});
