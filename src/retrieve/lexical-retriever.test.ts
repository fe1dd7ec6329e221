import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { DEFAULT_FIELD_WEIGHTS, LexicalMemo, lexicalSearch } from './lexical-retriever.js';
import { parseQuery } from './query-parser.js';
import { searchWithTuning } from './search-repository.js';

const { indexed, cleanUp } = fixtureRepositories('memo');
afterAll(cleanUp);

describe('LexicalMemo', () => {
  it('gives every setting the same answer as without it, and no caller sees another caller’s edits', async () => {
    const repository = await indexed({
      'pkg/cookies.py': 'def parse_cookie(text):\n    return text.split(";")\n\ndef dump_cookie(c):\n    return str(c)\n',
      'pkg/test_cookies.py': 'from pkg.cookies import parse_cookie\n\ndef test_parse_cookie():\n    assert parse_cookie("a=1")\n',
    });
    try {
      const memo = new LexicalMemo();
      const query = 'parse_cookie splits a cookie wrongly';
      for (const options of [{}, { priors: { test: 0.1 } }, { evidence: { definition: { weight: 1 } } }, {}]) {
        const fresh = await searchWithTuning(repository.store, query, options);
        const memoized = await searchWithTuning(repository.store, query, { ...options, lexicalMemo: memo });
        expect(memoized.hits).toEqual(fresh.hits);
        expect(memoized.functions).toEqual(fresh.functions);
        memoized.hits.forEach((hit) => (hit.score = -1));
      }
    } finally {
      repository.close();
    }
  });
});

describe('lexicalSearch maxDocumentFraction', () => {
  it('leaves out terms in at least that fraction of the chunks from a long query, never from a short one, and none at 1', async () => {
    const rare = Array.from({ length: 16 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    const repository = await indexed({
      'pkg/a.py': 'def alpha(video):\n    return video\n',
      'pkg/b.py': 'def beta(video):\n    return video\n',
      'pkg/c.py': `def gamma(video):\n    return [${rare.join(', ')}]\n`,
    });
    try {
      const terms = (tokens: string[]) => ({ ...parseQuery('video'), terms: tokens.map((token) => ({ token, weight: 1 })) });
      const options = { limit: 10, fieldWeights: DEFAULT_FIELD_WEIGHTS };
      const paths = (tokens: string[], maxDocumentFraction: number) =>
        lexicalSearch(repository.store, terms(tokens), { ...options, maxDocumentFraction }).map((h) => h.path).sort();
      expect(paths(['video', 'missing', ...rare], 0.5)).toEqual(['pkg/c.py']);
      expect(paths(['video', 'missing', ...rare], 1)).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
      expect(paths(['video', 'missing', ...rare.slice(0, 15)], 0.5)).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
      expect(paths(['video'], 0.5)).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
      // minInformativeTerms 1: a short query leaves them out too, unless nothing else matches.
      const short = (tokens: string[]) => lexicalSearch(repository.store, terms(tokens), { ...options, maxDocumentFraction: 0.5, minInformativeTerms: 1 }).map((h) => h.path).sort();
      expect(short(['video', 'worda'])).toEqual(['pkg/c.py']);
      expect(short(['video'])).toEqual(['pkg/a.py', 'pkg/b.py', 'pkg/c.py']);
    } finally {
      repository.close();
    }
  });
});
