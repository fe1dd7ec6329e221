import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { requireWithCodeCache } from './code-cache.js';

afterAll(cleanupTempDirs);

/** A CommonJS module with enough code for V8 to cache, and its cache file's path (not yet written). */
function fixture(body = 'exports.answer = (n) => n * 2;') {
  const dir = tempDir('reponav-code-cache-');
  const file = join(dir, 'bundle.cjs');
  // A unique source: V8 answers a source it compiled before in this process from memory, ignoring any cache.
  writeFileSync(file, `// ${randomUUID()}\n${body}\nexports.file = __filename;\nexports.required = typeof require('node:path').join;\n`);
  return { dir, file, cacheFile: join(dir, 'cache', 'search.bin') };
}

/** Runs `file` the way main.ts does, then what the process's exit does (writing the cache). */
function load(file: string, cacheFile: string) {
  const before = process.listeners('exit');
  const loaded = requireWithCodeCache(file, cacheFile);
  for (const listener of process.listeners('exit')) {
    if (before.includes(listener)) continue;
    process.removeListener('exit', listener);
    (listener as (code: number) => void)(0);
  }
  return loaded;
}

describe('requireWithCodeCache', () => {
  it('runs the module as require() would, writes the cache at exit, and uses it next time', () => {
    const { file, cacheFile } = fixture();
    const first = load(file, cacheFile)!;
    expect(first.cache).toBe('missing');
    expect((first.exports.answer as (n: number) => number)(21)).toBe(42);
    expect(first.exports).toMatchObject({ file, required: 'function' });
    expect(existsSync(cacheFile)).toBe(true);
    const second = load(file, cacheFile)!;
    expect(second.cache).toBe('hit');
    expect((second.exports.answer as (n: number) => number)(4)).toBe(8);
  });

  it('a damaged or truncated cache file is a miss: the module still runs and the file is written again', () => {
    const { file, cacheFile } = fixture();
    load(file, cacheFile);
    const good = readFileSync(cacheFile);
    const flipped = Buffer.from(good);
    for (let i = good.length - 64; i < good.length; i++) flipped[i] ^= 0xff;
    for (const bad of [flipped, good.subarray(0, good.length - 100), good.subarray(0, 10), Buffer.from('not a cache')]) {
      writeFileSync(cacheFile, bad);
      const loaded = load(file, cacheFile)!;
      expect(loaded.cache).toBe('damaged');
      expect((loaded.exports.answer as (n: number) => number)(1)).toBe(2);
      expect(load(file, cacheFile)!.cache).toBe('hit');
    }
  });

  it('a cache made from another bundle (an upgrade) is stale: the new code runs and replaces it', () => {
    const { file, cacheFile } = fixture('exports.answer = (n) => n * 2;');
    load(file, cacheFile);
    // Same length, other code: V8 alone would take the old cache (it checks only the source length).
    writeFileSync(file, readFileSync(file, 'utf8').replace('n * 2', 'n * 3'));
    const loaded = load(file, cacheFile)!;
    expect(loaded.cache).toBe('stale');
    expect((loaded.exports.answer as (n: number) => number)(2)).toBe(6);
    expect(load(file, cacheFile)!.cache).toBe('hit');
  });

  it('data V8 refuses (another V8 version or flags) is rejected and rewritten', () => {
    const { file, cacheFile } = fixture();
    // A header and checksum that hold, around data that is not V8's: only V8's own checks can refuse it.
    const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest();
    const payload = Buffer.alloc(256, 7);
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, Buffer.concat([Buffer.from('reponav-code-cache 1\n'), sha1(readFileSync(file, 'utf8')), sha1(payload), payload]));
    const loaded = load(file, cacheFile)!;
    expect(loaded.cache).toBe('rejected');
    expect((loaded.exports.answer as (n: number) => number)(5)).toBe(10);
    expect(load(file, cacheFile)!.cache).toBe('hit');
  });

  it('a cache folder that cannot be written means no cache, never an error', () => {
    const { dir, file } = fixture();
    // A file where the folder should be: unwritable even for root (a read-only mode is not, for root).
    writeFileSync(join(dir, 'not-a-folder'), '');
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    try {
      for (const cacheFile of [join(dir, 'not-a-folder', 'code-cache', 'search.bin'), join(readOnly, 'code-cache', 'search.bin')]) {
        const loaded = load(file, cacheFile)!;
        expect((loaded.exports.answer as (n: number) => number)(3)).toBe(6);
        if (cacheFile.includes('not-a-folder')) expect(load(file, cacheFile)!.cache).toBe('missing');
      }
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      chmodSync(readOnly, 0o755);
    }
  });

  it('reads a source with non-ASCII text as UTF-8 (an ASCII one as Latin-1: the same text)', () => {
    const { file, cacheFile } = fixture("exports.answer = (n) => n * 2;\nexports.word = 'café ✓';");
    expect(load(file, cacheFile)!.exports.word).toBe('café ✓');
    expect(load(file, cacheFile)!).toMatchObject({ cache: 'hit', exports: { word: 'café ✓' } });
  });

  it('null when the bundle is not there (a build without it)', () => {
    const { dir } = fixture();
    expect(requireWithCodeCache(join(dir, 'missing.cjs'), join(dir, 'cache.bin'))).toBeNull();
  });
});
