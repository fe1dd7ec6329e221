import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../index/repository-index.js';
import { findPhraseMatches } from './message-phrases.js';
import { isTestPath, matchIndexedPaths, searchRepository, searchWithTuning, type SearchOptions, type TunedSearchOptions } from './search-repository.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';

let dir: string;
let repository: RepositoryIndex;

const FILES: Record<string, string> = {
  'pkg/loader.py': [
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
    '    """Download the settings file with retries; settings settings settings."""',
    '    for attempt in range(retries):',
    '        data = fetch(url)',
    '        if data:',
    '            return data',
    '    raise DownloadError("Unable to download settings file after retries")',
    '',
  ].join('\n'),
  'pkg/cache.py': 'def settings_cache_key(settings):\n    return "settings:" + str(sorted(settings))\n',
  'tests/test_loader.py': 'def test_load_config_reads_settings_file():\n    assert load_config("settings file")\n',
  'docs/settings.md': '# Settings file\n\nThe settings file holds settings settings settings.\n',
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-search-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, 'repo', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'repo', path), text);
  }
  repository = await RepositoryIndex.open(join(dir, 'repo'), { indexPath: join(dir, 'index.db') });
  await repository.refresh();
});
afterAll(() => {
  repository.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('searchRepository', () => {
  it('puts the function a traceback frame names first, even when other code matches the words better', async () => {
    const issue = [
      'Downloading settings with retries fails',
      'When I download settings from a url, every download attempt retries and the fetch fails: download settings, download retries.',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/pkg/loader.py", line 3, in load_config',
      'KeyError: x',
    ].join('\n');
    const result = await searchRepository(repository.store, issue);
    expect(result.hits[0]).toMatchObject({ path: 'pkg/loader.py', symbol: 'load_config' });
    expect(result.functions[0]).toMatchObject({ path: 'pkg/loader.py', qualifiedName: 'load_config' });
    // Without the frame evidence the words alone point elsewhere: the frame is what moved it.
    const wordsOnly = await searchWithTuning(repository.store, issue, { evidence: { frame: 0, pathMention: 0 } });
    expect(wordsOnly.hits[0].symbol).not.toBe('load_config');
  });

  it('finds the code that prints a quoted error message', async () => {
    const issue = 'Settings are lost\nERROR: Unable to download settings file after retries';
    const result = await searchRepository(repository.store, issue);
    expect(result.hits[0]).toMatchObject({ path: 'pkg/network.py', symbol: 'download_settings' });
    // The exact token sequence is found in that function only; a shorter tail is tried when the whole does not occur.
    const matches = findPhraseMatches(repository.store, ['Unable to download settings file after retries', 'we could not download settings file after retries']);
    const chunks = repository.store.chunksByIds(matches.flatMap((m) => m.chunkIds));
    expect(matches.map((m) => m.tokens)).toEqual([7, 5]);
    expect([...chunks.values()].map((c) => c.symbol)).toEqual(['download_settings']);
  });

  it('never returns prose files and ranks tests below the code they test', async () => {
    const result = await searchRepository(repository.store, 'load config settings file');
    expect(result.files.map((f) => f.path)).not.toContain('docs/settings.md');
    const paths = result.files.map((f) => f.path);
    expect(paths.indexOf('pkg/loader.py')).toBeLessThan(paths.indexOf('tests/test_loader.py'));
  });

  it('restricts hits to a path filter', async () => {
    const result = await searchRepository(repository.store, 'settings', { pathFilter: (p) => p.startsWith('pkg/cache') });
    expect(new Set(result.hits.map((h) => h.path))).toEqual(new Set(['pkg/cache.py']));
  });

  it('the plain mode retrieves function chunks only, with the paper aggregation', async () => {
    const result = await searchRepository(repository.store, 'download settings retries', { queryMode: 'plain' });
    expect(result.hits.every((h) => h.kind === 'function')).toBe(true);
    expect(result.files[0].path).toBe('pkg/network.py');
  });

  it('refuses any key that is not a user\'s choice (a tuning knob or a misspelling), naming it, and never ranks with it', async () => {
    // Every tuning knob the evaluation harness accepts, and made-up keys, alone or beside a public one.
    const tuning = ['aggregation', 'lexical', 'query', 'priors', 'evidence', 'symbolRanking', 'fileLevel', 'titleFiles', 'testedCode', 'fileNameBoost', 'testFileFactor', 'rankerModel'];
    const made = ['pathfilter', 'rankr', 'topChunks', '__proto__x'];
    const random = mulberry32(42);
    for (let seed = 0; seed < 40; seed++) {
      const pool = random() < 0.7 ? tuning : made;
      const key = pool[Math.floor(random() * pool.length)]!;
      const options: Record<string, unknown> = { [key]: 1 };
      if (random() < 0.5) options.documents = 'off';
      const call = searchRepository(repository.store, 'load config settings file', options as SearchOptions);
      await expect(call, `seed ${seed}: ${key}`).rejects.toThrow(new RegExp(`Unknown search option '${key}'`));
    }
    // The same knob through the harness's entry point is honoured.
    const tuned = await searchWithTuning(repository.store, 'load config settings file', { aggregation: { topChunks: 1 } });
    expect(tuned.hits).toHaveLength(1);
    // Through the harness's entry point a knob of the earlier flat settings, or a misspelt nested one, is refused too, never ranked with.
    const flat = { fileNameBoost: 0 } as TunedSearchOptions;
    await expect(searchWithTuning(repository.store, 'load config settings file', flat)).rejects.toThrow(/'fileNameBoost' \(now 'evidence\.fileName\.weight'\)/);
    const misspelt = { evidence: { fileName: { wieght: 0 } } } as TunedSearchOptions;
    await expect(searchWithTuning(repository.store, 'load config settings file', misspelt)).rejects.toThrow(/evidence\.fileName: unknown setting 'wieght'/);
  });
});

describe('path helpers', () => {
  it('matches written paths to indexed ones by suffix', () => {
    const indexed = ['pkg/loader.py', 'other/loader.py', 'pkg/cache.py'];
    expect(matchIndexedPaths('/abs/site-packages/pkg/loader.py', indexed)).toEqual(['pkg/loader.py']);
    expect(matchIndexedPaths('cache.py', indexed)).toEqual(['pkg/cache.py']);
    expect(matchIndexedPaths('loader.py', indexed)).toEqual([]); // ambiguous single segment
  });
  it('recognises test paths', () => {
    expect(isTestPath('tests/test_a.py')).toBe(true);
    expect(isTestPath('src/a.test.ts')).toBe(true);
    expect(isTestPath('pkg/store_test.go')).toBe(true);
    expect(isTestPath('pkg/testing_utils_helper.py')).toBe(false);
    expect(isTestPath('src/contest.py')).toBe(false);
  });
});
