import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryIndex } from '../index/repository-index.js';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { searchRepository, searchWithTuning, type SearchOptions } from './search-repository.js';
import type { RankerModel } from './learned/learned-ranker.js';
import { shippedRankerModel } from './shipped-ranker.js';
import { FEATURE_NAMES, RANKING_LEVELS, symbolKey } from './ranking-features.js';

/**
 * The hand ranking's scores on a fixture (the default ranker `auto` starts
 * from them and reorders only what its model's `use` names; tested below),
 * compared bit for bit with the ones recorded in
 * __fixtures__/default-ranking-scores.json: a change that only restructures
 * retrieval (caches, parsing once) must leave every score of every level as it was. Re-record only for a change meant to move the
 * ranking: REPONAV_RECORD_RANKING=1 npx vitest run src/retrieve/default-ranking.test.ts
 */
const RECORD = join(import.meta.dirname, '__fixtures__', 'default-ranking-scores.json');

const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "pkg"\n[tool.setuptools]\npackages = ["pkg"]\n',
  'pkg/__init__.py': 'from .loader import load_config\n',
  'pkg/loader.py': [
    'from .network import download_settings',
    '',
    'class ConfigLoader:',
    '    """Loads the settings file and merges defaults."""',
    '    def load(self, path):',
    '        return load_config(path)',
    '',
    '    def merge_defaults(self, data, defaults=None):',
    '        out = dict(defaults or {})',
    '        out.update(data)',
    '        return out',
    '',
    'def load_config(path):',
    '    """Read the settings file."""',
    '    data = open(path).read()',
    '    return parse_settings(data)',
    '',
    'def parse_settings(text):',
    '    return dict(line.split("=") for line in text.splitlines())',
    '',
  ].join('\n'),
  'pkg/network.py': [
    'def download_settings(url, retries=3):',
    '    """Download the settings file with retries."""',
    '    for attempt in range(retries):',
    '        data = fetch(url)',
    '        if data:',
    '            return data',
    '    raise DownloadError("Unable to download settings file after retries")',
    '',
    'def fetch(url, timeout=10):',
    '    return request("GET", url, timeout=timeout)',
    '',
  ].join('\n'),
  'pkg/cache.py': 'def settings_cache_key(settings):\n    return "settings:" + str(sorted(settings))\n\nclass SettingsCache:\n    def get(self, key):\n        return None\n',
  'tests/test_loader.py': 'from pkg.loader import load_config\n\ndef test_load_config_reads_settings_file():\n    assert load_config("settings file")\n',
  'examples/demo.py': 'from pkg import load_config\nprint(load_config("demo.cfg"))\n',
  'docs/settings.md': '# Settings file\n\nThe settings file holds settings. See `load_config`.\n',
};

const QUERIES = [
  'load_config fails on an empty settings file',
  [
    'Downloading settings with retries fails',
    'When I download settings from a url, every attempt retries and fetch fails: "Unable to download settings file after retries".',
    'Traceback (most recent call last):',
    '  File "/usr/lib/python3/site-packages/pkg/loader.py", line 15, in load_config',
    'KeyError: x',
  ].join('\n'),
  'ConfigLoader.merge_defaults ignores defaults\n\nCalling `ConfigLoader().merge_defaults(data, defaults)` drops keys; see pkg/loader.py.',
  'cache key of settings is not stable',
];

const fixtures = fixtureRepositories('default-ranking');
let repository: RepositoryIndex;
beforeAll(async () => {
  repository = await fixtures.indexed(FILES);
});
afterAll(() => {
  repository.close();
  fixtures.cleanUp();
});

async function rankings(options: SearchOptions = {}): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const r = await searchRepository(repository.store, query, { ranker: 'hand', ...options });
    out.push({
      query,
      hits: r.hits.map((h) => [h.path, h.symbol, h.kind, h.startLine, h.score]),
      files: r.files.map((f) => [f.path, f.score]),
      modules: r.modules.map((m) => [m.path, m.qualifiedName, m.score]),
      functions: r.functions.map((f) => [f.path, f.qualifiedName, f.score]),
      docs: (r.docs ?? []).map((d) => [d.path, d.score]),
    });
  }
  return out;
}

