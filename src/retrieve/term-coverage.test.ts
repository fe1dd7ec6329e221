import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { searchWithTuning } from './search-repository.js';

const { indexed, cleanUp } = fixtureRepositories('term-coverage');
afterAll(cleanUp);

const names = (r: { functions: { path: string; qualifiedName: string }[] }) => r.functions.map((f) => `${f.path}:${f.qualifiedName}`);
/** Every other structural lever off, so the test measures coverage alone. */
const ISOLATED = { memberWeight: 0, fileWeight: 0, nameWeight: 0, callWeight: 0, linkWeight: 0, classWeight: 0, eponymWeight: 0 };
const filler = (n: number) => Array.from({ length: n }, (_, i) => `    step_${i} = run_${i}(value)\n`).join('');

// A long issue text (more than minTerms terms) whose words the first file's
// `scheduler_loop` holds several of, spread over a long body that BM25's
// length normalisation sinks; short functions in two other files hold one word each.
const files = {
  'pkg/__init__.py': '',
  'pkg/local.py': `def scheduler_loop(value):\n    memory = release_results(value)\n${filler(60)}    cache = worker_state(memory)\n    return threads_queue(cache)\n\ndef unrelated(value):\n    return value\n`,
  'pkg/other.py': `def memory():\n    """memory memory"""\n    return 1\n\ndef cache():\n    """cache cache"""\n    return 2\n`,
  'pkg/third.py': `def worker():\n    """worker worker"""\n    return 3\n\ndef threads():\n    """threads threads"""\n    return 4\n`,
};
const query = [
  'Regression: poor memory management in the scheduler loop',
  'The release of results keeps memory alive: the worker state cache and the threads queue grow',
  'with every task, and the loop never frees the results it has released. Seen with several',
  'schedulers and thread pools, both synchronous and threaded, on large graphs of many tasks.',
].join('\n');

describe('within-file term coverage (symbolRanking.coverage)', () => {
  it('the best-covered function of the first file gains weight × the best hit score; a settled top 5 is left alone', async () => {
    const repository = await indexed(files);
    try {
      const off = await searchWithTuning(repository.store, query, { symbolRanking: ISOLATED });
      const on = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, coverage: { weight: 1, files: 1, minSpread: 1 } } });
      const top = on.files[0]!.path;
      const best = Math.max(...on.hits.map((h) => h.score));
      const first = on.functions.find((f) => f.path === top)!;
      const before = off.functions.find((f) => f.path === first.path && f.qualifiedName === first.qualifiedName)?.score ?? 0;
      expect(first.score).toBeCloseTo(before + best, 6);
      // Only the first file's functions gain; the other files' scores are untouched.
      for (const f of on.functions.filter((g) => g.path !== top)) expect(f.score).toBe(off.functions.find((g) => g.path === f.path && g.qualifiedName === f.qualifiedName)!.score);
      // A function holding no query term does not join.
      expect(names(on)).not.toContain('pkg/local.py:unrelated');
      // The top 5 spans 3 files here: asking for 4 keeps the ranking as it was.
      const settled = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, coverage: { weight: 1, files: 1, minSpread: 4 } } });
      expect(settled.functions).toEqual(off.functions);
      // The first file already has a function in the top 5: maxInTop 1 leaves it alone.
      const represented = await searchWithTuning(repository.store, query, { symbolRanking: { ...ISOLATED, coverage: { weight: 1, files: 1, minSpread: 1, maxInTop: 1 } } });
      expect(represented.functions).toEqual(off.functions);
    } finally {
      repository.close();
    }
  });

  it('a short query (fewer than minTerms terms) changes nothing', async () => {
    const repository = await indexed(files);
    try {
      const short = 'memory cache';
      const off = await searchWithTuning(repository.store, short, { symbolRanking: ISOLATED });
      const on = await searchWithTuning(repository.store, short, { symbolRanking: { ...ISOLATED, coverage: { weight: 1, files: 3, minSpread: 1 } } });
      expect(on.functions).toEqual(off.functions);
    } finally {
      repository.close();
    }
  });
});
