/**
 * `index` and `status` take the repository as PATH, as they always did, and
 * also as `--repo`, the spelling of `search`, `symbols`, `view` and `ask`:
 * `reponav status --repo X` after `reponav search Q --repo X` works. Two
 * different folders are a usage error, one sentence, exit code 2.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

describe('--repo on index and status', () => {
  it('names the same repository as PATH', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const indexed = await cli(['index', '--repo', root, '--json'], { cacheDir });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ root, parsed: expect.any(Number) });
    const status = await cli(['status', '--repo', root, '--json'], { cacheDir });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ root, complete: true });
    const byPath = await cli(['status', root, '--json'], { cacheDir });
    expect(JSON.parse(byPath.stdout).indexPath).toBe(JSON.parse(status.stdout).indexPath);
  });

  it('rejects two different folders in one sentence', async () => {
    const { root, cacheDir } = copyIndexFixture();
    for (const command of ['index', 'status']) {
      const result = await cli([command, root, '--repo', `${root}/inventory`], { cacheDir });
      expect(result.code, command).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('not both');
    }
  });
});
