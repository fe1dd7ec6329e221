#!/usr/bin/env node
/** The `reponav` executable: runs the program on this process's arguments and sets the exit code. */
import { main } from './program.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