describe('the hand ranking', () => {
  it('gives every hit, file, module, function and document the recorded score, bit for bit', async () => {
    const now = await rankings();
    if (process.env.REPONAV_RECORD_RANKING === '1') writeFileSync(RECORD, `${JSON.stringify(now, null, 1)}\n`);
    expect(existsSync(RECORD)).toBe(true);
    // JSON keeps a double's shortest round-trip form: equal text is equal bits.
    expect(JSON.parse(JSON.stringify(now))).toEqual(JSON.parse(readFileSync(RECORD, 'utf8')));
  });

  it('names every feature once per level', () => {
    for (const level of RANKING_LEVELS) expect(new Set(FEATURE_NAMES[level]).size).toBe(FEATURE_NAMES[level].length);
  });

  it('is the same when the search also returns its feature vectors, which describe its lists', async () => {
    expect(JSON.stringify(await rankings({ features: 30 }))).toBe(JSON.stringify(await rankings()));
    for (const query of QUERIES) {
      const r = await searchRepository(repository.store, query, { features: 30, ranker: 'hand' });
      const lists = { file: r.files.map((f) => f.path), module: r.modules.map(symbolKey), function: r.functions.map(symbolKey) };
      for (const level of RANKING_LEVELS) {
        expect(r.features![level].keys).toEqual(lists[level].slice(0, 30));
        for (const x of r.features![level].x) {
          expect(x).toHaveLength(FEATURE_NAMES[level].length);
          expect(x.every(Number.isFinite)).toBe(true);
        }
      }
      // The first candidate's hand score and rank features are the list's best: 1 and 1.
      expect(r.features!.file.x[0]!.slice(0, 2)).toEqual([1, 1]);
    }
  });

  it('with the shipped learned ranker reorders only among the hand ranking\'s candidates and keeps scores descending', async () => {
    for (const query of QUERIES) {
      const hand = await searchRepository(repository.store, query, { ranker: 'hand' });
      const learned = await searchRepository(repository.store, query, { ranker: 'learned' });
      expect([...learned.files.map((f) => f.path)].sort()).toEqual([...hand.files.map((f) => f.path)].sort());
      expect(learned.files.map((f) => f.score)).toEqual(hand.files.map((f) => f.score));
      expect([...learned.functions.map(symbolKey)].sort()).toEqual([...hand.functions.map(symbolKey)].sort());
    }
  });

  it('refuses the learned ranker or features with the plain query mode instead of ignoring them', async () => {
    await expect(searchRepository(repository.store, QUERIES[0]!, { queryMode: 'plain', ranker: 'learned' })).rejects.toThrow(/plain query mode/);
    await expect(searchRepository(repository.store, QUERIES[0]!, { queryMode: 'plain', features: 30 })).rejects.toThrow(/plain query mode/);
    await expect(searchRepository(repository.store, QUERIES[0]!, { queryMode: 'plain' })).resolves.toBeTruthy();
  });

  it('applies the learned ranker to a files-only search too (the same candidates, features describing them)', async () => {
    for (const query of QUERIES) {
      const hand = await searchRepository(repository.store, query, { filesOnly: true, features: 30 });
      expect(hand.features!.file.keys).toEqual(hand.files.slice(0, 30).map((f) => f.path));
      const learned = await searchRepository(repository.store, query, { filesOnly: true, ranker: 'learned' });
      expect([...learned.files.map((f) => f.path)].sort()).toEqual([...hand.files.map((f) => f.path)].sort());
    }
  });

  it('is the same on a second search of the same query (cached derived values give what computing them gave)', async () => {
    const first = JSON.stringify(await rankings());
    expect(JSON.stringify(await rankings())).toBe(first);
  });
});

/**
 * A model whose every level reverses the hand order of its first `top` (5)
 * candidates, with `use` as given: five trees, each adding 10 to a candidate
 * whose `hand-rank` 1/(1+r) is below its cut, so the candidate at rank r gains
 * 10·r, which outweighs the base's ln(1/(1+r)).
 */
function reversingModel(use?: RankerModel['use']): RankerModel {
  const level = (names: readonly string[]) => {
    const at = names.indexOf('hand-rank');
    const cuts = [0.9, 0.45, 0.3, 0.22, 0.18];
    return {
      features: [...names],
      base: { feature: 'hand-rank' as const, scale: 1 },
      trees: cuts.map((cut) => ({ feature: [at, -1, -1], threshold: [cut, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 10, 0] })),
    };
  };
  return { format: 'reponav-ranker/1', top: 5, levels: { file: level(FEATURE_NAMES.file), module: level(FEATURE_NAMES.module), function: level(FEATURE_NAMES.function) }, ...(use ? { use } : {}), provenance: {} };
}

