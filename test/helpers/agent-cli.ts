/**
 * The built CLI (`dist/cli/main.js`) as a process against a scripted
 * endpoint, in one wire format: the endpoint's variables and a `--model` of
 * that provider are set, stdout and stderr collected. The caller owns
 * `children` and kills what is left in its afterEach; a process still
 * running after `waitMs` is killed and reported (a failure guard, not a
 * timing assertion).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach } from 'vitest';
import { CLI } from '../cli/harness.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type WireProvider } from './scripted-llm-server.js';

/** What {@link useAgentCliEndpoint}'s hooks keep: a fresh scripted endpoint per test, and the processes to kill after it. */
export interface AgentCliEndpoint {
  server: ScriptedLlmServer;
  children: Set<ChildProcess>;
}

/** Registers the hooks in the calling file: a fresh endpoint before each test; after it, every process left is killed and the endpoint closed. */
export function useAgentCliEndpoint(): AgentCliEndpoint {
  const ctx = { children: new Set<ChildProcess>() } as AgentCliEndpoint;
  beforeEach(async () => {
    ctx.server = await startScriptedLlmServer();
  });
  afterEach(async () => {
    for (const child of ctx.children) child.kill('SIGKILL');
    ctx.children.clear();
    await ctx.server.close();
  });
  return ctx;
}

/** How the process ended. */
export interface AgentCliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when it was still running after `waitMs` and was killed. */
  stillRunning: boolean;
}

/** Runs `reponav ARGS --model <provider>:fake` against `server`; `cacheDir` keeps indexes out of the user's cache. */
export function runAgentCli(
  server: ScriptedLlmServer,
  provider: WireProvider,
  args: string[],
  options: { cacheDir: string; children: Set<ChildProcess>; waitMs: number },
): Promise<AgentCliResult> {
  const endpoint =
    provider === 'anthropic'
      ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
      : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
  const child = spawn(process.execPath, [CLI, ...args, '--model', provider === 'anthropic' ? 'anthropic:fake' : 'openai-compatible:fake'], {
    env: { ...process.env, ...endpoint, REPONAV_CACHE_DIR: options.cacheDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c));
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, stderr, stillRunning: true });
    }, options.waitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      options.children.delete(child);
      resolve({ code, stdout, stderr, stillRunning: false });
    });
  });
}
