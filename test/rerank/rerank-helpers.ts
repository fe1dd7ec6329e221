/**
 * Test support for the model reranker's end-to-end tests: the built CLI run
 * asynchronously (the scripted endpoint lives in the test process, so a
 * synchronous child would block it), and scripted rerank models that answer
 * from the prompt's numbered candidates as real listwise rerankers do.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ScriptedRequest, StyledReply } from '../helpers/scripted-llm-server.js';
import { CLI, PROJECT_ROOT } from '../cli/harness.js';
import { tracked } from '../helpers/child-processes.js';

/** The result of one CLI run. */
export interface AsyncCliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `env` added (and a private cache); resolves when it exits. */
export function runCliAsync(args: string[], options: { cacheDir: string; env?: Record<string, string> }): Promise<AsyncCliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, REPONAV_CACHE_DIR: options.cacheDir, XDG_CACHE_HOME: join(options.cacheDir, 'xdg'), FORCE_COLOR: '0', ...options.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key.startsWith('REPONAV_LLM_') || key.startsWith('OPENAI_') || key.startsWith('ANTHROPIC_')) {
    if (!(options.env && key in options.env)) delete env[key];
  }
  return new Promise((resolve, reject) => {
    const child = tracked(spawn(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The window's candidates as the prompt numbered them: `[i] path:qualifiedName`, [1] first. */
export function promptCandidates(request: ScriptedRequest): string[] {
  return [...request.prompt.matchAll(/^\[(\d+)\] (\S+)/gm)].map((m) => m[2]!);
}

/** A reranker that puts candidates whose name contains `favourite` first, the rest in the order given. */
export function favouring(favourite: string): (request: ScriptedRequest) => StyledReply {
  return (request) => {
    const names = promptCandidates(request);
    const ids = names.map((name, i) => ({ name, id: i + 1 }));
    const ordered = [...ids.filter((c) => c.name.includes(favourite)), ...ids.filter((c) => !c.name.includes(favourite))];
    return { text: ordered.map((c) => `[${c.id}]`).join(' > ') };
  };
}

/** A reranker that answers the candidates in the order given (the retrieval order), with no usage so tokens are counted locally (o200k). */
export function retrievalOrder(request: ScriptedRequest): StyledReply {
  return { text: promptCandidates(request).map((_, i) => `[${i + 1}]`).join(' > '), noUsage: true };
}
