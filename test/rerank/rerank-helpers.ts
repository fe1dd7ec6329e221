/**
 * Test support for the model reranker's end-to-end tests: the CLI program run
 * in this process beside the scripted endpoint, and scripted rerank models that
 * answer from the prompt's numbered candidates as real listwise rerankers do.
 */
import type { ScriptedRequest, StyledReply } from '../helpers/scripted-llm-server.js';
import { runCliInProcess } from '../cli/in-process-cli.js';

/** The result of one CLI run. */
export interface AsyncCliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `reponav ARGS` in this process (test/cli/in-process-cli.ts) with `env` added and a
 * private cache, the model variables of this environment (REPONAV_LLM_*, OPENAI_*, ANTHROPIC_*)
 * unset unless `env` gives them; resolves when the command ends. The scripted endpoint answers
 * meanwhile: the command awaits it as a process would. Calls must not overlap.
 */
export function runCliAsync(args: string[], options: { cacheDir: string; env?: Record<string, string> }): Promise<AsyncCliResult> {
  const env: NodeJS.ProcessEnv = { ...options.env };
  for (const key of Object.keys(process.env)) {
    if ((key.startsWith('REPONAV_LLM_') || key.startsWith('OPENAI_') || key.startsWith('ANTHROPIC_')) && !(key in env)) env[key] = undefined;
  }
  return runCliInProcess(args, { cacheDir: options.cacheDir, env });
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
