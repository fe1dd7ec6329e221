import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'reponav-child-net-'));
let leaked: number | null = null;
afterAll(() => {
  if (leaked !== null && running(leaked)) process.kill(leaked, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the process runs (a zombie not yet reaped runs nothing). */
function running(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== undefined && state !== 'Z';
  } catch {
    return false;
  }
}

describe('a child process a test started through the helpers', () => {
  it('is killed when its test file ends, although the test failed before stopping it', async () => {
    const pidFile = join(dir, 'child.pid');
    const env: NodeJS.ProcessEnv = { ...process.env, LEAK_PID_FILE: pidFile };
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete env[key];
    const vitest = join('node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'test/helpers/__fixtures__/fixture.config.ts'], { env, encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(existsSync(pidFile), 'the fixture did not run').toBe(true);
    leaked = Number(readFileSync(pidFile, 'utf8'));
    expect(leaked).toBeGreaterThan(0);
    // The kill came from the file's afterAll, before vitest exited; the orphan is reaped by init, awaited as an event.
    while (running(leaked)) await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
