import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../test/helpers/mulberry32.js';
import { FEATURE_NAMES, type SearchFeatures } from '../ranking-features.js';
import { applyLearnedRanker, loadRankerModel, RankerModelError, validateRankerModel, type RankerModel } from './learned-ranker.js';

const dir = mkdtempSync(join(tmpdir(), 'reponav-ranker-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A model whose file tree prefers a higher `best-hit` (feature index of FEATURE_NAMES.file) and whose other levels keep the hand order. */
function model(): RankerModel {
  const f = FEATURE_NAMES.file.indexOf('best-hit');
  return {
    format: 'reponav-ranker/1',
    top: 3,
    levels: {
      file: { features: [...FEATURE_NAMES.file], base: { feature: 'hand-rank', scale: 1 }, trees: [{ feature: [f, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 0, 3] }] },
      module: { features: [...FEATURE_NAMES.module], base: { feature: 'hand-rank', scale: 1 }, trees: [] },
      function: { features: [...FEATURE_NAMES.function], base: { feature: 'hand-rank', scale: 1 }, trees: [] },
    },
    provenance: {},
  };
}

const row = (bestHit: number, rank: number) => FEATURE_NAMES.file.map((name) => (name === 'best-hit' ? bestHit : name === 'hand-rank' ? 1 / (1 + rank) : 0));
const features = (keys: string[], bestHits: number[]): SearchFeatures => ({
  file: { keys, x: bestHits.map((b, i) => row(b, i)) },
  module: { keys: [], x: [] },
  function: { keys: [], x: [] },
});
const file = (path: string, score: number) => ({ path, score, hits: [] });

describe('the learned ranker', () => {
  it('reorders the first `top` candidates by the model and gives them the hand scores in order', () => {
    const lists = { files: [file('a.py', 9), file('b.py', 5), file('c.py', 4), file('d.py', 1)], modules: [], functions: [] };
    const out = applyLearnedRanker(model(), lists, features(['a.py', 'b.py', 'c.py'], [0.1, 0.2, 0.9]));
    expect(out.files.map((f) => [f.path, f.score])).toEqual([['c.py', 9], ['a.py', 5], ['b.py', 4], ['d.py', 1]]);
  });

  it('with no tree that fires keeps the hand order (the base is the hand rank)', () => {
    const lists = { files: [file('a.py', 9), file('b.py', 5), file('c.py', 4)], modules: [], functions: [] };
    const out = applyLearnedRanker(model(), lists, features(['a.py', 'b.py', 'c.py'], [0.1, 0.2, 0.3]));
    expect(out.files.map((f) => f.path)).toEqual(['a.py', 'b.py', 'c.py']);
  });

  it('refuses features of other candidates than the list', () => {
    const lists = { files: [file('a.py', 9), file('b.py', 5)], modules: [], functions: [] };
    expect(() => applyLearnedRanker(model(), lists, features(['b.py', 'a.py'], [0, 1]))).toThrow(RankerModelError);
  });

  it('rejects a model trained on other features, an unknown key, and a tree whose child does not come after its parent', () => {
    const renamed = model();
    renamed.levels.file.features[0] = 'old-name';
    expect(() => validateRankerModel(renamed, 'm.json')).toThrow(/other file features/);
    expect(() => validateRankerModel({ ...model(), extra: 1 }, 'm.json')).toThrow(/not a reponav ranker model/);
    const loop = model();
    loop.levels.file.trees[0]!.left[0] = 0;
    expect(() => validateRankerModel(loop, 'm.json')).toThrow(/malformed node 0/);
  });

  it('names the file when a model cannot be read or is not JSON', () => {
    expect(() => loadRankerModel(join(dir, 'missing.json'))).toThrow(/missing\.json cannot be read/);
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(() => loadRankerModel(join(dir, 'bad.json'))).toThrow(/bad\.json is not JSON/);
    writeFileSync(join(dir, 'good.json'), JSON.stringify(model()));
    expect(loadRankerModel(join(dir, 'good.json')).top).toBe(3);
  });
});

describe('the learned ranker on generated lists and models', () => {
  it('returns the head reordered, the tail in place and scores descending, for 300 seeded lists and random trees', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = mulberry32(seed);
      const n = 1 + Math.floor(r() * 12);
      const top = 1 + Math.floor(r() * 10);
      const width = FEATURE_NAMES.file.length;
      // A random tree of depth ≤ 2 over random features, children after parents.
      const tree = { feature: [Math.floor(r() * width), Math.floor(r() * width), -1, -1, -1], threshold: [r(), r(), 0, 0, 0], left: [1, 3, -1, -1, -1], right: [2, 4, -1, -1, -1], value: [0, 0, r() * 4 - 2, r() * 4 - 2, r() * 4 - 2] };
      const m = model();
      m.top = top;
      m.levels.file.trees = [validateRankerModel({ ...m, levels: { ...m.levels, file: { ...m.levels.file, trees: [tree] } } }, `seed ${seed}`).levels.file.trees[0]!];
      const files = Array.from({ length: n }, (_, i) => file(`f${i}.py`, 100 - i * (1 + r())));
      const head = files.slice(0, top);
      const x = head.map((_, i) => FEATURE_NAMES.file.map((name) => (name === 'hand-rank' ? 1 / (1 + i) : r())));
      const out = applyLearnedRanker(m, { files, modules: [], functions: [] }, { file: { keys: head.map((f) => f.path), x }, module: { keys: [], x: [] }, function: { keys: [], x: [] } });
      const label = `seed ${seed}`;
      expect([...out.files.slice(0, head.length).map((f) => f.path)].sort(), label).toEqual(head.map((f) => f.path).sort());
      expect(out.files.slice(head.length), label).toEqual(files.slice(head.length));
      expect(out.files.map((f) => f.score), label).toEqual(files.map((f) => f.score));
      const again = applyLearnedRanker(m, { files, modules: [], functions: [] }, { file: { keys: head.map((f) => f.path), x }, module: { keys: [], x: [] }, function: { keys: [], x: [] } });
      expect(again.files.map((f) => f.path), label).toEqual(out.files.map((f) => f.path));
    }
  });
});
