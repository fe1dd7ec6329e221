/**
 * `reponav localize` and `reponav ask` as processes against an endpoint that
 * fails (HTTP 500) or stalls after the headers, in both wire formats
 * (OpenAI-compatible and Anthropic): each prints its error and the process
 * ends with a non-zero code, by itself — no client, keep-alive socket or
 * timer may keep it alive. The assertion is on the process exit, not only on
 * the output; a process still running after a generous wait is killed and
 * fails the test (a failure guard, not a timing assertion).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../cli/harness.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type WireProvider } from '../helpers/scripted-llm-server.js';
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

function run(provider: WireProvider, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; stillRunning: boolean }> {
  const endpoint =
    provider === 'anthropic'
      ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
      : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
  const child = spawn(process.execPath, [CLI, ...args, '--model', provider === 'anthropic' ? 'anthropic:fake' : 'openai-compatible:fake'], {
    env: { ...process.env, ...endpoint, REPONAV_CACHE_DIR: `${repo.dir}/cache` },
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

const COMMANDS: Record<string, string[]> = { localize: ['localize', '--issue', 'The discount is applied twice.'], ask: ['ask', 'Where is tax added?'] };
/**
 * Each command in each wire format, quiet with no retry; and with the default
 * retries and progress on stderr, so the retry wait's timer and the progress
 * output are on the path too.
 */
const ROWS: Array<[string, WireProvider, string, string[]]> = [
  ['localize', 'openai', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['ask', 'openai', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['localize', 'anthropic', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['ask', 'anthropic', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['localize', 'anthropic', 'default retries', []],
  ['ask', 'openai', 'default retries', []],
];

describe('agent commands end their process after an error', () => {
  it.each(ROWS)('%s (%s, %s) after HTTP 500: its error on stderr, exit 1, the process ends', async (command, provider, _, flags) => {
    server.setDefault({ status: 500 });
    const result = await run(provider, [...COMMANDS[command]!, ...flags, '--repo', repo.root, '--index-path', repo.indexPath(`exit-${command}-${provider}-${flags.length}`)]);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/500/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, WAIT_MS + 30_000);

  it.each(ROWS.slice(0, 4))('%s (%s, %s) against a body that stalls after the headers: --llm-timeout ends the call, exit 1', async (command, provider, _, flags) => {
    server.setDefault({ text: 'never finished', transport: 'stall' });
    const result = await run(provider, [...COMMANDS[command]!, ...flags, '--repo', repo.root, '--index-path', repo.indexPath(`stall-${command}-${provider}`), '--llm-timeout', '0.3', '--deadline', '0']);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/timed out/);
  }, WAIT_MS + 30_000);
});
