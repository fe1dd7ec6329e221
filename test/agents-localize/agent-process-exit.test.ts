/**
 * `reponav localize` and `reponav ask` as processes against an endpoint that
 * fails (HTTP 500) or stalls after the headers: each prints its error and the
 * process ends with a non-zero code, by itself. The assertion is on the
 * process exit, not only on the output; a process still running after a
 * generous wait is killed and fails the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../cli/harness.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../helpers/scripted-llm-server.js';
import { createFixtureRepo, type FixtureRepo } from './agent-fixture.js';

/** Far above what a run with these limits needs: only a process that never ends reaches it. */
const WAIT_MS = 60_000;

let repo: FixtureRepo;
let server: ScriptedLlmServer;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  await ensureBuilt();
  repo = createFixtureRepo();
}, 300_000);
afterAll(() => repo?.cleanup());
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await server.close();
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; stillRunning: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_CACHE_DIR: `${repo.dir}/cache` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c));
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, stderr, stillRunning: true });
    }, WAIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr, stillRunning: false });
    });
  });
}

const LOCALIZE = ['localize', '--issue', 'The discount is applied twice.', '--model', 'openai-compatible:fake', '--llm-retries', '0', '-q'];
const ASK = ['ask', 'Where is tax added?', '--model', 'openai-compatible:fake', '--llm-retries', '0', '-q'];

describe('agent commands end their process after an error', () => {
  it.each([
    ['localize', LOCALIZE],
    ['ask', ASK],
  ])('%s after HTTP 500: one sentence on stderr, exit 1, the process ends', async (_, args) => {
    server.setDefault({ status: 500 });
    const result = await run([...args, '--repo', repo.root, '--index-path', repo.indexPath(`exit-${args[0]}`)]);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/500/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, WAIT_MS + 30_000);

  it.each([
    ['localize', LOCALIZE],
    ['ask', ASK],
  ])('%s against a body that stalls after the headers: --llm-timeout ends the call, exit 1', async (_, args) => {
    server.setDefault({ text: 'never finished', transport: 'stall' });
    const result = await run([...args, '--repo', repo.root, '--index-path', repo.indexPath(`stall-${args[0]}`), '--llm-timeout', '0.3', '--deadline', '0']);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/timed out/);
  }, WAIT_MS + 30_000);
});
