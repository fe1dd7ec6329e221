import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../llm/index.js';
import { buildRerankMessages, cutToTokens, type RerankCandidate } from './rerank-prompt.js';

const count = await loadTokenCounter();

function candidate(i: number, body: string): RerankCandidate {
  return { id: `pkg/m${i}.py:f${i}`, path: `pkg/m${i}.py`, qualifiedName: `f${i}`, startLine: 10 * i, endLine: 10 * i + 3, body };
}

describe('buildRerankMessages', () => {
  it('numbers each candidate with its path, qualified name, span and body, after the issue', () => {
    const [system, user] = buildRerankMessages('Discount applied twice', [candidate(1, 'def f1():\n    return 1'), candidate(2, 'def f2():\n    pass')], { bodyTokens: 100, issueTokens: 100 }, count);
    expect(system!.role).toBe('system');
    expect(user!.content).toContain('<issue>\nDiscount applied twice\n</issue>');
    expect(user!.content).toContain('[1] pkg/m1.py:f1 (lines 10-13)\n```\ndef f1():\n    return 1\n```');
    expect(user!.content).toContain('[2] pkg/m2.py:f2 (lines 20-23)');
    expect(user!.content.indexOf('[1] pkg/m1.py')).toBeLessThan(user!.content.indexOf('[2] pkg/m2.py'));
    expect(user!.content).toMatch(/all 2 identifiers .* \[2\] > \[1\] > \[3\]/);
  });

  it('cuts long bodies and issues to their token budgets at line boundaries, saying how much was cut', () => {
    const body = Array.from({ length: 200 }, (_, i) => `    value_${i} = compute(value_${i - 1}, "some text")`).join('\n');
    const [, user] = buildRerankMessages('x '.repeat(5000), [candidate(1, body)], { bodyTokens: 60, issueTokens: 40 }, count);
    expect(user!.content).toMatch(/more lines of the body not shown/);
    expect(user!.content).toMatch(/more line(s)? of the issue not shown|issue not shown/);
  });
});

describe('cutToTokens', () => {
  it('keeps a text within the budget unchanged and cuts a longer one to at most the budget', () => {
    expect(cutToTokens('a\nb', 10, count, 'body')).toBe('a\nb');
    const long = Array.from({ length: 100 }, (_, i) => `line number ${i} with some words`).join('\n');
    for (const budget of [20, 50, 120]) {
      const cut = cutToTokens(long, budget, count, 'body');
      expect(count(cut)).toBeLessThanOrEqual(budget);
      expect(cut.startsWith('line number 0')).toBe(true);
      expect(cut).toMatch(/… \(\d+ more lines of the body not shown\)$/);
    }
  });

  it('cuts a single line longer than the budget by characters', () => {
    const cut = cutToTokens('word '.repeat(500), 30, count, 'issue');
    expect(count(cut)).toBeLessThanOrEqual(30);
    expect(cut.startsWith('word word')).toBe(true);
  });
});
