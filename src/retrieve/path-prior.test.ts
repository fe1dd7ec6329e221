import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../test/cli/harness.js';
import { RepositoryIndex } from '../index/repository-index.js';
import { rankFileDocuments } from './file-level.js';
import { pathPrior } from './path-prior.js';

afterAll(cleanupTempDirs);

let root: string;
let repository: RepositoryIndex;

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

const FACTORS = { test: 0.5, stub: 0.5, library: 0.7 };

beforeAll(async () => {
  root = join(tempDir('reponav-prior-'), 'repo');
  write('pkg/__init__.py', '');
  write('pkg/cookies.py', 'def load_cookies(jar):\n    return jar.read()\n');
  write('pkg/cookies.pyi', 'def load_cookies(jar: object) -> str: ...\n');
  write('examples/cookies_demo.py', 'def demo_cookies():\n    return load_cookies(None)\n');
  write('tests/test_cookies.py', 'def test_load_cookies():\n    assert load_cookies(None)\n');
  repository = await RepositoryIndex.open(root, { indexPath: join(root, '..', 'index.db') });
  await repository.refresh();
  return () => repository.close();
});

describe('pathPrior', () => {
  it('gives tests, stubs and (once the library is known) code outside it their factors, one function per index state', async () => {
    const store = repository.store;
    const before = pathPrior(store, FACTORS)!;
    // The same function for every search of one index state and setting; another setting, another function.
    expect(pathPrior(store, FACTORS)).toBe(before);
    expect(pathPrior(store, { ...FACTORS, test: 0.25 })).not.toBe(before);
    expect(pathPrior(store, { test: 1, stub: 1, library: 1 })).toBeNull();
    expect(['pkg/cookies.py', 'pkg/cookies.pyi', 'tests/test_cookies.py', 'examples/cookies_demo.py'].map(before)).toEqual([1, 0.5, 0.5, 1]);

    // The packaging metadata now names the library: examples/ is outside it, and the prior must say so.
    write('pyproject.toml', '[project]\nname = "pkg"\n');
    await repository.refresh();
    const after = pathPrior(store, FACTORS)!;
    expect(after).not.toBe(before);
    expect(['pkg/cookies.py', 'examples/cookies_demo.py'].map(after)).toEqual([1, 0.7]);
    expect(pathPrior(store, FACTORS)).toBe(after);
  });

  it('reaches the file-level ranking after an index change (its per-index table is not reused)', async () => {
    const store = repository.store;
    const terms = [{ token: 'cookies', weight: 1 }];
    const scoreOf = (path: string) => rankFileDocuments(store, terms, 'identity', pathPrior(store, FACTORS)!).find((f) => f.path === path)!.score;
    const ratio = () => scoreOf('examples/cookies_demo.py') / scoreOf('pkg/cookies.py');
    const withLibrary = ratio();
    // Without the metadata the library is unknown, and examples/ loses its factor.
    write('pyproject.toml', '[tool.other]\nkey = 1\n');
    await repository.refresh();
    expect(ratio()).toBeCloseTo(withLibrary / 0.7, 10);
    // Unchanged index: the same scores again (the cached table is the right one).
    expect(ratio()).toBeCloseTo(withLibrary / 0.7, 10);
  });
});
