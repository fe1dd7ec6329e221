/**
 * `symbols` and `view` on a file the index skipped say why it was skipped
 * (binary, larger than the size limit), in one sentence with exit 1, instead
 * of calling it "not an indexed file" and suggesting other paths.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, ensureBuilt, expectOneSentenceError, gitInit, put, runCli } from './harness.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

describe('a skipped file', () => {
  it('is explained by symbols and view, with its reason', () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'big.py', `x = 1\n${'# padding\n'.repeat(120_000)}`); // ~1.2 MB, over the 1 MiB default
    put(root, 'blob.py', Buffer.from([0x78, 0x3d, 0x31, 0x00, 0x0a, 0x00])); // NUL bytes: sniffed as binary
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47])); // binary by extension
    expect(runCli(['index', root], { cacheDir }).code).toBe(0);

    for (const command of ['symbols', 'view']) {
      const big = expectOneSentenceError(runCli([command, 'big.py', '--repo', root], { cacheDir }), 1);
      expect(big).toContain("'big.py' was not indexed: it is larger than the 1 MiB limit (--max-file-size)");
      expect(big).not.toContain('Closest indexed paths');
      const blob = expectOneSentenceError(runCli([command, 'blob.py', '--repo', root], { cacheDir }), 1);
      expect(blob).toContain("'blob.py' was not indexed: it is binary");
      const png = expectOneSentenceError(runCli([command, 'logo.png', '--repo', root], { cacheDir }), 1);
      expect(png).toContain("'logo.png' was not indexed: it is binary");
    }
    // A path that does not exist at all still gets the old answer.
    const missing = expectOneSentenceError(runCli(['symbols', 'nope.py', '--repo', root], { cacheDir }), 1);
    expect(missing).toContain('is not an indexed file');
  });

  it('skipped as not UTF-8 text (UTF-16 with its byte-order mark): view and symbols name the encoding and what to do', () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'wide.py', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x = 1\n', 'utf16le')]));
    expect(runCli(['index', root, '-q'], { cacheDir }).code).toBe(0);
    for (const command of ['symbols', 'view']) {
      const line = expectOneSentenceError(runCli([command, 'wide.py', '--repo', root], { cacheDir }), 1);
      expect(line, command).toContain("'wide.py' was not indexed: it is not UTF-8 text (UTF-16LE, by its byte-order mark); re-encode it as UTF-8");
    }
  });

  it('is explained in commit mode too', () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'big.py', `x = 1\n${'# padding\n'.repeat(120_000)}`);
    put(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    gitInit(root);
    commitAll(root, 'fixture');
    const big = expectOneSentenceError(runCli(['symbols', 'big.py', '--repo', root, '--commit', 'HEAD'], { cacheDir }), 1);
    expect(big).toContain("'big.py' was not indexed: it is larger than the 1 MiB limit (--max-file-size)");
    const png = expectOneSentenceError(runCli(['view', 'logo.png', '--repo', root, '--commit', 'HEAD'], { cacheDir }), 1);
    expect(png).toContain("'logo.png' was not indexed: it is binary");
  });
});
