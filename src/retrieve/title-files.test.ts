import { describe, expect, it } from 'vitest';
import { withTitleFiles, fuseFiles } from './title-files.js';
import type { TunedSearchOptions } from './search-repository.js';
import type { IndexStore } from '../index/index.js';
import type { FileCandidate } from './retrieval-types.js';

const file = (path: string, score: number): FileCandidate => ({ path, score, hits: [] });

describe('fuseFiles', () => {
  it('adds the weighted share of the best extra score, scaled to the best file score', () => {
    const fused = fuseFiles([file('a.py', 10), file('b.py', 8), file('c.py', 6)], [file('c.py', 4), file('b.py', 1)], 0.5);
    // c: 6 + 0.5 × 10 × 1 = 11; b: 8 + 0.5 × 10 × 0.25 = 9.25; a: 10.
    expect(fused.map((f) => [f.path, f.score])).toEqual([['c.py', 11], ['a.py', 10], ['b.py', 9.25]]);
  });

  it('joins files only the extra list has, and keeps the first order on ties', () => {
    const fused = fuseFiles([file('a.py', 4), file('b.py', 4)], [file('z.py', 2)], 1);
    expect(fused.map((f) => [f.path, f.score])).toEqual([['a.py', 4], ['b.py', 4], ['z.py', 4]]);
    expect(fuseFiles([file('a.py', 1)], [], 1)).toEqual([file('a.py', 1)]);
  });
});

describe('withTitleFiles', () => {
  it('keeps the first search’s functions and fuses the title search’s files, run files-only without common words', async () => {
    const calls: { text: string; options: TunedSearchOptions }[] = [];
    const search = async (_store: IndexStore, text: string, options: TunedSearchOptions) => {
      calls.push({ text, options });
      const title = text === 'Crash in cookies';
      return { files: title ? [file('pkg/cookies.py', 2)] : [file('pkg/a.py', 10), file('pkg/cookies.py', 7)], functions: [{ path: 'pkg/a.py', qualifiedName: 'f', score: 1 }] };
    };
    const result = await withTitleFiles({} as IndexStore, 'Crash in cookies\nbody', { titleFiles: { weight: 0.5 }, priors: { test: 0.4 } }, { weight: 0.5 }, search);
    expect(result.files.map((f) => [f.path, f.score])).toEqual([['pkg/cookies.py', 12], ['pkg/a.py', 10]]);
    expect(result.functions).toEqual([{ path: 'pkg/a.py', qualifiedName: 'f', score: 1 }]);
    expect(calls.map((c) => c.text)).toEqual(['Crash in cookies\nbody', 'Crash in cookies']);
    expect(calls[0]!.options).toEqual({ priors: { test: 0.4 }, titleFiles: { weight: 0 } });
    expect(calls[1]!.options).toEqual({ priors: { test: 0.4 }, titleFiles: { weight: 0 }, filesOnly: true, lexical: { minInformativeTerms: 1 }, evidence: { phrase: 0 } });
  });
});
