/**
 * Test support: the built CLI (`dist/cli/main.js`). Tests that need it fail —
 * never skip — with instructions when it is missing. REPONAV_TEST_CLI may
 * point at another build of the same CLI.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI entry point; throws with what to run when it is missing. */
export function builtCliPath(): string {
  const path = process.env.REPONAV_TEST_CLI ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli/main.js');
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`npm run build\` before these tests (they spawn the built CLI).`);
  }
  return path;
}
