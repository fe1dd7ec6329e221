import { afterAll, describe, expect, it } from 'vitest';
import type { SymbolRow } from '../index/index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { classCoverage } from './class-match.js';
import { extractLinkedLines } from './linked-lines.js';
import { searchWithTuning } from './search-repository.js';
import { queryTitle, titleWordPairs } from './module-names.js';
import { parseQuery } from './query-parser.js';

const { indexed, cleanUp } = fixtureRepositories('function-evidence');
afterAll(cleanUp);

const names = (r: { functions: { path: string; qualifiedName: string }[] }) => r.functions.map((f) => `${f.path}:${f.qualifiedName}`);
/** Every structural lever off, so one test measures one. */
const ISOLATED = { memberWeight: 0, fileWeight: 0, nameWeight: 0, callWeight: 0, linkWeight: 0, classWeight: 0, eponymWeight: 0 };
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

  it('the function containing a linked line is a candidate and gains linkWeight × the best score', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      // Line 7 is inside `prime`, which shares no word with the issue.
      'pkg/generate.py': `def slow_search(n):\n    """Slow search for the nth value."""\n    return n\n\n\ndef prime(k):\n${filler(4)}    return k\n`,
    });
    try {
      const query = 'nth value slow search\nhttps://github.com/o/r/blob/abc123/pkg/generate.py#L7';
      const off = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: ISOLATED });
      expect(names(off)[0]).toBe('pkg/generate.py:slow_search');
      const on = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: { ...ISOLATED, linkWeight: 1 } });
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
      const off = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: ISOLATED });
      expect(names(off).slice(0, 2)).toEqual(['pkg/sites.py:SpaceVideoSite.extract', 'pkg/sites.py:TubeSite.extract']);
      const on = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: { ...ISOLATED, classWeight: 1 } });
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
      const off = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: ISOLATED });
      expect(names(off)[0]).toBe('pkg/order.py:ordering_helper');
      const on = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: { ...ISOLATED, eponymWeight: 1 } });
      expect(names(on)[0]).toBe('pkg/order.py:order');
      const framedQuery = `${query}\n  File "pkg/order.py", line 3, in order`;
      const score = async (weight: number) => (await searchWithTuning(repository.store, framedQuery, { ranker: 'hand', symbolRanking: { ...ISOLATED, eponymWeight: weight } })).functions.find((f) => f.qualifiedName === 'order')?.score;
      expect(await score(1)).toBe(await score(0));
    } finally {
      repository.close();
    }
  });
});

describe('a function the title names by its module (eponymWeight, titleModulePairs)', () => {
  it('lifts `cli/deployment.py:build` above the chunk ranking\'s best for a title writing `deployment build`', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/cli/deployment.py': `def build(name):\n${filler(20, 'name')}    return name\n\n\ndef apply(name):\n    return name\n`,
      'pkg/images.py': `def build_image(tag):\n    """Remove the build command and build the docker image from the main branch."""\n    return tag\n`,
      'pkg/server/deployment.py': `def build(spec):\n    return spec\n`,
      'tests/test_deployment.py': `def build():\n    return 1\n`,
    });
    try {
      const query = 'Remove `prefect deployment build` CLI from the main branch\nThe build command is deprecated.';
      const pairsOff = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: { ...ISOLATED, eponymWeight: 1, titleModulePairs: false } });
      expect(names(pairsOff)[0]).toBe('pkg/images.py:build_image');
      const on = await searchWithTuning(repository.store, query, { ranker: 'hand', symbolRanking: { ...ISOLATED, eponymWeight: 1 } });
      // Two non-test files define a top-level `build` in a `deployment` module: both are named (the test file's is not lifted).
      expect(names(on).slice(0, 2).sort()).toEqual(['pkg/cli/deployment.py:build', 'pkg/server/deployment.py:build']);
    } finally {
      repository.close();
    }
  });

  it("reads consecutive title words (space, dot, slash, colon) and nothing after the first line; a one-line query is its own title", () => {
    const pairs = (text: string) => titleWordPairs(queryTitle(parseQuery(text)));
    expect(pairs('Fix saving_lib.load_model for zip\nbody words here')).toEqual([['fix', 'saving_lib'], ['saving_lib', 'load_model'], ['load_model', 'for'], ['for', 'zip']]);
    expect(pairs('<!-- template -->\nFix saving_lib.load_model\nbody')).toEqual([['fix', 'saving_lib'], ['saving_lib', 'load_model']]);
    expect(pairs('deployment build')).toEqual([['deployment', 'build']]);
    expect(pairs('order order')).toEqual([]);
  });
});
