/**
 * `symbols` and `view` on a file the index skipped say why it was skipped
 * (binary, larger than the size limit), in one sentence with exit 1, instead
 * of calling it "not an indexed file" and suggesting other paths.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, expectOneSentenceError, gitInit, put } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

describe('a skipped file', () => {
  it('is explained by symbols and view, with its reason', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'big.py', `x = 1\n${'# padding\n'.repeat(120_000)}`); // ~1.2 MB, over the 1 MiB default
    put(root, 'blob.py', Buffer.from([0x78, 0x3d, 0x31, 0x00, 0x0a, 0x00])); // NUL bytes: sniffed as binary
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47])); // binary by extension
    expect((await cli(['index', root], { cacheDir })).code).toBe(0);

    for (const command of ['symbols', 'view']) {
      const big = expectOneSentenceError(await cli([command, 'big.py', '--repo', root], { cacheDir }), 1);
      expect(big).toContain("'big.py' was not indexed: it is larger than the 1 MiB limit (--max-file-size)");
      expect(big).not.toContain('Closest indexed paths');
      const blob = expectOneSentenceError(await cli([command, 'blob.py', '--repo', root], { cacheDir }), 1);
      expect(blob).toContain("'blob.py' was not indexed: it is binary");
      const png = expectOneSentenceError(await cli([command, 'logo.png', '--repo', root], { cacheDir }), 1);
      expect(png).toContain("'logo.png' was not indexed: it is binary");
    }
    // A path that does not exist at all still gets the old answer.
    const missing = expectOneSentenceError(await cli(['symbols', 'nope.py', '--repo', root], { cacheDir }), 1);
    expect(missing).toContain('is not an indexed file');
  });

  it('skipped as not UTF-8 text (UTF-16 with its byte-order mark): view and symbols name the encoding and what to do', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'wide.py', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x = 1\n', 'utf16le')]));
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    for (const command of ['symbols', 'view']) {
      const line = expectOneSentenceError(await cli([command, 'wide.py', '--repo', root], { cacheDir }), 1);
      expect(line, command).toContain("'wide.py' was not indexed: it is not UTF-8 text (UTF-16LE, by its byte-order mark); re-encode it as UTF-8");
    }
  });

  it('is explained in commit mode too', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'big.py', `x = 1\n${'# padding\n'.repeat(120_000)}`);
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    gitInit(root);
    commitAll(root, 'fixture');
    const big = expectOneSentenceError(await cli(['symbols', 'big.py', '--repo', root, '--commit', 'HEAD'], { cacheDir }), 1);
    expect(big).toContain("'big.py' was not indexed: it is larger than the 1 MiB limit (--max-file-size)");
    const png = expectOneSentenceError(await cli(['view', 'logo.png', '--repo', root, '--commit', 'HEAD'], { cacheDir }), 1);
    expect(png).toContain("'logo.png' was not indexed: it is binary");
  });
});
