import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BENCH = join(import.meta.dirname, '../../bench');
/** Every runnable bench script (the modules they import have no command line). */
const SCRIPTS = readdirSync(BENCH)
  .filter((name) => name.endsWith('.mjs'))
  .filter((name) => !['bench-args.mjs', 'fix-queries.mjs', 'module-count-hook.mjs', 'parse-floor-worker.mjs', 'ranker-model.mjs', 'repo-rule.mjs', 'synthetic-repos.mjs'].includes(name));

const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(BENCH, script), ...args], { encoding: 'utf8', timeout: 30_000 });

describe('bench scripts', () => {
  it('finds the scripts it checks', () => {
    expect(SCRIPTS).toEqual(expect.arrayContaining(['scale-bench.mjs', 'index-bench.mjs', 'search-bench.mjs', 'tune-loro.mjs']));
  });

  it.each(SCRIPTS)('%s --help prints its usage and starts nothing', (script) => {
    const result = run(script, '--help');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/usage/i);
    expect(result.stdout.split('\n').length).toBeLessThan(12);
  });

  it.each(SCRIPTS)('%s refuses an unknown flag with exit 2', (script) => {
    const result = run(script, '--no-such-flag');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown option --no-such-flag');
  });
});
