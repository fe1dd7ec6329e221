/**
 * A file name with a newline (or another control character) never splits an
 * output line: `symbols`, `find`, `view` and the `search` scaffold print such a path
 * quoted and escaped, as git does ("a\nb.py"). The file is made at run time;
 * the CLI runs in this process (in-process-cli.ts): nothing here is about a process.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, expectOneSentenceError, put } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

const NAME = 'a\nb.py';
const SHOWN = '"a\\nb.py"';

describe('a path with a newline', () => {
  it('stays on one line in symbols, find and search output', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, NAME, 'class Zebracorn:\n    """A striped unicorn."""\n\n    def gallop(self):\n        return 1\n');
    expect((await cli(['index', root], { cacheDir })).code).toBe(0);

    const outputs = {
      symbols: (await cli(['symbols', NAME, '--repo', root], { cacheDir })),
      find: (await cli(['find', 'class', 'Zebracorn', '--repo', root], { cacheDir })),
      search: (await cli(['search', 'Zebracorn striped unicorn gallop', '--repo', root], { cacheDir })),
      view: (await cli(['view', NAME, '--repo', root], { cacheDir })),
      'view --symbol': (await cli(['view', '--symbol', 'Zebracorn.gallop', '--repo', root], { cacheDir })),
    };
    for (const [command, result] of Object.entries(outputs)) {
      expect(result.code, `${command}: ${result.stderr}`).toBe(0);
      expect(result.stdout, command).toContain(SHOWN);
      // No line starts with the tail of the split name.
      expect(result.stdout.split('\n').some((line) => line.startsWith('b.py')), command).toBe(false);
    }
  });
});

describe('view --lines', () => {
  it('shows a span of a file whose path holds a newline, where FILE:START-END cannot be written apart from the path', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, NAME, 'one = 1\ntwo = 2\nthree = 3\nfour = 4\n');
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const result = (await cli(['view', NAME, '--lines', '2-3', '--repo', root], { cacheDir }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`[FILE] ${SHOWN} (python, 4 lines) lines 2-3`);
    expect(result.stdout).toContain('two = 2');
    expect(result.stdout).not.toContain('four = 4');
    expect((await cli(['view', NAME, '--lines', '3', '--repo', root], { cacheDir })).stdout).toMatch(/lines 3-3\n3\s.*three = 3/);
    expect((await cli(['view', NAME, '--lines', '3-1', '--repo', root], { cacheDir })).code).toBe(2);
    expect((await cli(['view', NAME, '--lines', '1-2', '--start', '1', '--repo', root], { cacheDir })).code).toBe(2);
    expect((await cli(['view', '--help'], { cacheDir })).stdout).toContain('--lines <start-end>');
  });
});

describe('a file the index skipped on purpose, and paths in error messages', () => {
  it('view and symbols of a file below an ignored or default-skipped folder, or matched by a .gitignore rule, say why and name the rule', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    put(root, 'node_modules/left/pad.py', 'def pad(s):\n    return s\n');
    put(root, 'build_output/gen/module.py', 'def built():\n    return 1\n');
    put(root, 'inventory/generated_prices.py', 'PRICES = {}\n');
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const cases: [string[], RegExp][] = [
      [['view', 'node_modules/left/pad.py'], /'node_modules\/left\/pad\.py' was not indexed: it is in a folder left out by default or by the index settings \(the default rule 'node_modules\/'; add '!node_modules\/' to \.reponavignore to index it\)\.$/],
      [['symbols', 'build_output/gen/module.py'], /'build_output\/gen\/module\.py' was not indexed: it is ignored by a \.gitignore rule \('build_output\/' in \.gitignore; add '!build_output\/' to \.reponavignore to index it\)\.$/],
      [['view', 'inventory/generated_prices.py'], /was not indexed: it is ignored by a \.gitignore rule \('generated_\*\.py' in inventory\/\.gitignore; add '!generated_\*\.py' to inventory\/\.reponavignore to index it\)\.$/],
    ];
    for (const [args, message] of cases) {
      const result = (await cli([...args, '--repo', root], { cacheDir }));
      expect(expectOneSentenceError(result, 1), args.join(' ')).toMatch(message);
    }
  });

  it('a missing path with a newline is one error line, the path quoted and escaped', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    for (const command of ['view', 'symbols']) {
      const result = (await cli([command, 'no\nsuch.py', '--repo', root], { cacheDir }));
      expect(expectOneSentenceError(result, 1), command).toMatch(/^error: "no\\nsuch\.py" is not an indexed file of /);
    }
    const outside = (await cli(['view', '/etc/x\ny', '--repo', root], { cacheDir }));
    expect(expectOneSentenceError(outside, 1)).toMatch(/^error: Path "\/etc\/x\\ny" is outside the repository root/);
  });
});
