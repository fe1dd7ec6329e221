import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { searchWithTuning } from './search-repository.js';
import { testedStem } from './tested-code.js';

const { indexed, cleanUp } = fixtureRepositories('structure');
afterAll(cleanUp);

const rankOf = (names: string[], name: string) => names.indexOf(name);

describe('definition evidence', () => {
  it('adds weight × the best score to the definition of a name the issue writes in code form, not to its callers', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      // A long body dilutes BM25's length-normalised score of the one definition the issue names.
      'pkg/cookies.py': `def merge_cookie_jar(jar, other):\n${Array.from({ length: 120 }, (_, i) => `    value_${i} = compute_${i}(other)\n`).join('')}    return jar\n`,
      // Callers repeat the name and the words: BM25 ranks them above the definition.
      'pkg/session.py': Array.from({ length: 6 }, (_, i) => `def send_${i}(cookie, jar):\n    jar = merge_cookie_jar(jar, cookie)\n    jar = merge_cookie_jar(jar, cookie)\n    return merge_cookie_jar(cookie, jar)\n`).join('\n'),
    });
    try {
      const query = 'Cookies lost\nCalling `merge_cookie_jar` with a cookie jar and a merge of cookies drops the cookie.';
      // Symbol-level levers off: the name boost scales with the best score, which the definition boost moves.
      const symbolRanking = { nameWeight: 0, fileWeight: 0 };
      const off = await searchWithTuning(repository.store, query, { evidence: { definition: { weight: 0 } }, symbolRanking });
      const on = await searchWithTuning(repository.store, query, { evidence: { definition: { weight: 1 } }, symbolRanking });
      const score = (r: typeof on, qualifiedName: string) => r.functions.find((f) => f.qualifiedName === qualifiedName)!.score;
      const lead = (r: typeof on) => score(r, 'merge_cookie_jar') - score(r, 'send_0');
      // The definition gains weight × the best raw score (one definition); its callers gain nothing.
      expect(lead(on) - lead(off)).toBeCloseTo(off.hits[0]!.score, 6);
      expect(on.functions[0]!.qualifiedName).toBe('merge_cookie_jar');
    } finally {
      repository.close();
    }
  });

  it('ignores a name defined in more places than maxDefinitions, and narrows Class.method by its qualifier', async () => {
    const files: Record<string, string> = { 'pkg/__init__.py': '' };
    for (const n of ['a', 'b', 'c', 'd']) files[`pkg/${n}.py`] = `class Widget${n.toUpperCase()}:\n    def resize(self, width):\n        return width\n`;
    const repository = await indexed(files);
    try {
      const generic = await searchWithTuning(repository.store, 'Call `resize` please', { evidence: { definition: { weight: 1, maxDefinitions: 3 } } });
      const plain = await searchWithTuning(repository.store, 'Call `resize` please', { evidence: { definition: { weight: 0 } } });
      expect(generic.functions.map((f) => f.score)).toEqual(plain.functions.map((f) => f.score));
      const qualified = await searchWithTuning(repository.store, 'Call `WidgetC.resize` please', { evidence: { definition: { weight: 1, maxDefinitions: 3 } } });
      expect(`${qualified.functions[0]!.path}:${qualified.functions[0]!.qualifiedName}`).toBe('pkg/c.py:WidgetC.resize');
    } finally {
      repository.close();
    }
  });
});

describe('tested code', () => {
  it('reads the subject from test file names', () => {
    expect(testedStem('tests/test_cookies.py')).toBe('cookies');
    expect(testedStem('pkg/cookies_test.go')).toBe('cookies');
    expect(testedStem('src/cookies.test.ts')).toBe('cookies');
    expect(testedStem('tests/conftest.py')).toBeNull();
    expect(testedStem('pkg/cookies.py')).toBeNull();
  });

  it('a test file ranking high raises the file it imports and is named after', async () => {
    const repository = await indexed({
      'pkg/__init__.py': '',
      'pkg/cookies.py': 'def load(path):\n    return open(path).read()\n',
      'pkg/noise.py': 'def expiry_parse(value):\n    """expiry of a session value"""\n    return value\n',
      'pkg/other.py': 'def helper():\n    return 1\n',
      'tests/test_cookies.py':
        'from pkg.cookies import load\nfrom pkg.other import helper\n\ndef test_expiry_session_cookie_parse():\n    assert load("expiry session cookie parse")\n',
    });
    try {
      const query = 'Session cookie expiry parse fails';
      // The file-level ranking (on by default) also finds cookies.py by its name; off here to see this lever alone.
      const off = await searchWithTuning(repository.store, query, { testedCode: { weight: 0 }, fileLevel: { weight: 0 } });
      const on = await searchWithTuning(repository.store, query, { testedCode: { weight: 1 }, fileLevel: { weight: 0 } });
      const files = (r: typeof on) => r.files.map((f) => f.path);
      expect(rankOf(files(on), 'pkg/cookies.py')).toBeLessThan(rankOf(files(on), 'pkg/noise.py'));
      // The other import is not named after the test: the name match picks cookies.py alone.
      expect(files(on).includes('pkg/other.py')).toBe(files(off).includes('pkg/other.py'));
      expect(rankOf(files(off), 'pkg/cookies.py') === -1 || rankOf(files(off), 'pkg/cookies.py') > rankOf(files(off), 'pkg/noise.py')).toBe(true);
    } finally {
      repository.close();
    }
  });
});
