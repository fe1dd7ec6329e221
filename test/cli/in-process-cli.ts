/**
 * Test support: the `reponav` program run in this process (src/cli/program.ts's
 * main) with its stdout and stderr given as strings it writes to, for CLI behaviour that is not about
 * process start-up (output wording, exit codes, JSON shapes). Behaviour that
 * needs a process (a pipe's non-TTY output, stdin, signals, the shipped
 * bundle's start-up) stays with harness.ts's runCli.
 */
import { join } from 'node:path';
import { main } from '../../src/cli/program.js';
import type { CliResult } from './harness.js';
import type { CliIo } from '../../src/cli/cli-io.js';

/**
 * Runs `reponav ARGS` in this process with REPONAV_CACHE_DIR (and XDG_CACHE_HOME)
 * set to `cacheDir` for the call, as harness.ts's runCli sets them for a process,
 * with the variables of `env` set for the call (undefined unsets one), and in
 * `cwd` when given (the working folder is changed for the call: vitest's forks
 * pool allows it). Its output is captured through main's injected stdout and
 * stderr, never by patching the process's streams. Calls must not overlap
 * (they share the environment and the working folder).
 */
export async function runCliInProcess(args: string[], options: { cacheDir: string; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const saved = { cache: process.env.REPONAV_CACHE_DIR, xdg: process.env.XDG_CACHE_HOME, cwd: process.cwd() };
  const savedEnv = Object.keys(options.env ?? {}).map((key) => [key, process.env[key]] as const);
  for (const [key, value] of Object.entries(options.env ?? {})) restore(key, value);
  if (options.cwd !== undefined) process.chdir(options.cwd);
  process.env.REPONAV_CACHE_DIR = options.cacheDir;
  process.env.XDG_CACHE_HOME = join(options.cacheDir, 'xdg');
  // Written as a pipe receives them (runCli's processes write to pipes): not a terminal.
  const io: CliIo = {
    stdout: { write: (text: string) => ((stdout += text), true), isTTY: false },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: false },
  };
  try {
    const code = await main(['node', 'reponav', ...args], io);
    return { code, signal: null, stdout, stderr };
  } finally {
    restore('REPONAV_CACHE_DIR', saved.cache);
    restore('XDG_CACHE_HOME', saved.xdg);
    process.chdir(saved.cwd);
    for (const [key, value] of savedEnv) restore(key, value);
  }
}

function restore(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
