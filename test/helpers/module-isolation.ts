/**
 * Which test files need a module graph of their own. The suite runs with
 * vitest's `isolate: false` (each fork imports the modules once and runs many
 * files in them: 115 s of the suite's import time fell to 15 s), so a file
 * that replaces a module (`vi.mock`, `vi.doMock`, `vi.unmock`,
 * `vi.resetModules`: hoisted replacements apply only where the module is
 * imported after them) or that asserts a module's first use runs in the
 * isolated project instead. The rule reads the file's text, so a new file
 * that mocks a module is isolated without being listed anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The comment a test file writes when it asserts state a module holds from
 * its first use in a process (a cache still empty, a first load): it then runs
 * in a module graph of its own. Say why beside it.
 */
export const OWN_MODULES_MARKER = 'vitest: own module graph';

const MODULE_REPLACEMENT = /\bvi\s*\.\s*(?:mock|doMock|unmock|doUnmock|resetModules)\s*\(/;

/** True when a test file with this text must not share a module graph with other files. */
export function needsOwnModules(source: string): boolean {
  return MODULE_REPLACEMENT.test(source) || source.includes(OWN_MODULES_MARKER);
}

const ENV_REPLACEMENT = /\bprocess\s*\.\s*env\s*=(?!=)/;

/**
 * True when a test file's text replaces the `process.env` object (`process.env =
 * {...}`) instead of setting and deleting its keys: in a shared module graph
 * a module that kept the object at import (env-paths does) would no longer
 * see another file's changes. Use test/helpers/process-env.ts' `restoreEnv`.
 */
export function replacesProcessEnv(source: string): boolean {
  return ENV_REPLACEMENT.test(source);
}

/** `*.test.ts` files under `folders` of `root` (relative, `/`-separated, sorted) whose text {@link needsOwnModules}. */
export function testFilesNeedingOwnModules(root: string, folders: readonly string[]): string[] {
  return testFilesWhere(root, folders, needsOwnModules);
}

/** `*.test.ts` files under `folders` of `root` (relative, `/`-separated, sorted) whose text passes `test`. */
export function testFilesWhere(root: string, folders: readonly string[], test: (source: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts') && test(readFileSync(path, 'utf8'))) found.push(relative(root, path).split('\\').join('/'));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return found.sort();
}
