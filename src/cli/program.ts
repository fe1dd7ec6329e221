/**
 * The `reponav` program: its commands (loaded on demand) and the one error path
 * every command shares. The executable entry point is main.ts; tests run
 * {@link main} in-process.
 */
import type { Command } from 'commander';
import { cliLogger } from './cli-context.js';
import { HOT_COMMANDS } from './startup/hot-commands.js';
import { buildProgramFrom, runProgram, type Registrar } from './run-program.js';

/**
 * Every command, loaded on demand: a run imports only the module of the command
 * it names (the MCP SDK, the agents and the web server are heavy), and all of
 * them for `--help`, `help` or an unknown word. The order here is the order of
 * `--help`.
 */
const COMMANDS: Record<string, Registrar> = {
  index: async (p) => (await import('./commands/index-command.js')).registerIndexCommand(p),
  status: async (p) => (await import('./commands/status-command.js')).registerStatusCommand(p),
  ...HOT_COMMANDS,
  references: async (p) => void (await import('./commands/code-search-commands.js')).registerReferencesCommand(p),
  regex: async (p) => void (await import('./commands/code-search-commands.js')).registerRegexCommand(p),
  snippet: async (p) => void (await import('./commands/code-search-commands.js')).registerSnippetCommand(p),
  ls: async (p) => void (await import('./commands/overview-commands.js')).registerLsCommand(p),
  map: async (p) => void (await import('./commands/overview-commands.js')).registerMapCommand(p),
  changes: async (p) => void (await import('./commands/change-commands.js')).registerChangesCommand(p),
  diff: async (p) => void (await import('./commands/change-commands.js')).registerDiffCommand(p),
  history: async (p) => void (await import('./commands/change-commands.js')).registerHistoryCommand(p),
  blame: async (p) => void (await import('./commands/change-commands.js')).registerBlameCommand(p),
  mcp: async (p) => void (await import('./commands/mcp-command.js')).registerMcpCommand(p),
  ask: async (p) => void (await import('./commands/ask-command.js')).registerAskCommand(p),
  localize: async (p) => void (await import('./commands/localize-command.js')).registerLocalizeCommand(p),
  ui: async (p) => void (await import('./commands/ui-command.js')).registerUiCommand(p),
  fleet: async (p) => (await import('./commands/fleet-commands.js')).registerFleetCommand(p),
  worker: async (p) => (await import('./commands/team-commands.js')).registerWorkerCommand(p),
  serve: async (p) => (await import('./commands/team-commands.js')).registerServeCommand(p),
  eval: async (p) => {
    const [{ registerEvalCommands }, { createRetrievalLocalizer, createRerankLocalizer }, { createAgentLocalizer }, { registerSweqaCommand }] = await Promise.all([
      import('./commands/eval-command.js'),
      import('../eval/index.js'),
      import('../agents/localize/index.js'),
      import('./commands/sweqa-command.js'),
    ]);
    const logger = cliLogger({});
    // The harness gets its localizers injected: eval never imports an agent.
    const evalCommand = registerEvalCommands(p, {
      createLocalizer: (config) => createRetrievalLocalizer(config, logger),
      createAgentLocalizer: (config) => createAgentLocalizer(config, { logger }),
      createRerankLocalizer: (config) => createRerankLocalizer(config, { logger }),
      logger,
    });
    registerSweqaCommand(evalCommand);
  },
};

/** Builds the `reponav` program with the commands `argv` needs (all of them when it names none). */
export function buildProgram(argv: string[] = process.argv): Promise<Command> {
  return buildProgramFrom(COMMANDS, argv);
}

/** Runs the CLI; maps typed errors to one sentence on stderr and an exit code. */
export function main(argv: string[]): Promise<number> {
  return runProgram(COMMANDS, argv);
}
