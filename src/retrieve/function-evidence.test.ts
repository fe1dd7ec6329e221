import { afterAll, describe, expect, it } from 'vitest';
import type { SymbolRow } from '../index/index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { classCoverage } from './class-match.js';
import { extractDiffLines, extractLinkedLines } from './linked-lines.js';
import { titleNameShare } from './title-names.js';
import { searchRepository } from './search-repository.js';

const { indexed, cleanUp } = fixtureRepositories('function-evidence');
afterAll(cleanUp);

const names = (r: { functions: { path: string; qualifiedName: string }[] }) => r.functions.map((f) => `${f.path}:${f.qualifiedName}`);
/** Every structural lever off, so one test measures one. */
const ISOLATED = { memberWeight: 0, fileWeight: 0, nameWeight: 0, callWeight: 0, linkWeight: 0, diffWeight: 0, classWeight: 0, eponymWeight: 0, titleNameWeight: 0 };
const filler = (n: number, word = 'value') => Array.from({ length: n }, (_, i) => `    step_${i} = run_${i}(${word})\n`).join('');

describe('linked lines (linkWeight)', () => {
  it('reads GitHub and GitLab blob links with a line anchor, and nothing else', () => {
    const text = [
      'see https://github.com/o/r/blob/21f5f92a/aiohttp/payload.py#L97 and',
      '(https://github.com/o/r/blob/main/sympy/ntheory/generate.py#L424-L439)',
      'https://gitlab.com/g/p/-/blob/v1.0/src/a%20b.py#L12-34',
      'https://github.com/o/r/blob/main/CONTRIBUTING.md#opening-an-issue https://github.com/o/r/issues/12',
    ].join('\n');
    expect(extractLinkedLines(text)).toEqual([
      { path: 'aiohttp/payload.py', start: 97, end: 97 },
      { path: 'sympy/ntheory/generate.py', start: 424, end: 439 },
      { path: 'src/a b.py', start: 12, end: 34 },
    ]);
  });

  it('reads the changed lines of a pasted unified diff, per hunk, in old-file lines', () => {
    const text = [
      'Proposed fix:',
      '```diff',
      'diff --git a/pkg/client.py b/pkg/client.py',
      'index dad7fe78e..1eeaf7068 100644',
      '--- a/pkg/client.py',
      '+++ b/pkg/client.py',
      '@@ -105,6 +105,6 @@ class Info:',
      '     url: URL',
      '',
      '-    real_url: URL = attr.ib()',
      '+    real_url: URL',
      '@@ -401,4 +401,5 @@ class Client:',
      '     @property',
      '     def request_info(self) -> Info:',
      '+        headers = self.headers',
      '         return Info(self.url)',
      '```',
      '--- a horizontal rule is not a diff',
      '- a list item is not a removed line',
    ].join('\n');
    expect(extractDiffLines(text)).toEqual([
      { path: 'pkg/client.py', start: 107, end: 107, via: 'diff' },
      { path: 'pkg/client.py', start: 402, end: 402, via: 'diff' },
    ]);
    expect(extractLinkedLines(text)).toEqual(extractDiffLines(text));
  });

  it('the function a pasted diff changes gains diffWeight × the best score', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/generate.py': `def slow_search(n):\n    """Slow search for the nth value."""\n    return n\n\n\ndef prime(k):\n${filler(4)}    return k\n`,
    });
    try {
      const query = 'nth value slow search\n--- a/pkg/generate.py\n+++ b/pkg/generate.py\n@@ -7,1 +7,1 @@\n-    old = 1\n+    new = 2\n';
      const off = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, linkWeight: 1 } });
      expect(names(off)[0]).toBe('pkg/generate.py:slow_search');
      const on = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, diffWeight: 1 } });
      expect(names(on)[0]).toBe('pkg/generate.py:prime');
    } finally {
      repository.close();
    }
  });

  it('the function containing a linked line is a candidate and gains linkWeight × the best score', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      // Line 7 is inside `prime`, which shares no word with the issue.
      'pkg/generate.py': `def slow_search(n):\n    """Slow search for the nth value."""\n    return n\n\n\ndef prime(k):\n${filler(4)}    return k\n`,
    });
    try {
      const query = 'nth value slow search\nhttps://github.com/o/r/blob/abc123/pkg/generate.py#L7';
      const off = await searchRepository(repository.store, query, { symbolRanking: ISOLATED });
      expect(names(off)[0]).toBe('pkg/generate.py:slow_search');
      const on = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, linkWeight: 1 } });
      expect(names(on)[0]).toBe('pkg/generate.py:prime');
      expect(on.functions[0]!.score).toBeGreaterThanOrEqual(on.hits[0]!.score);
    } finally {
      repository.close();
    }
  });
});

