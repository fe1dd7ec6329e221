/**
 * A code search that finds nothing exits 1 like grep, with one sentence on
 * stderr: the answer's summary. What it found instead (calls of the same name
 * on other receivers) goes to stdout, where it can be read, instead of being
 * folded into the error line.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summaryOf } from '../../src/cli/commands/symbols-command.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { cleanupTempDirs, put, tempDir } from './harness.js';
import { runCliInProcess } from './in-process-cli.js';

afterAll(cleanupTempDirs);

describe('a lookup that finds nothing', () => {
  it('references: the summary on stderr in one line, the same-name calls on other receivers on stdout, exit 1', async () => {
    const dir = tempDir();
    const root = join(dir, 'repo');
    put(root, 'store/cache.py', 'class Cache:\n    def get(self, key):\n        return key\n');
    put(root, 'app/use.py', 'def lookup(settings):\n    return settings.get("timeout")\n');
    const result = await runCliInProcess(['references', 'Cache.get', '--repo', root, '-q'], { cacheDir: join(dir, 'cache') });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("error: 'Cache.get' is defined at store/cache.py:2-3 Cache.get (method). No calls of 'Cache.get' found in the index.\n");
    expect(result.stdout).toContain('Same name, other receiver');
    expect(result.stdout).toContain('app/use.py:2 in lookup [other receiver: settings]');
    const regex = await runCliInProcess(['regex', 'NoSuchThing123', '--repo', root, '-q'], { cacheDir: join(dir, 'cache') });
    expect(regex.code).toBe(1);
    expect(regex.stdout).toBe('');
    expect(regex.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    // Every other lookup keeps grep's shape: nothing on stdout.
    const search = await runCliInProcess(['search', 'zzqqxx wubbalubba', '--repo', root, '-q'], { cacheDir: join(dir, 'cache') });
    expect(search.code).toBe(1);
    expect(search.stdout).toBe('');
  });

  it('summaryOf: the lines before the first list, as one sentence (generated answers)', () => {
    const seed = 20261204;
    const next = mulberry32(seed);
    const sentence = (i: number) => `Sentence ${i} says what was looked for.`;
    for (let trial = 0; trial < 200; trial++) {
      const head = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => sentence(i));
      const listHeads = ['Same name, other receiver (3):', '  indented line', '[TRUNCATED] 2 left out', ''];
      const list = next() < 0.3 ? [] : [listHeads[Math.floor(next() * listHeads.length)]!, 'path/a.py:1 in f', 'path/b.py:2 in g'];
      const text = [...head, ...list].join('\n');
      expect(summaryOf(text), `seed ${seed}, trial ${trial}`).toEqual({ sentence: head.join(' '), lines: head.length });
    }
    expect(summaryOf('  only a list\n  more')).toEqual({ sentence: 'only a list', lines: 1 });
  });
});
