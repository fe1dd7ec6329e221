/**
 * On a machine without Chromium, `npm test` says in one line what to install
 * and skips the browser tests (before: every browser test failed with a stack
 * trace); with REPONAV_REQUIRE_BROWSER=1 (CI) the same run fails with that
 * line instead. Runs vitest itself on a browser test file with a Chromium
 * path that does not exist.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/harness.js';

describe('browser tests without a browser', () => {
  it('are skipped with one line saying what to install, and the run passes', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, REPONAV_CHROMIUM: '/nonexistent/chromium', NO_COLOR: '1' };
    delete env.REPONAV_REQUIRE_BROWSER;
    delete env.VITEST;
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/web/web-ui.test.ts'], {
      cwd: PROJECT_ROOT,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    const lines = output.split('\n').filter((l) => l.includes('Chromium'));
    expect(lines).toEqual([
      'browser tests skipped: no Chromium at /nonexistent/chromium; install it with `apt-get install -y chromium` (Debian/Ubuntu) or set REPONAV_CHROMIUM to a Chromium binary.',
    ]);
    expect(output).toMatch(/skipped/);
    expect(output).not.toMatch(/\n\s+at /);
  }, 150_000);

  it('fail the run with REPONAV_REQUIRE_BROWSER=1 (as CI sets it), saying what is missing', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, REPONAV_CHROMIUM: '/nonexistent/chromium', REPONAV_REQUIRE_BROWSER: '1', NO_COLOR: '1' };
    delete env.VITEST;
    const run = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/web/web-overview.test.ts'], {
      cwd: PROJECT_ROOT,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toContain('no Chromium at /nonexistent/chromium; install it with `apt-get install -y chromium`');
    expect(output).toMatch(/1 failed/);
  }, 150_000);
});
