/**
 * A file name with a newline (or another control character) never splits an
 * output line: `symbols`, `find`, `view` and the `search` scaffold print such a path
 * quoted and escaped, as git does ("a\nb.py"). The file is made at run time.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, ensureBuilt, put, runCli } from './harness.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

const NAME = 'a\nb.py';
const SHOWN = '"a\\nb.py"';

describe('a path with a newline', () => {
  it('stays on one line in symbols, find and search output', () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, NAME, 'class Zebracorn:\n    """A striped unicorn."""\n\n    def gallop(self):\n        return 1\n');
    expect(runCli(['index', root], { cacheDir }).code).toBe(0);

    const outputs = {
      symbols: runCli(['symbols', NAME, '--repo', root], { cacheDir }),
      find: runCli(['find', 'class', 'Zebracorn', '--repo', root], { cacheDir }),
      search: runCli(['search', 'Zebracorn striped unicorn gallop', '--repo', root], { cacheDir }),
      view: runCli(['view', NAME, '--repo', root], { cacheDir }),
      'view --symbol': runCli(['view', '--symbol', 'Zebracorn.gallop', '--repo', root], { cacheDir }),
    };
    for (const [command, result] of Object.entries(outputs)) {
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      expect(result.stdout, command).toContain(SHOWN);
      // No line starts with the tail of the split name.
      expect(result.stdout.split('\n').some((line) => line.startsWith('b.py')), command).toBe(false);
    }
  });
});
