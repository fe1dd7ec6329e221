#!/usr/bin/env node
/**
 * The `reponav` executable: runs the program on this process's arguments and ends
 * the process with its exit code once the output is flushed (see process-exit.ts
 * for why a one-shot command does not wait for the event loop to run dry).
 *
 * A hot command (search, symbols, find, view) runs from a CommonJS bundle with a
 * V8 code cache (startup/launcher.ts; startup/README.md says what each start-up piece buys); everything else, and a build without that bundle
 * (`tsc` alone), runs the ES modules below.
 */
import { statSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// Node.js 22.1+ keeps V8's compiled code of the bundle's chunks on disk (in the OS temp folder), so a
// process after the first one skips most of their compilation. Node.js 20 has no such cache for ES
// modules: there the call is absent. It must run before the program's modules load, hence the dynamic
// imports below.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const argv = process.argv;
if (!(await launchFromBundle())) {
  // Before the program loads: the freshness check's `git status` runs meanwhile (startup/early-git-status.ts).
  (await import('./startup/early-git-status.js')).startGitStatusEarly(argv);
  const { finishProcess, holdEventLoop } = await import('./process-exit.js');
  holdEventLoop();
  const { main } = await import('./program.js');
  await finishProcess(await main(argv));
}

/** Runs a hot command through dist/cli/launcher.cjs; false when there is none (or an older one than this file) or it declines. */
async function launchFromBundle(): Promise<boolean> {
  const mainFile = fileURLToPath(import.meta.url);
  const launcherFile = fileURLToPath(new URL('./launcher.cjs', import.meta.url));
  let launcher: { launchHotCommand: (argv: string[], mainFile: string) => Promise<boolean> };
  try {
    if (statSync(launcherFile).mtimeMs < statSync(mainFile).mtimeMs) return false;
    launcher = createRequire(import.meta.url)(launcherFile) as typeof launcher;
  } catch {
    return false;
  }
  return launcher.launchHotCommand(argv, mainFile);
}