const row = (qualifiedName: string, kind: string, parent: string | null = null) =>
  ({ qualifiedName, name: qualifiedName.split('.').pop()!, kind, parent, startLine: 1, endLine: 2 }) as unknown as SymbolRow;

describe('the class the query names (classWeight)', () => {
  it('leaves out name parts most classes of the file share, and matches the rest to query terms', () => {
    const symbols = [row('BiliBiliIE', 'class'), row('BilibiliSpaceVideoIE', 'class'), row('BiliLiveIE', 'class'), row('BiliBiliIE._real_extract', 'method', 'BiliBiliIE')];
    const coverage = classCoverage(symbols, new Set(['bilibili', 'bili', 'video']));
    expect(coverage.get('BiliBiliIE')).toBe(1);
    expect(coverage.get('BilibiliSpaceVideoIE')).toBeCloseTo(2 / 3, 6);
    // `bili` is in two of the three classes: only `live` tells BiliLiveIE apart.
    expect(coverage.get('BiliLiveIE')).toBe(0);
  });

  it('reorders same-named methods by their class, and gives them only their own scores', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/sites.py': [
        'class SpaceVideoSite:\n    def extract(self, url):\n        """Extract the video page formats from the url, video formats."""\n        return url\n',
        'class TubeSite:\n    def extract(self, url):\n        """Extract the page formats."""\n        return url\n',
        'class OtherSite:\n    def extract(self, url):\n        return url\n',
      ].join('\n'),
    });
    try {
      const query = '[Tube] video page formats missing from extract';
      const off = await searchRepository(repository.store, query, { symbolRanking: ISOLATED });
      expect(names(off).slice(0, 2)).toEqual(['pkg/sites.py:SpaceVideoSite.extract', 'pkg/sites.py:TubeSite.extract']);
      const on = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, classWeight: 1 } });
      expect(names(on).slice(0, 2)).toEqual(['pkg/sites.py:TubeSite.extract', 'pkg/sites.py:SpaceVideoSite.extract']);
      expect(on.functions.map((f) => f.score).sort()).toEqual(off.functions.map((f) => f.score).sort());
    } finally {
      repository.close();
    }
  });
});

describe('a module\'s eponymous function (eponymWeight)', () => {
  it('lifts `order.py:order` when the query has `order` as a term, and adds nothing when a traceback frame names it', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/order.py': `def order(graph):\n${filler(60, 'graph')}    return graph\n\n\ndef ordering_helper(graph):\n    """Suboptimal ordering of the graph."""\n    return graph\n`,
    });
    try {
      const query = 'order: suboptimal ordering of the graph';
      const off = await searchRepository(repository.store, query, { symbolRanking: ISOLATED });
      expect(names(off)[0]).toBe('pkg/order.py:ordering_helper');
      const on = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, eponymWeight: 1 } });
      expect(names(on)[0]).toBe('pkg/order.py:order');
      const framedQuery = `${query}\n  File "pkg/order.py", line 3, in order`;
      const score = async (weight: number) => (await searchRepository(repository.store, framedQuery, { symbolRanking: { ...ISOLATED, eponymWeight: weight } })).functions.find((f) => f.qualifiedName === 'order')?.score;
      expect(await score(1)).toBe(await score(0));
    } finally {
      repository.close();
    }
  });
});

describe('names the title spells (titleNameWeight)', () => {
  it('shares a name by its parts, and only when enough of them are title terms', () => {
    const title = new Set(['defer', 'submit', 'tasks', 'load', 'model']);
    expect(titleNameShare('submit', title)).toBe(1);
    expect(titleNameShare('_load_model_from_fileobj', title)).toBe(0.5);
    expect(titleNameShare('_load_model_from_fileobj', title, 3)).toBe(0);
    expect(titleNameShare('apply_async', title)).toBe(0);
    expect(titleNameShare('__init__', title)).toBe(0);
  });

  it('a ranked file\'s function the title names is a candidate and gains titleNameWeight × share × the best score', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/tasks.py': `def map_values(values):\n    """Map the values of a task: mapped values, task values."""\n    return values\n\n\ndef submit(job):\n${filler(4)}    return job\n`,
    });
    try {
      const query = `Control whether to submit\n${'map the values of a task, mapped task values. '.repeat(4)}`;
      const off = await searchRepository(repository.store, query, { symbolRanking: ISOLATED });
      expect(names(off)[0]).toBe('pkg/tasks.py:map_values');
      const on = await searchRepository(repository.store, query, { symbolRanking: { ...ISOLATED, titleNameWeight: 2 } });
      expect(names(on)[0]).toBe('pkg/tasks.py:submit');
    } finally {
      repository.close();
    }
  });
});
