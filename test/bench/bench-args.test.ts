import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BENCH = join(import.meta.dirname, '../../bench');
/** Every runnable bench script (the modules they import have no command line). */
const SCRIPTS = readdirSync(BENCH)
  .filter((name) => name.endsWith('.mjs'))
  .filter((name) => !['bench-args.mjs', 'fix-queries.mjs', 'module-count-hook.mjs', 'parse-floor-worker.mjs', 'ranker-model.mjs', 'repo-rule.mjs', 'synthetic-repos.mjs'].includes(name));

const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(BENCH, script), ...args], { encoding: 'utf8', timeout: 30_000 });

const logs = mkdtempSync(join(tmpdir(), 'reponav-bench-args-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

/** `script ARGS` with bench/module-count-hook.mjs logging every ES module the process loads; the run and the loaded URLs. */
function runLogged(script: string, ...args: string[]) {
  const log = join(logs, `${script}.log`);
  const result = spawnSync(process.execPath, ['--import', join(BENCH, 'module-count-hook.mjs'), join(BENCH, script), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, REPONAV_MODULE_LOG: log },
  });
  return { result, loaded: existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [] };
}

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

  it.each(SCRIPTS)('%s refuses an unknown flag with exit 2, before loading the build', (script) => {
    const { result, loaded } = runLogged(script, '--no-such-flag');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown option --no-such-flag');
    // The script itself was seen by the hook (so an empty list is not a hook that logged nothing)...
    expect(loaded.some((url) => url.endsWith(`/bench/${script}`))).toBe(true);
    // ...and its arguments were read before any module of the build loaded.
    expect(loaded.filter((url) => url.includes('/dist/'))).toEqual([]);
  });
});
