/**
 * The agents' shell: a read-only view of a repository (a materialised commit
 * or a working tree) and a command runner that parses command lines itself,
 * allows only read-only programs, confines paths to the view, and enforces a
 * time limit and an output cap.
 */
export { parseCommandLine, type CommandStage, type ParsedCommandLine, type ShellWord, type StderrMode } from './command-line.js';
export { expandGlob, MAX_GLOB_MATCHES } from './glob-expansion.js';
export { availablePrograms, checkProgram, READ_ONLY_PROGRAMS, type CheckedProgram, type PolicyContext, type ProgramCheck } from './program-policy.js';
export { pathProblem, viewFile, type ConfinementRoot } from './path-confinement.js';
export { sedScriptProblem } from './sed-script.js';
export { runPipeline, type PipelineResult, type ProcessStage, type RunPipelineOptions } from './process-runner.js';
export {
  CommitViewCache,
  materializeCommit,
  openWorktreeView,
  removeViewFolder,
  type CommitViewCacheOptions,
  type RepositoryView,
} from './repository-view.js';
export {
  DEFAULT_SHELL_MAX_OUTPUT_CHARS,
  DEFAULT_SHELL_TIMEOUT_MS,
  SafeShell,
  type SafeShellOptions,
  type ShellRunResult,
} from './safe-shell.js';
