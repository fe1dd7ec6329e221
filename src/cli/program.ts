/**
 * The `reponav` program: its commands (loaded on demand) and the one error path
 * every command shares. The executable entry point is main.ts; tests run
 * {@link main} in-process.
 */
import type { Command } from 'commander';
import { cliLogger } from './cli-context.js';
import { HOT_COMMANDS } from './startup/hot-commands.js';
import { buildProgramFrom, runProgram, type Registrar } from './run-program.js';
import { PROCESS_IO, type CliIo } from './cli-io.js';

/**
 * Every command, loaded on demand: a run imports only the module of the command
 * it names (the MCP SDK, the agents and the web server are heavy), and all of
 * them for `--help`, `help` or an unknown word. The order here is the order of
 * `--help`.
 */
const COMMANDS: Record<string, Registrar> = {
  index: async (p, io) => (await import('./commands/index-command.js')).registerIndexCommand(p, io),
  status: async (p, io) => (await import('./commands/status-command.js')).registerStatusCommand(p, io),
  ...HOT_COMMANDS,
  references: async (p, io) => void (await import('./commands/code-search-commands.js')).registerReferencesCommand(p, io),
  regex: async (p, io) => void (await import('./commands/code-search-commands.js')).registerRegexCommand(p, io),
  snippet: async (p, io) => void (await import('./commands/code-search-commands.js')).registerSnippetCommand(p, io),
  ls: async (p, io) => void (await import('./commands/overview-commands.js')).registerLsCommand(p, io),
  map: async (p, io) => void (await import('./commands/overview-commands.js')).registerMapCommand(p, io),
  changes: async (p, io) => void (await import('./commands/change-commands.js')).registerChangesCommand(p, io),
  diff: async (p, io) => void (await import('./commands/change-commands.js')).registerDiffCommand(p, io),
  history: async (p, io) => void (await import('./commands/change-commands.js')).registerHistoryCommand(p, io),
  blame: async (p, io) => void (await import('./commands/change-commands.js')).registerBlameCommand(p, io),
  mcp: async (p, io) => void (await import('./commands/mcp-command.js')).registerMcpCommand(p, io),
  ask: async (p, io) => void (await import('./commands/ask-command.js')).registerAskCommand(p, io),
  localize: async (p, io) => void (await import('./commands/localize-command.js')).registerLocalizeCommand(p, {}, io),
  ui: async (p, io) => void (await import('./commands/ui-command.js')).registerUiCommand(p, io),
  fleet: async (p, io) => (await import('./commands/fleet-commands.js')).registerFleetCommand(p, io),
  worker: async (p, io) => (await import('./commands/team-commands.js')).registerWorkerCommand(p, io),
  serve: async (p, io) => (await import('./commands/team-commands.js')).registerServeCommand(p, io),
  eval: async (p, io) => {
    const [{ registerEvalCommands }, { createRetrievalLocalizer, createRerankLocalizer }, { createAgentLocalizer }, { registerSweqaCommand }] = await Promise.all([
      import('./commands/eval-command.js'),
      import('../eval/index.js'),
      import('../agents/localize/index.js'),
      import('./commands/sweqa-command.js'),
    ]);
    const logger = cliLogger({}, io);
    // The harness gets its localizers injected: eval never imports an agent.
    const evalCommand = registerEvalCommands(p, {
      createLocalizer: (config) => createRetrievalLocalizer(config, logger),
      createAgentLocalizer: (config) => createAgentLocalizer(config, { logger }),
      createRerankLocalizer: (config) => createRerankLocalizer(config, { logger }),
      logger,
      stdout: io.stdout,
      stderr: io.stderr,
    });
    registerSweqaCommand(evalCommand, { stdout: io.stdout, stderr: io.stderr });
  },
};

/** Builds the `reponav` program with the commands `argv` needs (all of them when it names none), writing to `io`. */
export function buildProgram(argv: string[] = process.argv, io: CliIo = PROCESS_IO): Promise<Command> {
  return buildProgramFrom(COMMANDS, argv, io);
}

/**
 * Runs the CLI on `argv`, writing to `io` (default: the process's stdout and
 * stderr); maps typed errors to one sentence on its stderr and an exit code.
 */
export function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  return runProgram(COMMANDS, argv, io);
}
