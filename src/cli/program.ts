/**
 * The `reponav` program: its commands (loaded on demand) and the one error path
 * every command shares. The executable entry point is main.ts; tests run
 * {@link main} in-process.
 */
import { Command, CommanderError } from 'commander';
import { isReponavError } from '../errors.js';
import { cliLogger } from './cli-context.js';
import { readPackageVersion } from './package-info.js';

type Registrar = (program: Command) => Promise<void>;

/**
 * Every command, loaded on demand: a run imports only the module of the command
 * it names (the MCP SDK, the agents and the web server are heavy), and all of
 * them for `--help`, `help` or an unknown word. The order here is the order of
 * `--help`.
 */
const COMMANDS: Record<string, Registrar> = {
  index: async (p) => (await import('./commands/index-command.js')).registerIndexCommand(p),
  status: async (p) => (await import('./commands/status-command.js')).registerStatusCommand(p),
  search: async (p) => (await import('./commands/search-command.js')).registerSearchCommand(p),
  symbols: async (p) => void (await import('./commands/symbols-command.js')).registerSymbolsCommand(p),
  find: async (p) => void (await import('./commands/find-command.js')).registerFindCommand(p),
  view: async (p) => void (await import('./commands/view-command.js')).registerViewCommand(p),
  mcp: async (p) => void (await import('./commands/mcp-command.js')).registerMcpCommand(p),
  ask: async (p) => void (await import('./commands/ask-command.js')).registerAskCommand(p),
  localize: async (p) => void (await import('./commands/localize-command.js')).registerLocalizeCommand(p),
  ui: async (p) => void (await import('./commands/ui-command.js')).registerUiCommand(p),
  fleet: async (p) => (await import('./commands/team-commands.js')).registerFleetCommand(p),
  worker: async (p) => (await import('./commands/team-commands.js')).registerWorkerCommand(p),
  serve: async (p) => (await import('./commands/team-commands.js')).registerServeCommand(p),
  eval: async (p) => {
    const [{ registerEvalCommands }, { createRetrievalLocalizer }, { createAgentLocalizer }, { registerSweqaCommand }] = await Promise.all([
      import('../eval/index.js'),
      import('../eval/index.js'),
      import('../agents/localize/index.js'),
      import('./commands/sweqa-command.js'),
    ]);
    const logger = cliLogger({});
    // The harness gets both localizers injected: eval never imports an implementation.
    const evalCommand = registerEvalCommands(p, {
      createLocalizer: (config) => createRetrievalLocalizer(config, logger),
      createAgentLocalizer: (config) => createAgentLocalizer(config, { logger }),
      logger,
    });
    registerSweqaCommand(evalCommand);
  },
};

/** Builds the `reponav` program with the commands `argv` needs (all of them when it names none). */
export async function buildProgram(argv: string[] = process.argv): Promise<Command> {
  const named = argv[2];
  // package.json is read only when the version is asked for (the option and --help stay the same).
  const wantsVersion = argv.includes('--version') || argv.includes('-V');
  const program = new Command('reponav')
    .description('Navigate repositories the way LLM code agents need: index, search, scaffold, tools, MCP')
    .version(wantsVersion ? readPackageVersion() : '')
    // A usage error is one line: commander's message with the help hint on the same line.
    .configureOutput({ outputError: (text, write) => write(`${text.trimEnd()} ${usageHint(text)}\n`) })
    // Before any subcommand exists: commander copies these settings into subcommands as they are created.
    .exitOverride();
  const versionOnly = named === '--version' || named === '-V';
  const wanted = versionOnly ? [] : named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  for (const name of wanted) await COMMANDS[name](program);
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

/** Runs the CLI; maps typed errors to one sentence on stderr and an exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (caught) {
    if (caught instanceof CommanderError) return caught.exitCode === 0 ? 0 : 2;
    // SQLite failures met while answering (a damaged page, a full disk) become one sentence with what to do.
    // Loaded only here: the index layer is heavy for a CLI start-up that may never need it.
    const error = isReponavError(caught) ? caught : (await import('../index/index.js')).describeOpenFailure(null, caught);
    if (isReponavError(error)) {
      process.stderr.write(`error: ${oneLine(error.message)}\n`);
      return error.code === 'INTERNAL' ? 3 : 1;
    }
    const stack = error instanceof Error && error.stack ? (await import('./crash-stack.js')).sourceMappedStack(error.stack) : undefined;
    process.stderr.write(`error: ${stack ?? (error instanceof Error ? error.message : String(error))}\n`);
    return 3;
  }
}

/**
 * A CLI error is one line: a control character that reached the message (a
 * newline in a file or folder name no message quoted) is C-escaped, never printed.
 */
function oneLine(message: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
  return message.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
