import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { folderNames, knownNameTest, queryContext } from './known-names.js';
import { isTestPath, matchIndexedPaths } from './search-repository.js';
import { parseQuery } from './query-parser.js';

const { indexed, cleanUp } = fixtureRepositories('known');
let repository: RepositoryIndex;

beforeAll(async () => {
  repository = await indexed({
    'pkg/checker.py': [
      'API_URL = "https://example.org"',
      '',
      'class PatternChecker:',
      '    def visit_or_pattern(self, pattern):',
      '        return pattern',
      '',
    ].join('\n'),
    'tests/test_checker.py': 'class BigDict:\n    pass\n\ndef test_big():\n    assert BigDict()\n',
  });
});
afterAll(() => {
  repository.close();
  cleanUp();
});

describe('knownNameTest', () => {
  it('knows names defined outside tests, file stems and folders, ignoring case', () => {
    const known = knownNameTest(repository.store, 'definition', isTestPath);
    expect(['PatternChecker', 'patternchecker', 'visit_or_pattern', 'checker', 'pkg'].every(known)).toBe(true);
    // Defined only in a test, used but not defined, or absent.
    expect(['BigDict', 'API_URL', 'PrintableKey', 'foo'].some(known)).toBe(false);
  });

  it('in `either` mode also knows a name of several parts that some chunk writes', () => {
    const known = knownNameTest(repository.store, 'either', isTestPath);
    expect(known('API_URL')).toBe(true);
    expect(known('BigDict')).toBe(true);
    expect(known('PrintableKey')).toBe(false);
    // A one-word name must be defined: `example` is written, not defined.
    expect(known('example')).toBe(false);
  });

  it('in `vocabulary` mode knows any name whose whole token some chunk has', () => {
    const known = knownNameTest(repository.store, 'vocabulary', isTestPath);
    expect(known('example')).toBe(true);
    expect(known('PrintableKey')).toBe(false);
  });
});

describe('queryContext', () => {
  it('damps a pasted program’s names and unknown written paths to the given weight', () => {
    const context = queryContext(repository.store, { mode: 'definition', weight: 0.5, paths: true }, isTestPath, matchIndexedPaths);
    const query = parseQuery('Crash in `PatternChecker` with `PrintableKey`\nSee colors.py and pkg/checker.py', undefined, context);
    const weight = (token: string) => query.terms.find((t) => t.token === token)?.weight;
    expect(weight('patternchecker')).toBeGreaterThan(weight('printablekey')!);
    expect(weight('printable')).toBe(0.5 * 2);
    expect(weight('colors')).toBe(0.5);
    expect(weight('checker')).toBeGreaterThanOrEqual(2);
  });
});

describe('folderNames', () => {
  it('lists every folder of the paths, lower-cased', () => {
    expect([...folderNames(['A/b/c.py', 'd.py'])].sort()).toEqual(['a', 'b']);
  });
});
