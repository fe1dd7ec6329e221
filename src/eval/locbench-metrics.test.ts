import { describe, expect, it } from 'vitest';
import {
  dedupePreservingOrder,
  fileToFunctionGap,
  goldAtLevel,
  LEVEL_KS,
  MetricAccumulator,
  scoreInstance,
  scoreLevel,
} from './locbench-metrics.js';

describe('goldAtLevel', () => {
  const edits = ['a.py:A.f', 'a.py:g', 'b.py:B.h', 'a.py:A.k', 'a.py:A.f'];

  it('derives file, module and function gold, de-duplicated in order', () => {
    expect(goldAtLevel(edits, 'file')).toEqual(['a.py', 'b.py']);
    expect(goldAtLevel(edits, 'module')).toEqual(['a.py:A', 'a.py:g', 'b.py:B']);
    expect(goldAtLevel(edits, 'function')).toEqual(['a.py:A.f', 'a.py:g', 'b.py:B.h', 'a.py:A.k']);
  });

  it('makes a top-level function its own module, and a nested symbol its outermost part', () => {
    expect(goldAtLevel(['a.py:f'], 'module')).toEqual(['a.py:f']);
    expect(goldAtLevel(['pkg/x.py:Outer.Inner.m'], 'module')).toEqual(['pkg/x.py:Outer']);
  });

  it('keeps `.__init__` in function gold (the whole string, as upstream)', () => {
    expect(goldAtLevel(['m.py:C.__init__'], 'function')).toEqual(['m.py:C.__init__']);
  });
});

describe('scoreLevel', () => {
  it('returns null for empty gold', () => {
    expect(scoreLevel([], ['a.py'], [1, 3, 5])).toBeNull();
  });

  it('strict Acc@k needs every gold item in the top k', () => {
    const s = scoreLevel(['a.py', 'b.py'], ['c.py', 'a.py', 'b.py'], LEVEL_KS.file)!;
    expect(s['Acc@1']).toBe(0);
    expect(s['Acc@3']).toBe(1);
    expect(s['Acc@5']).toBe(1);
    expect(s['Recall@1']).toBe(0);
    expect(s['Recall@3']).toBe(1);
  });

  it('with more gold than k, Acc@k is 1 when the top k are all gold; recall gives partial credit', () => {
    const s = scoreLevel(['a.py', 'b.py'], ['a.py', 'c.py'], LEVEL_KS.file)!;
    expect(s['Acc@1']).toBe(1); // 2 gold > k=1, top-1 is gold
    expect(s['Acc@3']).toBe(0); // b.py missing
    expect(s['Recall@1']).toBe(0.5);
    expect(s['Recall@3']).toBe(0.5);
    expect(s['Recall@5']).toBe(0.5);
  });

  it('divides recall by min(|gold|, largest k of the level), not by min(|gold|, k)', () => {
    const gold = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'];
    const s = scoreLevel(gold, gold, LEVEL_KS.file)!; // largest k = 5
    expect(s['Recall@1']).toBeCloseTo(1 / 5, 12);
    expect(s['Recall@3']).toBeCloseTo(3 / 5, 12);
    expect(s['Recall@5']).toBe(1);
    expect([s['Acc@1'], s['Acc@3'], s['Acc@5']]).toEqual([1, 1, 1]);
  });

  it('function level with 6 gold: Acc@5 needs 5 gold in the top 5, Acc@10 all 6', () => {
    const gold = ['a', 'b', 'c', 'd', 'e', 'f'];
    const s = scoreLevel(gold, ['a', 'b', 'c', 'd', 'e', 'x', 'y'], LEVEL_KS.function)!;
    expect(s['Acc@5']).toBe(1);
    expect(s['Acc@10']).toBe(0);
    expect(s['Recall@5']).toBeCloseTo(5 / 6, 12);
    expect(s['Recall@10']).toBeCloseTo(5 / 6, 12);
  });

  it('only the top max-k predictions count', () => {
    const preds = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'g'];
    const s = scoreLevel(['g'], preds, LEVEL_KS.module)!;
    expect(s['Acc@10']).toBe(0);
    expect(s['Recall@10']).toBe(0);
  });

  it('does not de-duplicate predictions itself (a repeated gold item counts twice, as upstream)', () => {
    const raw = scoreLevel(['a.py'], ['a.py', 'a.py', 'b.py'], LEVEL_KS.file)!;
    expect(raw['Acc@1']).toBe(1);
    expect(raw['Acc@3']).toBe(0); // 2 hits != min(1, 3)
    expect(raw['Recall@3']).toBe(2);
    const deduped = scoreLevel(['a.py'], dedupePreservingOrder(['a.py', 'a.py', 'b.py']).items, LEVEL_KS.file)!;
    expect(deduped['Acc@3']).toBe(1);
    expect(deduped['Recall@3']).toBe(1);
  });

  it('computes NDCG, precision and MAP like eval_metric.py', () => {
    const s = scoreLevel(['g1', 'g2'], ['x', 'g1', 'g2'], [3])!;
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(4);
    const idcg = 1 + 1 / Math.log2(3);
    expect(s['NDCG@3']).toBeCloseTo(dcg / idcg, 12);
    expect(s['P@3']).toBeCloseTo(2 / 3, 12);
    expect(s['MAP@3']).toBeCloseTo((1 / 2 + 2 / 3) / 3, 12);
  });

  it('rejects invalid k lists', () => {
    expect(() => scoreLevel(['a'], ['a'], [])).toThrow(RangeError);
    expect(() => scoreLevel(['a'], ['a'], [0])).toThrow(RangeError);
  });
});

