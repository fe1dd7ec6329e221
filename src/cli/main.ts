#!/usr/bin/env node
/** The `reponav` executable: runs the program on this process's arguments and sets the exit code. */
import module from 'node:module';

// Node.js 22.1+ keeps V8's compiled code of the bundle's chunks on disk (in the OS temp folder), so a
// process after the first one skips most of their compilation, the largest part of a CLI start-up.
// Node.js 20 has no such cache for ES modules: there the call is absent and nothing changes. It must run
// before the program's modules load, hence the dynamic import below.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./program.js');
process.exitCode = await main(process.argv);
