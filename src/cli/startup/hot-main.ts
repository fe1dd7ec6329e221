/**
 * Entry of dist/cli/hot-commands.cjs: the hot commands (hot-command-names.ts)
 * as one CommonJS bundle that the launcher compiles with a V8 code cache
 * (launcher.ts, code-cache.ts). CommonJS because Node.js 20 hands cached code
 * only to a script (vm.Script), not to an ES module; one file because esbuild
 * splits only ES modules.
 */
import { startGitStatusEarly } from './early-git-status.js';
import { HOT_COMMANDS } from './hot-commands.js';
import { finishProcess, holdEventLoop } from '../process-exit.js';
import { runProgram } from '../run-program.js';

/** Runs a hot command on `argv` and ends the process (see process-exit.ts). */
export async function run(argv: string[]): Promise<void> {
  // This bundle's own copy of the git status state: started here, taken by this bundle's freshness check.
  startGitStatusEarly(argv);
  holdEventLoop();
  await finishProcess(await runProgram(HOT_COMMANDS, argv));
}
