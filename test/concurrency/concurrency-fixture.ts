/**
 * Test support for multi-process tests: a generated repository large enough
 * that indexing it takes a moment (so processes started together overlap),
 * the answers a correct index gives about it, and an async runner for the
 * built CLI (REPONAV_TEST_CLI may point at another build).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtCliPath } from '../mcp/built-cli.js';
import { tempDir, type CliResult } from '../cli/harness.js';
import { tracked } from '../helpers/child-processes.js';

/** Files in the generated repository. */
export const MODULES = 160;

/** Writes the repository: `pkg/mod_<i>.py`, each with a unique function and class. Returns its root. */
export function makeRepository(): string {
  const root = join(tempDir('reponav-conc-'), 'repo');
  mkdirSync(join(root, 'pkg'), { recursive: true });
  for (let i = 0; i < MODULES; i++) {
    const body = [
      `"""Module ${i} of the generated package."""`,
      `import os`,
      ``,
      `class Widget${i}:`,
      `    """Holds the ${i}th widget."""`,
      `    def render_${i}(self, size: int) -> str:`,
      `        return os.path.join("w", str(size * ${i}))`,
      ``,
      `def compute_value_${i}(x: int) -> int:`,
      `    """Computes value number ${i}."""`,
      ...Array.from({ length: 30 }, (_, k) => `    x = x + ${k} * ${i}  # step ${k}`),
      `    return x`,
      ``,
    ];
    writeFileSync(join(root, 'pkg', `mod_${i}.py`), body.join('\n'));
  }
  writeFileSync(join(root, 'pkg', '__init__.py'), '');
  return root;
}

/** The line `find function compute_value_<i>` prints for the file that defines it. */
export function expectedFind(i: number): string {
  return `pkg/mod_${i}.py:9-41 compute_value_${i} (function)`;
}

/** Runs the built CLI without blocking the test's event loop. */
export function runCliAsync(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = tracked(spawn(process.execPath, [builtCliPath(), ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The environment of a CLI child: the given cache, no vitest variables. */
export function cleanEnv(extra: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...extra })) {
    if (value !== undefined && !key.startsWith('VITEST') && key !== 'NODE_OPTIONS') env[key] = value;
  }
  env.FORCE_COLOR = '0';
  return env;
}

/** Explains a failed process for an assertion message. */
export function describe(result: CliResult): string {
  return `exit ${result.code} signal ${result.signal}\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(0, 2000)}`;
}

/** A fresh cache folder for one round. */
export function freshCache(): string {
  return tempDir('reponav-conc-cache-');
}
