import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cleanupTempDirs, copyIndexFixture, put, tempDir } from '../../test/cli/harness.js';
import { mulberry32 } from '../../test/helpers/mulberry32.js';
import { provisionalSearch } from './provisional-search.js';

afterAll(cleanupTempDirs);

/**
 * Whether ripgrep is on PATH: where it is not, the scan runs in-process and the
 * tests check that path alone (ripgrep's is skipped, visibly); CI installs it
 * and sets REPONAV_REQUIRE_RG=1, so there a missing rg fails instead.
 */
const rgInstalled = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
const requireRg = process.env.REPONAV_REQUIRE_RG === '1';

describe('ripgrep', () => {
  it.skipIf(rgInstalled)('is required where REPONAV_REQUIRE_RG=1 (CI), else its scan path is skipped', () => {
    expect(requireRg, 'ripgrep (rg) is not installed but REPONAV_REQUIRE_RG=1').toBe(false);
  });

  it.skipIf(!rgInstalled)('does the scan when installed', async () => {
    const { root } = copyIndexFixture();
    expect((await provisionalSearch(root, 'reserve stock')).scanner).toBe('rg');
  });
});

describe('provisionalSearch', () => {
  it('ranks source files by the query words, ripgrep and the in-process scan alike, and says it is provisional', async () => {
    const { root } = copyIndexFixture();
    put(root, 'node_modules/lib/restock.py', 'def restock_restock_restock(): pass\n');
    put(root, 'notes.md', 'restock restock restock restock\n');
    const query = 'restock the stock ledger when a reservation fails';
    const withRg = await provisionalSearch(root, query);
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    let withoutRg;
    try {
      withoutRg = await provisionalSearch(root, query);
    } finally {
      process.env.PATH = path;
    }
    expect(withoutRg.scanner).toBe('node');
    expect(withRg.files.map((f) => f.path)).toEqual(withoutRg.files.map((f) => f.path));
    expect(withRg.files[0]?.path).toBe('inventory/stock.py');
    // Vendored folders and files search does not cover (prose) stay out.
    const paths = withRg.files.map((f) => f.path);
    expect(paths).not.toContain('node_modules/lib/restock.py');
    expect(paths).not.toContain('notes.md');
    expect(withRg.files[0].line).toBeGreaterThan(0);
  });

  it('honours a path filter and answers an empty list for words found nowhere', async () => {
    const { root } = copyIndexFixture();
    const filtered = await provisionalSearch(root, 'stock cart', { pathFilter: (p) => p.startsWith('web/') });
    expect(filtered.files.length).toBeGreaterThan(0);
    expect(filtered.files.every((f) => f.path.startsWith('web/'))).toBe(true);
    const none = await provisionalSearch(root, 'zzqqxxnothinglikethis');
    expect(none.files).toEqual([]);
  });

  it("applies the indexed search's path priors: library code above tests and above code outside the packaged library", async () => {
    const root = join(tempDir('reponav-provisional-'), 'repo');
    // The library mentions the query words a few times; a test and an example repeat them far more often.
    const many = (line: string) => Array.from({ length: 30 }, (_, i) => line.replace('N', String(i))).join('\n') + '\n';
    put(root, 'pyproject.toml', '[project]\nname = "retry-kit"\n');
    put(root, 'retry_kit/__init__.py', '');
    put(root, 'retry_kit/backoff.py', 'def retry_after_timeout(call):\n    """Retry a call after a timeout."""\n    return call(timeout=1, retry=3)\n');
    put(root, 'tests/test_backoff.py', many('def test_retry_after_timeout_N(): assert retry_after_timeout(lambda timeout, retry: 1)'));
    put(root, 'examples/demo_backoff.py', many('print(retry_after_timeout(lambda timeout, retry: N))'));
    put(root, 'typings/backoff.pyi', 'def retry_after_timeout(call: object) -> object: ... # retry timeout retry timeout\n');
    put(root, 'web/package.json', '{"name": "web"}\n');
    const query = 'retry after timeout';
    for (const withRg of [true, false]) {
      const path = process.env.PATH;
      if (!withRg) process.env.PATH = '/nonexistent';
      let result;
      try {
        result = await provisionalSearch(root, query);
      } finally {
        process.env.PATH = path;
      }
      expect(result.scanner).toBe(withRg && rgInstalled ? 'rg' : 'node');
      const paths = result.files.map((f) => f.path);
      expect(paths[0]).toBe('retry_kit/backoff.py');
      expect(paths).toContain('tests/test_backoff.py');
      expect(paths).toContain('examples/demo_backoff.py');
      expect(result.provisional).toBe(true);
    }
  });

  it('finds the library of a JavaScript package from package.json alone', async () => {
    const root = join(tempDir('reponav-provisional-'), 'repo');
    put(root, 'package.json', JSON.stringify({ name: 'parse-kit', main: './src/index.js', files: ['src'] }));
    put(root, 'src/index.js', '/** parseDuration("2s"): seconds. */\nexport function parseDuration(text) {\n  return parseDuration.unit * Number(text);\n}\n');
    put(root, 'bench/parse-duration.js', 'parseDuration(1); parseDuration(2); parseDuration(3); parseDuration(4); parseDuration(5);\n'.repeat(10));
    const result = await provisionalSearch(root, 'parseDuration');
    expect(result.files.map((f) => f.path)).toEqual(['src/index.js', 'bench/parse-duration.js']);
  });
});

describe('ripgrep and the in-process scan count alike', () => {
  /** Runs the scan with rg off PATH (the in-process path). */
  async function withoutRipgrep(root: string, query: string) {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      return await provisionalSearch(root, query, { limit: 50 });
    } finally {
      process.env.PATH = path;
    }
  }

  it.skipIf(!rgInstalled)('on generated trees whose identifiers hold other query words (seeded)', async () => {
    const words = ['compute', 'value', 'cache', 'order', 'stock', 'parse', 'token', 'ledger'];
    for (let seed = 1; seed <= 12; seed++) {
      const random = mulberry32(seed);
      const pick = () => words[Math.floor(random() * words.length)];
      const identifier = () => Array.from({ length: 1 + Math.floor(random() * 3) }, pick).join('_') + (random() < 0.5 ? `_${Math.floor(random() * 50)}` : '');
      const root = tempDir('scan-alike-');
      for (let f = 0; f < 8; f++) {
        const lines = Array.from({ length: 1 + Math.floor(random() * 8) }, () => `def ${identifier()}(x): return ${identifier()}(x)`);
        put(root, `pkg/mod_${f}.py`, `${lines.join('\n')}\n`);
      }
      const query = `where is ${identifier()} ${identifier()} computed for ${pick()}`;
      const withRg = await provisionalSearch(root, query, { limit: 50 });
      const inProcess = await withoutRipgrep(root, query);
      const summary = (r: typeof withRg) => r.files.map((f) => `${f.path} ${f.matches} ${f.terms.join(',')} ${f.score}`);
      expect(withRg.scanner, `seed ${seed}`).toBe('rg');
      expect(summary(withRg), `seed ${seed}: ${query}`).toEqual(summary(inProcess));
    }
  });
});
