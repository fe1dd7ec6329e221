#!/usr/bin/env node
/**
 * The `reponav` executable: runs the program on this process's arguments and ends
 * the process with its exit code once the output is flushed (see process-exit.ts
 * for why a one-shot command does not wait for the event loop to run dry).
 */
import module from 'node:module';

// Node.js 22.1+ keeps V8's compiled code of the bundle's chunks on disk (in the OS temp folder), so a
// process after the first one skips most of their compilation, the largest part of a CLI start-up.
// Node.js 20 has no such cache for ES modules: there the call is absent and nothing changes. It must run
// before the program's modules load, hence the dynamic import below.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Before the program loads: the freshness check's `git status` runs meanwhile (early-git-status.ts).
(await import('./early-git-status.js')).startGitStatusEarly(process.argv);
const { finishProcess, holdEventLoop } = await import('./process-exit.js');
holdEventLoop();
const { main } = await import('./program.js');
await finishProcess(await main(process.argv));