describe('the default ranker (auto)', () => {
  const lists = (r: Awaited<ReturnType<typeof searchRepository>>) => ({
    files: r.files.map((f) => [f.path, f.score]),
    modules: r.modules.map((m) => [symbolKey(m), m.score]),
    functions: r.functions.map((f) => [symbolKey(f), f.score]),
  });
  const SHORT = QUERIES[0]!;
  const TRACED = QUERIES[1]!;

  it('applies the model at the levels its file names, to a query inside its domain, and the hand order elsewhere', async () => {
    const use = { levels: ['function' as const], query: { maxWords: 150, traces: false } };
    const hand = lists(await searchWithTuning(repository.store, SHORT, { ranker: 'hand' }));
    const everywhere = lists(await searchWithTuning(repository.store, SHORT, { ranker: 'learned', rankerModel: reversingModel(use) }));
    const auto = lists(await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel(use) }));
    // The fixture's model does move the function list (else this test could not fail).
    expect(everywhere.functions.map(([k]) => k)).not.toEqual(hand.functions.map(([k]) => k));
    expect(auto).toEqual({ files: hand.files, modules: hand.modules, functions: everywhere.functions });
  });

  it('keeps the hand order for a traced query, a query longer than the domain, and a model with no `use`', async () => {
    const traced = { levels: ['file' as const, 'module' as const, 'function' as const], query: { maxWords: 150, traces: false } };
    expect(lists(await searchWithTuning(repository.store, TRACED, { ranker: 'auto', rankerModel: reversingModel(traced) }))).toEqual(lists(await searchWithTuning(repository.store, TRACED, { ranker: 'hand' })));
    // The same query is inside a domain that takes traces.
    const withTraces = { ...traced, query: { maxWords: 150, traces: true } };
    expect(lists(await searchWithTuning(repository.store, TRACED, { ranker: 'auto', rankerModel: reversingModel(withTraces) }))).toEqual(lists(await searchWithTuning(repository.store, TRACED, { ranker: 'learned', rankerModel: reversingModel(withTraces) })));
    const words = SHORT.split(' ').length;
    const tooShort = { ...traced, query: { maxWords: words - 1, traces: false } };
    const exact = { ...traced, query: { maxWords: words, traces: false } };
    const handShort = lists(await searchWithTuning(repository.store, SHORT, { ranker: 'hand' }));
    expect(lists(await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel(tooShort) }))).toEqual(handShort);
    expect(lists(await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel(exact) }))).not.toEqual(handShort);
    expect(lists(await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel() }))).toEqual(handShort);
  });

  it('with the shipped model: its `use` levels come from the model, the others from the hand order, for every fixture query', async () => {
    const use = shippedRankerModel().use;
    expect(use, 'models/ranker.json has no `use` (bench/train-trees.mjs writes it)').toBeDefined();
    const { textInQueryDomain } = await import('./learned/query-domain.js');
    for (const query of QUERIES) {
      const hand = lists(await searchRepository(repository.store, query, { ranker: 'hand' }));
      const learned = lists(await searchRepository(repository.store, query, { ranker: 'learned' }));
      const auto = lists(await searchRepository(repository.store, query));
      const inside = textInQueryDomain(query, use!.query);
      expect(auto.files).toEqual(inside && use!.levels.includes('file') ? learned.files : hand.files);
      expect(auto.modules).toEqual(inside && use!.levels.includes('module') ? learned.modules : hand.modules);
      expect(auto.functions).toEqual(inside && use!.levels.includes('function') ? learned.functions : hand.functions);
    }
  });

  it('reorders a files-only search only when the model names the file level', async () => {
    const use = { levels: ['function' as const], query: { maxWords: 150, traces: false } };
    const auto = await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel(use), filesOnly: true });
    const hand = await searchWithTuning(repository.store, SHORT, { ranker: 'hand', filesOnly: true });
    expect(auto.files).toEqual(hand.files);
    const fileUse = { ...use, levels: ['file' as const, 'function' as const] };
    const reordered = await searchWithTuning(repository.store, SHORT, { ranker: 'auto', rankerModel: reversingModel(fileUse), filesOnly: true });
    expect(reordered.files.map((f) => f.path)).not.toEqual(hand.files.map((f) => f.path));
  });

  it('is what a search with no ranker named does, and runs the plain query mode as the hand order', async () => {
    expect(lists(await searchRepository(repository.store, SHORT))).toEqual(lists(await searchRepository(repository.store, SHORT, { ranker: 'auto' })));
    expect(lists(await searchWithTuning(repository.store, SHORT, { queryMode: 'plain', ranker: 'auto' }))).toEqual(lists(await searchWithTuning(repository.store, SHORT, { queryMode: 'plain', ranker: 'hand' })));
  });
});
