/**
 * The agent's shell: one command line in, one observation out. By default no
 * shell interpreter runs: the line is parsed into a pipeline, globs are
 * expanded inside the view, every program is checked against the read-only
 * allow-list, and the pipeline runs in the view with a time limit and an
 * output cap. `allowAnyCommand` is the explicit escape hatch: `bash -c` in a
 * private writable copy, with a warning, for experiments that need it.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync } from 'node:fs';
import { chmod, cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import { parseCommandLine } from './command-line.js';
import { expandGlob } from './glob-expansion.js';
import { availablePrograms, checkProgram, READ_ONLY_PROGRAMS, type PolicyContext } from './program-policy.js';
import { runPipeline, type PipelineResult, type ProcessStage } from './process-runner.js';
import { removeViewFolder, type RepositoryView } from './repository-view.js';

/** Default time limit per command. */
export const DEFAULT_SHELL_TIMEOUT_MS = 10_000;
/** Default characters of output shown per command. */
export const DEFAULT_SHELL_MAX_OUTPUT_CHARS = 10_000;

/** Options of {@link SafeShell.create}. */
export interface SafeShellOptions {
  view: RepositoryView;
  /** Per command; default 10 s. The whole process group is killed when it passes. */
  timeoutMs?: number;
  /** Characters of output shown per command; default 10,000 (the observation says what was cut). */
  maxOutputChars?: number;
  /** Run anything through `bash -c` in a writable temporary copy of the view. Not a sandbox. */
  allowAnyCommand?: boolean;
  /** Where the writable copy goes; default the OS temp dir. */
  tempRoot?: string;
  /** PATH used to find programs; default `process.env.PATH`. */
  path?: string;
  logger?: Logger;
}

/** The outcome of one command. */
export interface ShellRunResult {
  command: string;
  /** The observation for the model: output plus notes (refusal, cut, timeout, exit code). */
  output: string;
  /** Why the command was not run, or null when it ran. */
  refused: string | null;
  exitCode: number | null;
  timedOut: boolean;
  /** True when output beyond the cap was left out. */
  truncated: boolean;
  /** Characters the command produced (before the cap). */
  outputChars: number;
  durationMs: number;
  /** Repository-relative files the command read (cat/head/tail/sed/nl arguments). */
  inspected: string[];
}

const sandboxProbe = new Map<string, boolean>();

/** True when this sed understands GNU's `--sandbox` (then e/w/r are refused by sed itself too). */
function sedHasSandbox(sedPath: string): boolean {
  let known = sandboxProbe.get(sedPath);
  if (known === undefined) {
    const probe = spawnSync(sedPath, ['--sandbox', '-n', 'p'], { input: '', timeout: 5000 });
    known = probe.status === 0;
    sandboxProbe.set(sedPath, known);
  }
  return known;
}

/** Absolute paths of the allow-listed programs found on `pathVariable`. */
function findPrograms(pathVariable: string): Map<string, string> {
  const found = new Map<string, string>();
  const dirs = pathVariable.split(delimiter).filter(Boolean);
  for (const name of READ_ONLY_PROGRAMS) {
    for (const dir of dirs) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        found.set(name, join(dir, name));
        break;
      } catch {
        // not in this folder
      }
    }
  }
  return found;
}

/** A shell bound to one repository view. Safe to use for one run at a time or concurrently. */
export class SafeShell {
  /** Allowed programs present on this machine (what the prompt lists). */
  readonly programs: string[];
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  readonly allowAnyCommand: boolean;

  private constructor(
    private readonly view: RepositoryView,
    private readonly cwd: string,
    private readonly paths: Map<string, string>,
    private readonly policy: PolicyContext,
    private readonly env: NodeJS.ProcessEnv,
    private readonly copy: string | null,
    options: SafeShellOptions,
  ) {
    this.programs = availablePrograms(new Set(paths.keys()));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_SHELL_MAX_OUTPUT_CHARS;
    this.allowAnyCommand = options.allowAnyCommand ?? false;
  }

