import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { fileDocumentIndex, indexDocuments, scoreFileDocuments } from './file-documents.js';
import { definedNamesByFile } from '../index/index.js';
import { DEFAULT_FILE_LEVEL, fuseFileLevel, fuseTitleLevel, rankFileDocuments } from './file-level.js';
import type { FileCandidate } from './retrieval-types.js';
import { searchWithTuning } from './search-repository.js';

const file = (path: string, score: number): FileCandidate => ({ path, score, hits: [] });

describe('scoreFileDocuments', () => {
  const index = { ...indexDocuments(['a.py', 'b.py', 'c.py'], [['cookie', 'jar', 'jar'], ['jar', 'http'], ['http', 'http', 'client']]), buildMs: 0 };
  it('ranks by BM25 with rarer terms worth more, ties by path', () => {
    const ranked = scoreFileDocuments(index, [{ token: 'cookie', weight: 1 }, { token: 'http', weight: 1 }]);
    expect(ranked.map((r) => r.path)).toEqual(['a.py', 'c.py', 'b.py']);
    expect(scoreFileDocuments(index, [{ token: 'missing', weight: 1 }])).toEqual([]);
  });
  it('weights terms, capped at 4, and counts a repeated term once', () => {
    const once = scoreFileDocuments(index, [{ token: 'client', weight: 1 }])[0]!.score;
    expect(scoreFileDocuments(index, [{ token: 'client', weight: 2 }])[0]!.score).toBeCloseTo(2 * once);
    expect(scoreFileDocuments(index, [{ token: 'client', weight: 9 }])[0]!.score).toBeCloseTo(4 * once);
    expect(scoreFileDocuments(index, [{ token: 'client', weight: 1 }, { token: 'client', weight: 1 }])[0]!.score).toBeCloseTo(once);
  });
});

describe('fuseFileLevel', () => {
  const files = [file('a.py', 10), file('b.py', 8), file('c.py', 2)];
  const ranked = [{ path: 'c.py', score: 4 }, { path: 'd.py', score: 3 }, { path: 'b.py', score: 2 }];
  it('boost adds weight × best aggregated score × the normalised file-level score', () => {
    const fused = fuseFileLevel(files, ranked, { ...DEFAULT_FILE_LEVEL, weight: 0.5 });
    expect(fused.map((f) => [f.path, f.score])).toEqual([['a.py', 10], ['b.py', 10.5], ['c.py', 7]].sort((x, y) => (y[1] as number) - (x[1] as number)));
  });
  it('lets the best file-level files without chunk hits join only when candidates allow', () => {
    expect(fuseFileLevel(files, ranked, { ...DEFAULT_FILE_LEVEL, weight: 0.5 }).map((f) => f.path)).not.toContain('d.py');
    const fused = fuseFileLevel(files, ranked, { ...DEFAULT_FILE_LEVEL, weight: 0.5, candidates: 2 });
    expect(fused.find((f) => f.path === 'd.py')).toEqual({ path: 'd.py', score: 3.75, hits: [] });
  });
  it('rrf fuses ranks and keeps the best score on the aggregation scale', () => {
    const fused = fuseFileLevel(files, ranked, { ...DEFAULT_FILE_LEVEL, method: 'rrf', weight: 1, k: 0 });
    // a: 1/1; b: 1/2 + 1/3; c: 1/3 + 1/1 (best) → scaled so c gets 10.
    expect(fused.map((f) => f.path)).toEqual(['c.py', 'a.py', 'b.py']);
    expect(fused[0]!.score).toBeCloseTo(10);
    expect(fused[1]!.score).toBeCloseTo(10 / (4 / 3));
  });
  it('changes nothing at weight 0 or without a file-level ranking', () => {
    expect(fuseFileLevel(files, ranked, { ...DEFAULT_FILE_LEVEL, weight: 0 })).toBe(files);
    expect(fuseFileLevel(files, [], DEFAULT_FILE_LEVEL)).toBe(files);
  });
});

describe('fuseTitleLevel', () => {
  const files = [file('a.py', 10), file('b.py', 8)];
  it('adds the title ranking as fuseFiles does, letting its files join', () => {
    const fused = fuseTitleLevel(files, [{ path: 'b.py', score: 2 }, { path: 'z.py', score: 1 }], 0.5);
    // b: 8 + 0.5 × 10 × 1 = 13; z: 0.5 × 10 × 0.5 = 2.5.
    expect(fused.map((f) => [f.path, f.score])).toEqual([['b.py', 13], ['a.py', 10], ['z.py', 2.5]]);
    expect(fused[2]!.hits).toEqual([]);
  });
  it('changes nothing at weight 0 or without a title ranking', () => {
    expect(fuseTitleLevel(files, [{ path: 'b.py', score: 2 }], 0)).toBe(files);
    expect(fuseTitleLevel(files, [], 0.5)).toBe(files);
  });
});

