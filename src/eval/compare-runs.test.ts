import { describe, expect, it } from 'vitest';
import { compareRuns, renderComparisonMarkdown, type RunScores } from './compare-runs.js';
import { scoreInstance } from './locbench-metrics.js';
import { pairedBootstrap } from './paired-bootstrap.js';

const row = (id: string, repo: string, gold: string[], files: string[], entities: string[]) => ({
  instanceId: id,
  repo,
  category: 'Bug Report',
  predicted: true,
  scores: scoreInstance(gold, { found_files: files, found_modules: [], found_entities: entities }),
});

describe('compareRuns', () => {
  const a: RunScores = {
    label: 'A',
    rows: [
      row('i1', 'o/x', ['a.py:f'], ['z.py'], []),
      row('i2', 'o/x', ['b.py:g'], ['b.py'], ['b.py:g']),
      row('i3', 'o/y', ['c.py:h'], ['c.py'], []),
      row('i4', 'o/y', ['d.py:k'], ['d.py'], ['d.py:k']),
    ],
  };
  const b: RunScores = {
    label: 'B',
    rows: [
      row('i1', 'o/x', ['a.py:f'], ['a.py'], ['a.py:f']),
      row('i2', 'o/x', ['b.py:g'], ['b.py'], ['b.py:g']),
      row('i3', 'o/y', ['c.py:h'], ['x.py'], []),
      row('i5', 'o/y', ['e.py:k'], ['e.py'], []),
    ],
  };

  it('pairs the instances both runs cover and reports per-metric differences, flips and per-repo figures', () => {
    const c = compareRuns(a, b, { resamples: 2000, seed: 5 });
    expect(c).toMatchObject({ baseline: 'A', label: 'B', paired: 3, onlyBaseline: 1, onlyOther: 1 });
    const file5 = c.measures.find((m) => m.level === 'file' && m.metric === 'Acc@5')!;
    expect(file5).toMatchObject({ meanA: 2 / 3, meanB: 2 / 3, won: 1, lost: 1, tied: 1, wonInstances: ['i1'], lostInstances: ['i3'], pValue: 1 });
    const fn5 = c.measures.find((m) => m.level === 'function' && m.metric === 'Acc@5')!;
    // The same figures as a direct bootstrap of the paired per-instance scores (same seed, same draw).
    expect(fn5).toMatchObject(pairedBootstrap([0, 1, 0], [1, 1, 0], { resamples: 2000, seed: 5 }));
    expect(fn5.wonInstances).toEqual(['i1']);
    expect(c.byRepo).toEqual([
      { repo: 'o/x', n: 2, file: [0.5, 1], function: [0.5, 1] },
      { repo: 'o/y', n: 1, file: [1, 0], function: [0, 0] },
    ]);
    const md = renderComparisonMarkdown(c);
    expect(md).toContain('3 paired instances, 2,000 resamples, seed 5');
    expect(md).toContain('Left out: 1 only in A, 1 only in B.');
    expect(md).toMatch(/\| file \| Acc@5 \| 0\.667 \| 0\.667 \| ±0\.000 \|/);
    expect(md).toContain('Flipped at file Acc@5: won 1 (i1); lost 1 (i3).');
  });
});
