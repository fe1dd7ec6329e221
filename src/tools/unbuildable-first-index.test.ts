import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, put } from '../../test/cli/harness.js';
import { ReponavError } from '../errors.js';
import { RepositoryIndex } from '../index/index.js';
import { FOCUSED_MIN_FILES } from './focused-answer.js';
import { renderProvisional } from './provisional-answer.js';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';

afterAll(cleanupTempDirs);
afterEach(() => vi.restoreAllMocks());

const registry = createToolRegistry();
const FULL = 'The disk holding the index at i.db is full (database or disk is full); free some space and run the command again; the index was left as it is.';

function largeTree(): { dir: string; root: string } {
  const fixture = copyIndexFixture();
  for (let i = 0; i < FOCUSED_MIN_FILES; i++) put(fixture.root, `filler/f${i}.py`, `def filler_${i}():\n    return ${i}\n`);
  return fixture;
}

describe('a focused first index that cannot be written (INDEX_UNAVAILABLE)', () => {
  it('answers from the scan saying the index cannot be built, why and what to do; the caller is told why, so it starts no build that fails the same way', async () => {
    for (const retry of ['reponav index /r', undefined]) {
      const tree = largeTree();
      vi.spyOn(RepositoryIndex.prototype, 'indexFocused').mockRejectedValue(new ReponavError('INDEX_UNAVAILABLE', FULL));
      const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
      const continued = vi.fn();
      const logger = { debug() {}, info() {}, warn() {}, error() {} };
      try {
        const context = { repositories, continueFirstIndex: continued, logger, ...(retry ? { firstIndexRetry: retry } : {}) };
        const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, context);
        expect(first.isError).toBe(false);
        const head = first.text.split('\n')[0];
        expect(head).toMatch(/^\[PROVISIONAL\] 'shop' has no index: the index cannot be built \(The disk holding the index at i\.db is full .*\)\. These files come from a plain text scan/);
        expect(head).toMatch(retry ? /Run `reponav index \/r` to build it once that is fixed\.$/ : /The next call tries to build it again\.$/);
        expect(first.text).not.toMatch(/being built|search again shortly/);
        expect(first.text).toContain('[FILE] inventory/stock.py');
        expect(continued).toHaveBeenCalledWith(FULL);
      } finally {
        await repositories.close();
      }
    }
  });

  it('any other failure of the focused index still starts the whole build, told nothing', async () => {
    const tree = largeTree();
    vi.spyOn(RepositoryIndex.prototype, 'indexFocused').mockRejectedValue(new Error('a parser crashed'));
    const repositories = await RepositorySet.open([{ path: tree.root, indexPath: join(tree.dir, 'index', 'i.db') }]);
    const continued = vi.fn();
    try {
      const first = await callTool(registry, 'search', { query: 'reserve stock copies' }, { repositories, continueFirstIndex: continued, logger: { debug() {}, info() {}, warn() {}, error() {} } });
      expect(first.text.split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'shop' has no index yet; it is being built in the background\./);
      expect(continued).toHaveBeenCalledWith(undefined);
    } finally {
      await repositories.close();
    }
  });
});

describe('a provisional answer with no file', () => {
  it('does not speak of "these files", with or without a failed build, and says the scan found none', () => {
    const failure = { what: 'the index cannot be built', reason: FULL, next: 'Run `reponav index /r` to build it once that is fixed.' };
    for (const text of [renderProvisional([], 'shop', 1500), renderProvisional([], 'shop', 1500, failure)]) {
      expect(text).not.toMatch(/These files/);
      expect(text.split('\n')).toHaveLength(2);
      expect(text.split('\n')[1]).toBe('No source file contains the query words.');
    }
    expect(renderProvisional([], 'shop', 1500).split('\n')[0]).toBe("[PROVISIONAL] 'shop' has no index yet; it is being built in the background; search again shortly for the full answer.");
    expect(renderProvisional([], 'shop', 1500, failure).split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'shop' has no index: the index cannot be built \(.*\)\. Run `reponav index \/r` to build it once that is fixed\.$/);
  });
});
