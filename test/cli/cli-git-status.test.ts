/**
 * What a CLI process costs in `git status` runs: the freshness check's git
 * status is started before the program loads (src/cli/startup/early-git-status.ts)
 * and taken by the one check the process makes, so a `search`, `symbols`,
 * `find` or `view` on an unchanged working tree runs git status once; and an
 * edit is still answered by the next call.
 */
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, ensureBuilt, gitInit, put, runCli, tempDir } from './harness.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

/** A PATH whose `git` logs its arguments (one line per run) and runs the real git. */
function loggingGit(): { env: NodeJS.ProcessEnv; statusRuns: () => number } {
  const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const bin = tempDir('reponav-git-log-');
  const log = join(bin, 'git.log');
  put(bin, 'git', `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const statusRuns = () => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter((line) => / status /.test(` ${line} `)).length;
    } catch {
      return 0;
    }
  };
  return { env: { PATH: `${bin}:${process.env.PATH ?? ''}` }, statusRuns };
}

describe('git status per CLI process', () => {
  it('search, symbols, find and view on an unchanged git working tree run git status once each; an edit is answered by the next call', () => {
    const { root, cacheDir } = copyIndexFixture();
    gitInit(root);
    commitAll(root, 'init');
    expect(runCli(['index', root, '-q'], { cacheDir }).code).toBe(0);
    const { env, statusRuns } = loggingGit();
    const commands = [
      ['search', 'stock level', '--repo', root, '-q'],
      ['symbols', 'inventory/stock.py', `--repo=${root}`],
      ['find', 'function', 'compute_discount', '--repo', root],
      ['view', 'inventory/stock.py:1-3', '--repo', root],
    ];
    for (const args of commands) {
      const before = statusRuns();
      const result = runCli(args, { cacheDir, env });
      expect(result.code, result.stderr).toBe(0);
      expect(statusRuns() - before, args.join(' ')).toBe(1);
    }

    put(root, 'inventory/stock.py', readFileSync(join(root, 'inventory/stock.py'), 'utf8') + '\ndef zanzibar_quota():\n    return 1\n');
    const result = runCli(['find', 'function', 'zanzibar_quota', '--repo', root], { cacheDir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('inventory/stock.py');
  });
});
