#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { isReponavError } from '../errors.js';
import { createRetrievalLocalizer } from '../eval/retrieval-localizer.js';
import { registerEvalCommands } from '../eval/eval-command.js';
import { cliLogger } from './cli-context.js';
import { registerIndexCommand } from './commands/index-command.js';
import { registerSearchCommand } from './commands/search-command.js';
import { registerStatusCommand } from './commands/status-command.js';
import { registerAskCommand } from './commands/ask-command.js';
import { registerFindCommand } from './commands/find-command.js';
import { registerLocalizeCommand } from './commands/localize-command.js';
import { registerAgentLocalizer } from '../agents/localize/index.js';
import { registerSweqaCommand } from './commands/sweqa-command.js';
import { registerUiCommand } from './commands/ui-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerSymbolsCommand } from './commands/symbols-command.js';
import { registerViewCommand } from './commands/view-command.js';
import { readPackageVersion } from './package-info.js';

/** Builds the `reponav` program (exported for in-process CLI tests). */
export async function buildProgram(): Promise<Command> {
  const program = new Command('reponav')
    .description('Navigate repositories the way LLM code agents need: index, search, scaffold, tools, MCP')
    .version(readPackageVersion())
    .showHelpAfterError('(run with --help for usage)')
    // Before any subcommand exists: commander copies this setting into subcommands as they are created.
    .exitOverride();
  registerIndexCommand(program);
  registerStatusCommand(program);
  registerSearchCommand(program);
  registerSymbolsCommand(program);
  registerFindCommand(program);
  registerViewCommand(program);
  registerMcpCommand(program);
  registerAskCommand(program);
  registerLocalizeCommand(program);
  registerUiCommand(program);
  const logger = cliLogger({});
  registerAgentLocalizer({ logger });
  const evalCommand = registerEvalCommands(program, { createLocalizer: (config) => createRetrievalLocalizer(config, logger), logger });
  registerSweqaCommand(evalCommand);
  return program;
}

/** Runs the CLI; maps typed errors to one sentence on stderr and an exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (isReponavError(error)) {
      process.stderr.write(`error: ${error.message}\n`);
      return error.code === 'INTERNAL' ? 3 : 1;
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 3;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