describe('dedupePreservingOrder', () => {
  it('keeps first occurrences and counts removals', () => {
    expect(dedupePreservingOrder(['b', 'a', 'b', 'c', 'a'])).toEqual({ items: ['b', 'a', 'c'], removed: 2 });
  });
});

describe('scoreInstance + MetricAccumulator', () => {
  it('averages per level, skipping (and counting) empty gold', () => {
    const acc = new MetricAccumulator();
    // Instance 1: perfect at every level.
    acc.add(
      scoreInstance(['a.py:A.f'], { found_files: ['a.py'], found_modules: ['a.py:A'], found_entities: ['a.py:A.f'] }),
    );
    // Instance 2: file right at rank 2, module and function wrong.
    acc.add(scoreInstance(['b.py:g'], { found_files: ['z.py', 'b.py'], found_modules: ['b.py:h'], found_entities: [] }));
    // Instance 3: no gold at all → skipped at every level.
    acc.add(scoreInstance([], { found_files: ['a.py'], found_modules: [], found_entities: [] }));
    // Instance 4: no prediction → scored as misses.
    acc.add(scoreInstance(['c.py:k'], null));

    const m = acc.result();
    expect(acc.count).toBe(4);
    expect(m.file.evaluated).toBe(3);
    expect(m.file.skippedEmptyGold).toBe(1);
    expect(m.file.scores['Acc@1']).toBeCloseTo(1 / 3, 12);
    expect(m.file.scores['Acc@3']).toBeCloseTo(2 / 3, 12);
    expect(m.module.scores['Acc@5']).toBeCloseTo(1 / 3, 12);
    expect(m.function.scores['Acc@10']).toBeCloseTo(1 / 3, 12);
    expect(fileToFunctionGap(m)).toBeCloseTo(2 / 3 - 1 / 3, 12);
  });

  it('reports empty scores and a null gap when nothing was evaluated', () => {
    const m = new MetricAccumulator().result();
    expect(m.file).toEqual({ evaluated: 0, skippedEmptyGold: 0, scores: {} });
    expect(fileToFunctionGap(m)).toBeNull();
  });
});
