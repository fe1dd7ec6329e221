/**
 * Where a CLI run writes: standard output (answers) and standard error
 * (progress, warnings, the error sentence). `main` takes one, every command
 * writes through it, so a test or a program embedding the CLI runs it in its
 * own process with its own streams instead of the process's.
 */

/** One output of a run: anything with `write`. */
export interface CliOutput {
  write(text: string): unknown;
  /** A terminal: progress bars redraw in place there and stay silent elsewhere. */
  readonly isTTY?: boolean;
  /** A terminal's width (help text wraps to it). */
  readonly columns?: number;
  /** Whether a terminal shows colours (help text uses them). */
  hasColors?(): boolean;
}

/** The two outputs of a run. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
}

/** The process's own streams: what the `reponav` executable writes to. */
export const PROCESS_IO: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
};

/**
 * Whether the environment forces colours on (true) or off (false), else
 * undefined: NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE read as commander reads
 * them (its own check reads only the process's streams, and it does not export
 * the rule).
 */
export function colorsForced(env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}
