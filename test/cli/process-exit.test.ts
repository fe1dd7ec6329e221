/**
 * A one-shot command ends its process once its output is flushed, whatever is
 * still scheduled on the event loop: Node.js 20 can deadlock when the loop runs
 * dry after parse workers (nodejs/node#54918; seen as `reponav index` hanging at
 * 0% CPU with its index written), so the CLI never waits for that point. A
 * command that keeps a server running is left alone.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PROJECT_ROOT } from './harness.js';

beforeAll(ensureBuilt, 300_000);

const MODULE = pathToFileURL(join(PROJECT_ROOT, 'dist/cli/process-exit.js')).href;

/** Runs an ES module snippet that imports the built process-exit module as `P`; resolves with its exit and stdout length. */
function runSnippet(body: string, waitMs: number): Promise<{ code: number | null; stdoutBytes: number; stillRunning: boolean }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import * as P from ${JSON.stringify(MODULE)};\n${body}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdoutBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdoutBytes, stillRunning: true });
    }, waitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdoutBytes, stillRunning: false });
    });
  });
}

describe('finishProcess', () => {
  it('ends a one-shot run with its code while a timer is still scheduled, after all of its output', async () => {
    // A ref'd interval stands for whatever would keep the loop from running dry; 4 MB of output
    // is more than a pipe holds, so an exit before the flush would lose some.
    const result = await runSnippet(
      `setInterval(() => {}, 1000);\nprocess.stdout.write('x'.repeat(4 * 1024 * 1024));\nawait P.finishProcess(3);`,
      20_000,
    );
    expect(result).toEqual({ code: 3, stdoutBytes: 4 * 1024 * 1024, stillRunning: false });
  }, 30_000);

  it('leaves a process that a command kept alive running, with its exit code set', async () => {
    const result = await runSnippet(
      `setInterval(() => {}, 1000);\nP.keepProcessAlive();\nawait P.finishProcess(0);\nprocess.stdout.write(P.isProcessKeptAlive() && process.exitCode === 0 ? 'alive' : 'wrong');`,
      1_500,
    );
    expect(result).toEqual({ code: null, stdoutBytes: 'alive'.length, stillRunning: true });
  }, 30_000);
});
