/**
 * Builds and runs the `reponav` program from a table of command registrars:
 * program.ts runs it with every command, startup/hot-main.ts (the compiled bundle of
 * the commands an agent calls on every step) with those alone. A run imports
 * only the module of the command it names, and all of the table for `--help`,
 * `help` or an unknown word.
 */
import { Command, CommanderError } from 'commander';
import { isReponavError } from '../errors.js';
import { readPackageVersion } from './package-info.js';
import { colorsForced, PROCESS_IO, type CliIo } from './cli-io.js';

/** Adds one command (loading its module) to the program; the command writes to `io`. */
export type Registrar = (program: Command, io: CliIo) => Promise<void>;

/**
 * Builds the `reponav` program with the commands of `commands` that `argv`
 * needs (all of them when it names none), writing to `io` (commander's help,
 * version and usage errors too).
 */
export async function buildProgramFrom(commands: Record<string, Registrar>, argv: string[], io: CliIo = PROCESS_IO): Promise<Command> {
  const named = argv[2];
  // package.json is read only when the version is asked for (the option and --help stay the same).
  const wantsVersion = argv.includes('--version') || argv.includes('-V');
  const program = new Command('reponav')
    .description('Navigate repositories the way LLM code agents need: index, search, scaffold, tools, MCP')
    .version(wantsVersion ? readPackageVersion() : '')
    // A usage error is one line: commander's message with the help hint on the same line.
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      // commander's own rule (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE first), over the run's outputs.
      getOutHasColors: () => colorsForced() ?? Boolean(io.stdout.isTTY && io.stdout.hasColors?.()),
      getErrHasColors: () => colorsForced() ?? Boolean(io.stderr.isTTY && io.stderr.hasColors?.()),
      outputError: (text, write) => write(`${text.trimEnd()} ${usageHint(text)}\n`),
    })
    // Before any subcommand exists: commander copies these settings into subcommands as they are created.
    .exitOverride();
  const versionOnly = named === '--version' || named === '-V';
  const wanted = versionOnly ? [] : named !== undefined && Object.hasOwn(commands, named) ? [named] : Object.keys(commands);
  for (const name of wanted) await commands[name](program, io);
  return program;
}

/**
 * The hint after a usage error. An "unknown option" with a space in it is a
 * query or a path that starts with a dash (an issue title such as
 * `--max-columns is ignored`), which `--` before it passes as an argument.
 */
function usageHint(text: string): string {
  return /unknown option '-[^']*\s[^']*'/.test(text) ? "(an argument that starts with '-' goes after --, e.g. reponav search -- '--flag is ignored')" : '(run with --help for usage)';
}

/** Runs the program on `argv`, writing to `io`; maps typed errors to one sentence on its stderr and returns the exit code. */
export async function runProgram(commands: Record<string, Registrar>, argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  const program = await buildProgramFrom(commands, argv, io);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (caught) {
    if (caught instanceof CommanderError) return caught.exitCode === 0 ? 0 : 2;
    // SQLite failures met while answering (a damaged page, a full disk) become one sentence with what to do.
    // Loaded only here: the index layer is heavy for a CLI start-up that may never need it.
    const error = isReponavError(caught) ? caught : (await import('../index/index.js')).describeOpenFailure(null, caught);
    if (isReponavError(error)) {
      const message = (error.details?.missing === 'model' ? noModelMessage(argv.slice(2)) : null) ?? error.message;
      io.stderr.write(`error: ${oneLine(message)}\n`);
      return error.code === 'INTERNAL' ? 3 : 1;
    }
    const stack = error instanceof Error && error.stack ? (await import('./crash-stack.js')).sourceMappedStack(error.stack) : undefined;
    io.stderr.write(`error: ${stack ?? (error instanceof Error ? error.message : String(error))}\n`);
    return 3;
  }
}

/**
 * The no-model error as the command that was run (`words`: the arguments
 * after the program) reads it: the one option it takes (`ask`, `localize`
 * and `eval sweqa` take --model and reject --config-json; `eval locbench`
 * takes the model in --config-json), or null for a command this does not
 * know (the library's message, which names both, stands).
 */
export function noModelMessage(words: readonly string[]): string | null {
  const examples = 'e.g. openai:gpt-4o-mini, anthropic:claude-sonnet-4-5 or ollama:qwen2.5-coder';
  const [command, sub] = words;
  const takesModel = command === 'ask' || command === 'localize' || (command === 'eval' && sub === 'sweqa');
  const option = takesModel ? '--model' : command === 'eval' && sub === 'locbench' ? '"model" in --config-json' : null;
  return option && `No LLM model configured: name one with ${option} (${examples}), or set the REPONAV_LLM_MODEL environment variable.`;
}

/**
 * A CLI error is one line: a control character that reached the message (a
 * newline in a file or folder name no message quoted) is C-escaped, never printed.
 */
function oneLine(message: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
  return message.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
