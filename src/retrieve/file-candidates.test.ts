import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { TYPE_KINDS } from '../parse/index.js';
import { outermostFunction } from './function-neighbours.js';
import { searchWithTuning } from './search-repository.js';

const fixtures = fixtureRepositories('file-candidates');
let repository: RepositoryIndex;

/** Files whose functions share few words with the query: most are candidates only through their file. */
const FILES: Record<string, string> = {
  'pkg/cookies.py': [
    'class CookieJar:',
    '    def load_cookies(self, path):',
    '        """Load the browser cookies from the jar file."""',
    '        return self._parse(open(path).read())',
    '',
    '    def _parse(self, text):',
    '        return [line.split("\\t") for line in text.splitlines()]',
    '',
    'def expire_all(jar):',
    '    for entry in jar.entries:',
    '        entry.ttl = 0',
    '',
  ].join('\n'),
  'pkg/network.py': [
    'def fetch(url, cookies=None):',
    '    """Fetch a url, sending the cookies."""',
    '    return request(url, cookies)',
    '',
    'def request(url, jar):',
    '    def inner():',
    '        return jar',
    '    return inner()',
    '',
  ].join('\n'),
  'pkg/format.py': 'def format_size(n):\n    return str(n)\n\ndef parse_size(text):\n    return int(text)\n',
  'pkg/browser.py': 'BROWSERS = ["firefox"]\n\ndef find_browser(name):\n    """Find a browser profile with cookies."""\n    return name in BROWSERS\n',
};

beforeAll(async () => {
  repository = await fixtures.indexed(FILES);
});
afterAll(() => {
  repository.close();
  fixtures.cleanUp();
});

const QUERY = 'Loading cookies from the browser jar fails\nload_cookies raises when the cookies file of the browser is empty.';

/** The outermost functions (methods included) and top-level types of `path`, as the ranking names them. */
function unitsOf(path: string): { functions: string[]; modules: string[] } {
  const symbols = repository.store.symbolsOf(path);
  const byName = new Map(symbols.map((s) => [s.qualifiedName, s]));
  return {
    functions: symbols.filter((s) => !TYPE_KINDS.has(s.kind) && outermostFunction(s, byName) === s).map((s) => s.qualifiedName),
    modules: symbols.filter((s) => !s.parent).map((s) => s.qualifiedName),
  };
}

describe('symbolRanking.fileCandidates', () => {
  it('is off by default: the ranking is the one without the setting, score for score', async () => {
    const plain = await searchWithTuning(repository.store, QUERY);
    const off = await searchWithTuning(repository.store, QUERY, { symbolRanking: { fileCandidates: 0 } });
    expect(off.functions).toEqual(plain.functions);
    expect(off.modules).toEqual(plain.modules);
  });

  it('makes every function and module of the first N fused files a candidate, for every N', async () => {
    for (let n = 1; n <= 4; n++) {
      const result = await searchWithTuning(repository.store, QUERY, { aggregation: { topChunks: 1 }, symbolRanking: { fileCandidates: n } });
      const functions = new Set(result.functions.map((f) => `${f.path}:${f.qualifiedName}`));
      const modules = new Set(result.modules.map((m) => `${m.path}:${m.qualifiedName}`));
      for (const file of result.files.slice(0, n)) {
        const units = unitsOf(file.path);
        for (const name of units.functions) expect(functions.has(`${file.path}:${name}`), `N=${n} ${file.path}:${name}`).toBe(true);
        for (const name of units.modules) expect(modules.has(`${file.path}:${name}`), `N=${n} module ${file.path}:${name}`).toBe(true);
      }
    }
  });

  it('reaches functions no hit reached, and keeps every hit function with at least its score', async () => {
    // One chunk among the hits: without the setting, few functions are candidates.
    const narrow = { aggregation: { topChunks: 1 } };
    const plain = await searchWithTuning(repository.store, QUERY, narrow);
    const wide = await searchWithTuning(repository.store, QUERY, { ...narrow, symbolRanking: { fileCandidates: 4 } });
    const score = new Map(wide.functions.map((f) => [`${f.path}:${f.qualifiedName}`, f.score]));
    expect(wide.functions.length).toBeGreaterThan(plain.functions.length);
    for (const f of plain.functions) expect(score.get(`${f.path}:${f.qualifiedName}`)).toBeGreaterThanOrEqual(f.score);
  });

  it('counts a nested function for its outermost function (no nested name among the candidates)', async () => {
    const wide = await searchWithTuning(repository.store, 'request inner jar url', { symbolRanking: { fileCandidates: 4 } });
    const names = wide.functions.map((f) => f.qualifiedName);
    expect(names).toContain('request');
    expect(names.some((n) => n.includes('inner'))).toBe(false);
  });
});