  /**
   * Binds a shell to `options.view`. With `allowAnyCommand`, copies the view
   * into a writable temporary folder first (without `.git`) and logs a warning.
   */
  static async create(options: SafeShellOptions): Promise<SafeShell> {
    const logger = options.logger ?? silentLogger;
    const pathVariable = options.path ?? process.env.PATH ?? '/usr/bin:/bin';
    const paths = findPrograms(pathVariable);
    const sed = paths.get('sed');
    const policy: PolicyContext = {
      root: options.view.root,
      symlinkFree: options.view.symlinkFree,
      installed: new Set(paths.keys()),
      sedSandbox: sed !== undefined && sedHasSandbox(sed),
    };
    // Children get no inherited secrets (API keys): only what the programs need.
    const env: NodeJS.ProcessEnv = { PATH: pathVariable, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', TERM: 'dumb' };
    let copy: string | null = null;
    if (options.allowAnyCommand) {
      copy = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'reponav-shell-'));
      try {
        await cp(options.view.root, copy, { recursive: true, filter: copyable });
        await makeTreeWritable(copy);
      } catch (error) {
        await removeViewFolder(copy);
        throw error;
      }
      env.HOME = copy;
      logger.warn(
        `allowAnyCommand: the agent's commands run unchecked through bash -c in a temporary copy (${copy}). ` +
          'They are not sandboxed: they can read and write anything this user can.',
      );
    }
    return new SafeShell(options.view, copy ?? options.view.root, paths, policy, env, copy, options);
  }

  /** Where commands start: the view, or the writable copy with `allowAnyCommand`. */
  get workingDirectory(): string {
    return this.cwd;
  }

  /** Runs one command line; never throws for a bad command (it comes back as a refusal or an error exit). */
  async run(command: string, options: { signal?: AbortSignal } = {}): Promise<ShellRunResult> {
    const started = performance.now();
    const runOptions = { cwd: this.cwd, timeoutMs: this.timeoutMs, maxOutputChars: this.maxOutputChars, env: this.env, signal: options.signal };
    if (this.allowAnyCommand) {
      const bash = { file: 'bash', args: ['-c', command], stderr: 'merge' as const };
      return this.describe(command, await runPipeline([bash], runOptions), []);
    }
    const refuse = (reason: string): ShellRunResult => ({
      command,
      output: `Refused: ${reason.replace(/[.\s]+$/, '')}. Nothing was run.`,
      refused: reason,
      exitCode: null,
      timedOut: false,
      truncated: false,
      outputChars: 0,
      durationMs: performance.now() - started,
      inspected: [],
    });
    const parsed = parseCommandLine(command);
    if (!parsed.ok) return refuse(parsed.reason);
    const stages: ProcessStage[] = [];
    const inspected: string[] = [];
    for (const stage of parsed.stages) {
      const argv: string[] = [];
      for (const [index, word] of stage.words.entries()) {
        if (word.glob === null || index === 0) {
          argv.push(word.text);
          continue;
        }
        try {
          argv.push(...(expandGlob(word.glob, this.cwd, this.view.root) ?? [word.text]));
        } catch (error) {
          return refuse((error as Error).message);
        }
      }
      const check = checkProgram(argv, this.policy);
      if (!check.ok) return refuse(check.reason);
      const program = check.checked.program;
      stages.push({ file: this.paths.get(program)!, argv0: program, args: check.checked.args, stderr: stage.stderr });
      inspected.push(...check.checked.inspected);
    }
    return this.describe(command, await runPipeline(stages, runOptions), [...new Set(inspected)]);
  }

  /** Removes the writable copy, if any. The view belongs to its owner. */
  async close(): Promise<void> {
    if (this.copy) await removeViewFolder(this.copy);
  }

  private describe(command: string, result: PipelineResult, inspected: string[]): ShellRunResult {
    let text = result.stdout;
    if (result.stderr) text += `${text && !text.endsWith('\n') ? '\n' : ''}[stderr]\n${result.stderr}`;
    const truncated = result.totalChars > this.maxOutputChars;
    if (text.length > this.maxOutputChars) text = text.slice(0, this.maxOutputChars);
    const notes: string[] = [];
    if (result.spawnError) notes.push(`[could not start: ${result.spawnError}]`);
    if (truncated) {
      notes.push(
        `[output cut: showing the first ${this.maxOutputChars} of ${result.totalChars}${result.stoppedForSize ? '+' : ''} characters; ` +
          "narrow the command, e.g. grep -n PATTERN FILE, head -n 50 FILE or sed -n 'START,ENDp' FILE]",
      );
    }
    if (result.timedOut) notes.push(`[timed out after ${formatSeconds(this.timeoutMs)}: the command was killed]`);
    if (result.aborted) notes.push('[aborted: the command was killed]');
    if (result.exitCode !== null && result.exitCode !== 0) notes.push(`[exit code ${result.exitCode}]`);
    const body = text === '' ? '(no output)' : text.replace(/\n$/, '');
    return {
      command,
      output: [body, ...notes].join('\n'),
      refused: null,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      truncated,
      outputChars: result.totalChars,
      durationMs: result.durationMs,
      inspected,
    };
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Copies folders, files and symlinks, but not `.git` or special files (FIFOs, sockets, devices). */
function copyable(source: string): boolean {
  if (basename(source) === '.git') return false;
  try {
    const stats = lstatSync(source);
    return stats.isDirectory() || stats.isFile() || stats.isSymbolicLink();
  } catch {
    return false;
  }
}

async function makeTreeWritable(folder: string): Promise<void> {
  await chmod(folder, 0o755);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await makeTreeWritable(path);
    else if (entry.isFile()) await chmod(path, 0o644);
  }
}
