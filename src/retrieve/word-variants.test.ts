import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { lightStem, variantMap, withWordVariants } from './word-variants.js';
import { searchWithTuning } from './search-repository.js';

const fixtures = fixtureRepositories('word-variants');
afterAll(() => fixtures.cleanUp());

const files = {
  'pkg/store.py': 'def lookup(key):\n    """Read one cache entry."""\n    return cache[key]\n\ndef caching_policy():\n    return "lru"\n',
  'pkg/archive.py': 'def pack(data):\n    """Apply compression to the data."""\n    return compression(data)\n',
  'pkg/network.py': 'def fetch(url):\n    """Download the url; slow servers time out."""\n    return download(url)\n',
  'pkg/util.py': 'def helper(value):\n    return value\n',
};

describe('withWordVariants', () => {
  it('adds the index tokens sharing a query word’s stem at the given fraction of its repeat', async () => {
    const repository = await fixtures.indexed(files);
    const expanded = withWordVariants(repository.store, [{ token: 'caches', repeat: 2 }, { token: 'compressed', repeat: 1 }], 0.5);
    expect(expanded.slice(0, 2)).toEqual([{ token: 'caches', repeat: 2 }, { token: 'compressed', repeat: 1 }]);
    expect(expanded.slice(2).sort((a, b) => (a.token < b.token ? -1 : 1))).toEqual([
      { token: 'cache', repeat: 1 },
      { token: 'caching', repeat: 1 },
      { token: 'compression', repeat: 0.5 },
    ]);
    repository.close();
  });

  it('adds nothing a query already has and nothing at weight 0', async () => {
    const repository = await fixtures.indexed(files);
    const terms = [{ token: 'cache', repeat: 1 }, { token: 'caching', repeat: 1 }];
    expect(withWordVariants(repository.store, terms, 0.5)).toEqual(terms);
    expect(withWordVariants(repository.store, [{ token: 'caches', repeat: 1 }], 0)).toEqual([{ token: 'caches', repeat: 1 }]);
    repository.close();
  });

  it('builds the stem map once per index state', async () => {
    const repository = await fixtures.indexed(files);
    const first = variantMap(repository.store);
    expect(variantMap(repository.store)).toBe(first);
    expect([...first.byStem.get('cach')!].sort()).toEqual(['cache', 'caching']);
    repository.close();
  });
});

describe('lightStem', () => {
  it('joins inflections and -ion but keeps derivations apart', () => {
    const stems = (words: string[]) => new Set(words.map(lightStem));
    expect(stems(['cache', 'caches', 'caching', 'cached']).size).toBe(1);
    expect(stems(['compressed', 'compression', 'compress']).size).toBe(1);
    expect(stems(['process', 'processes', 'processing']).size).toBe(1);
    expect(stems(['stop', 'stopped']).size).toBe(1);
    expect(stems(['memory', 'memories']).size).toBe(1);
    expect(stems(['generic', 'general']).size).toBe(2);
    expect(stems(['class', 'status']).size).toBe(2);
    expect(lightStem('status')).toBe('status');
  });

});

describe('scope missing', () => {
  it('varies only words no chunk holds', async () => {
    const repository = await fixtures.indexed(files);
    // `compressed` is in no chunk, `cache` is.
    const terms = [{ token: 'compressed', repeat: 1 }, { token: 'cache', repeat: 1 }];
    expect(withWordVariants(repository.store, terms, 1, 'missing').map((t) => t.token)).toEqual(['compressed', 'cache', 'compression']);
    expect(withWordVariants(repository.store, terms, 1, 'all').map((t) => t.token)).toEqual(['compressed', 'cache', 'compression', 'caching']);
    repository.close();
  });
});

describe('searchWithTuning lexical.wordVariants', () => {
  it('finds code written in another form of the query’s word only when on', async () => {
    const repository = await fixtures.indexed(files);
    const off = await searchWithTuning(repository.store, 'caches', {});
    expect(off.files).toEqual([]);
    const on = await searchWithTuning(repository.store, 'caches', { lexical: { wordVariants: { weight: 0.5 } } });
    expect(on.files[0]?.path).toBe('pkg/store.py');
    repository.close();
  });
});
