/**
 * `reponav ls [PATH]` (the list_files tool) and `reponav map` (repo_map): the
 * tree as the index sees it, and the repository at a glance. Both go through
 * callTool, so they print what an MCP client receives.
 */
import { Option, type Command } from 'commander';
import { listFilesTool, repoMapTool } from '../../tools/index.js';
import { collect, nonNegativeInt, positiveInt } from '../option-parsers.js';
import { addToolCommandOptions, runToolCommand, type ToolCommandOptions } from './symbols-command.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface LsOptions extends ToolCommandOptions {
  depth?: number;
  pattern?: string;
  offset?: number;
  limit?: number;
}

/** Registers `reponav ls [PATH] [--depth N] [--pattern GLOB] [--offset N] [--limit N] [--json]`. */
export function registerLsCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('ls')
    .description('list a folder as the index sees it: files with language, size, symbol count, and why a file is not indexed')
    .argument('[path]', 'folder (or file), relative to the repository root', '')
    .option('--depth <n>', 'levels below the folder to show (default 1)', positiveInt)
    .option('--pattern <glob>', 'only files matching this glob (the file_pattern dialect: *.py, src/**/*.ts)')
    .option('--offset <n>', 'skip this many entries (paging)', nonNegativeInt)
    .option('--limit <n>', 'entries per page (default 200)', positiveInt);
  addToolCommandOptions(command).action(async (path: string, options: LsOptions) => {
    await runToolCommand(options, io, listFilesTool, () => {
      const args: Record<string, unknown> = {};
      if (path !== '') args.path = path;
      if (options.depth !== undefined) args.depth = options.depth;
      if (options.pattern !== undefined) args.file_pattern = options.pattern;
      if (options.offset !== undefined) args.offset = options.offset;
      if (options.limit !== undefined) args.limit = options.limit;
      return args;
    });
  });
  return command;
}

interface MapOptions extends ToolCommandOptions {
  focus: string[];
  pattern?: string;
}

/** Registers `reponav map [--focus FILE|SYMBOL]... [--pattern GLOB] [--budget-tokens N] [--json]`. */
export function registerMapCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('map')
    .description('the repository at a glance: files ranked by import/call centrality with their key signatures, no query needed')
    .addOption(new Option('--focus <file-or-symbol>', 'centre the map on this file or symbol (repeatable)').argParser(collect).default([], 'none'))
    .option('--pattern <glob>', 'only files matching this glob');
  addToolCommandOptions(command).action(async (options: MapOptions) => {
    await runToolCommand(options, io, repoMapTool, () => {
      const args: Record<string, unknown> = {};
      if (options.focus.length > 0) args.focus = options.focus;
      if (options.pattern !== undefined) args.file_pattern = options.pattern;
      return args;
    });
  });
  return command;
}