describe('file-level documents of an index', () => {
  const fixtures = fixtureRepositories('file-level');
  let repository: RepositoryIndex;
  beforeAll(async () => {
    repository = await fixtures.indexed({
      'pkg/cookies.py': 'class CookieJar:\n    def load(self):\n        return read_store()\n',
      'pkg/network.py': 'def fetch(url):\n    """Fetch a url; the jar is read elsewhere."""\n    return open_url(url)\n',
      'pkg/util.py': 'def helper():\n    return 1\n',
      'docs/cookies.md': '# Cookies\n\nCookie jar cookie jar.\n',
    });
  });
  afterAll(() => {
    repository.close();
    fixtures.cleanUp();
  });

  it('describes a code file by its path and the names it defines; prose files have none', () => {
    const index = fileDocumentIndex(repository.store, 'identity');
    expect(index.paths).toEqual(['pkg/cookies.py', 'pkg/network.py', 'pkg/util.py']);
    const filesOf = (token: string) => Array.from(index.postings.get(token)?.files ?? [], (i) => index.paths[i]);
    expect(filesOf('cookies')).toEqual(['pkg/cookies.py']);
    expect(filesOf('jar')).toEqual(['pkg/cookies.py']); // CookieJar, not the docstring of network.py
    expect(filesOf('load')).toEqual(['pkg/cookies.py']);
    expect(filesOf('url')).toEqual([]);
    expect(fileDocumentIndex(repository.store, 'identity')).toBe(index);
    const content = fileDocumentIndex(repository.store, 'content');
    expect(Array.from(content.postings.get('jar')?.files ?? [], (i) => content.paths[i])).toEqual(['pkg/cookies.py', 'pkg/network.py']);
  });

  it('reads defined names to a depth, and sums both documents each divided by its best score', () => {
    expect(definedNamesByFile(repository.store, 0).get('pkg/cookies.py')).toEqual(['CookieJar']);
    expect(definedNamesByFile(repository.store, 1).get('pkg/cookies.py')).toEqual(['CookieJar', 'load']);
    const terms = [{ token: 'jar', weight: 1 }];
    const both = rankFileDocuments(repository.store, terms, 'both', () => 1);
    expect(both.map((f) => f.path)).toEqual(['pkg/cookies.py', 'pkg/network.py']);
    expect(both[0]!.score).toBeCloseTo(2);
    const halved = rankFileDocuments(repository.store, terms, 'both', (p) => (p === 'pkg/cookies.py' ? 0.25 : 1));
    expect(halved.map((f) => f.path)).toEqual(['pkg/network.py', 'pkg/cookies.py']);
    // Only the best `ordered` files in order: the full ranking's prefix, and the same files with the same scores.
    const byPath = (list: { path: string; score: number }[]) => [...list].sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const prior of [() => 1, (p: string) => (p === 'pkg/cookies.py' ? 0.25 : 1), (p: string) => (p === 'pkg/cookies.py' ? 0.5 : 1)]) {
      const full = rankFileDocuments(repository.store, terms, 'both', prior);
      const first = rankFileDocuments(repository.store, terms, 'both', prior, undefined, 1);
      expect(first[0]).toEqual(full[0]);
      expect(byPath(first)).toEqual(byPath(full));
    }
  });

  it('ranks one document kind as its BM25 divided by the best, times the prior, filtered', () => {
    const terms = [{ token: 'jar', weight: 1 }, { token: 'fetch', weight: 2 }];
    const prior = (p: string) => (p === 'pkg/network.py' ? 0.5 : 1);
    for (const kind of ['identity', 'content'] as const) {
      const plain = scoreFileDocuments(fileDocumentIndex(repository.store, kind), terms);
      const expected = plain.map((f) => ({ path: f.path, score: (f.score / plain[0]!.score) * prior(f.path) })).sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
      expect(rankFileDocuments(repository.store, terms, kind, prior)).toEqual(expected);
      const kept = rankFileDocuments(repository.store, terms, kind, prior, (p) => p !== 'pkg/cookies.py');
      expect(kept).toEqual(expected.filter((f) => f.path !== 'pkg/cookies.py'));
    }
    expect(rankFileDocuments(repository.store, [{ token: 'nowhere', weight: 1 }], 'identity', prior)).toEqual([]);
  });

  it('lists below the ordered head only the files `keep` holds', () => {
    const terms = [{ token: 'jar', weight: 1 }, { token: 'fetch', weight: 2 }, { token: 'helper', weight: 1 }];
    for (const kind of ['identity', 'content', 'both'] as const) {
      const full = rankFileDocuments(repository.store, terms, kind, () => 1);
      expect(full.map((f) => f.score)).toEqual([...new Set(full.map((f) => f.score))]);
      expect(full).toHaveLength(3);
      expect(rankFileDocuments(repository.store, terms, kind, () => 1, undefined, 1, new Set())).toEqual(full.slice(0, 1));
      expect(rankFileDocuments(repository.store, terms, kind, () => 1, undefined, 1, new Set([full[2]!.path]))).toEqual([full[0], full[2]]);
      expect(rankFileDocuments(repository.store, terms, kind, () => 1, undefined, 2, new Set([full[0]!.path]))).toEqual(full.slice(0, 2));
    }
  });

  it('brings in a file with no chunk among the hits when candidates allow', async () => {
    const query = 'fetch url: the jar breaks';
    const narrow = { aggregation: { topChunks: 1 }, evidence: { fileName: { weight: 0 } }, fileLevel: { weight: 0 } };
    expect((await searchWithTuning(repository.store, query, narrow)).files.map((f) => f.path)).toEqual(['pkg/network.py']);
    expect((await searchWithTuning(repository.store, query, { ...narrow, fileLevel: {} })).files.map((f) => f.path)).toEqual(['pkg/network.py']);
    const withLevel = await searchWithTuning(repository.store, query, { ...narrow, fileLevel: { candidates: 3, rankSymbols: true } });
    expect(withLevel.files.map((f) => f.path)).toEqual(['pkg/network.py', 'pkg/cookies.py']);
    expect(withLevel.files[1]!.hits).toEqual([]);
    // The fused file score reaches the functions (fileWeight) only when rankSymbols is true (default false).
    const plain = await searchWithTuning(repository.store, query, narrow);
    expect(withLevel.functions[0]!.score).toBeGreaterThan(plain.functions[0]!.score);
    const filesOnly = await searchWithTuning(repository.store, query, { ...narrow, fileLevel: { candidates: 3, rankSymbols: false } });
    expect(filesOnly.files.map((f) => f.path)).toEqual(['pkg/network.py', 'pkg/cookies.py']);
    expect(filesOnly.functions).toEqual(plain.functions);
    const filtered = await searchWithTuning(repository.store, query, { ...narrow, fileLevel: { candidates: 3 }, pathFilter: (p) => p !== 'pkg/cookies.py' });
    expect(filtered.files.map((f) => f.path)).toEqual(['pkg/network.py']);
  });

  it('ranks files by the title alone too (titleWeight), for multi-line queries, files only', async () => {
    // The body matches network.py only; the title names what cookies.py defines.
    const query = 'Jar is broken\n`fetch(url)` fails: `open_url` in `fetch` reads no url';
    const narrow = { aggregation: { topChunks: 1 }, evidence: { fileName: { weight: 0 } } };
    const off = await searchWithTuning(repository.store, query, { ...narrow, fileLevel: { titleWeight: 0 } });
    expect(off.files.map((f) => f.path)).toEqual(['pkg/network.py']);
    const on = await searchWithTuning(repository.store, query, narrow);
    expect(DEFAULT_FILE_LEVEL.titleWeight).toBeGreaterThan(0);
    expect(on.files.map((f) => f.path)).toEqual(['pkg/network.py', 'pkg/cookies.py']);
    expect(on.functions).toEqual(off.functions);
    // Without the file-identity boost of the whole query, the title ranking still applies.
    const titleOnly = await searchWithTuning(repository.store, query, { ...narrow, fileLevel: { weight: 0 } });
    expect(titleOnly.files.map((f) => f.path)).toEqual(['pkg/network.py', 'pkg/cookies.py']);
    // A one-line query has no title.
    const oneLine = await searchWithTuning(repository.store, query.replace('\n', ' '), { ...narrow, fileLevel: { weight: 0 } });
    expect(oneLine.files.map((f) => f.path)).not.toContain('pkg/cookies.py');
  });
});
