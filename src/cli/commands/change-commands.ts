/**
 * The git change commands, each one tool through callTool: `reponav changes`
 * (changed_files), `reponav diff FILE` (diff), `reponav history FILE`
 * (file_history) and `reponav blame FILE:START-END` (blame_lines).
 */
import type { Command } from 'commander';
import { blameLinesTool, changedFilesTool, diffTool, fileHistoryTool, parseFileSpan } from '../../tools/index.js';
import { positiveInt } from '../option-parsers.js';
import { addToolCommandOptions, fileArgument, runToolCommand, type ToolCommandOptions } from './symbols-command.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface RevisionOptions extends ToolCommandOptions {
  from?: string;
  to?: string;
  pattern?: string;
}

function revisions(options: RevisionOptions, args: Record<string, unknown>): Record<string, unknown> {
  if (options.from !== undefined) args.from = options.from;
  if (options.to !== undefined) args.to = options.to;
  return args;
}

/** Registers `reponav changes [--from REV] [--to REV] [--pattern GLOB] [--json]`. */
export function registerChangesCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('changes')
    .description('files changed (working tree against HEAD, or between --from and --to) with the functions and classes added, removed or modified')
    .option('--from <rev>', 'older revision (default: HEAD; with --commit, its parent)')
    .option('--to <rev>', 'newer revision (default: the working tree, or the --commit)')
    .option('--pattern <glob>', 'only files matching this glob');
  addToolCommandOptions(command).action(async (options: RevisionOptions) => {
    await runToolCommand(options, io, changedFilesTool, () => revisions(options, options.pattern !== undefined ? { file_pattern: options.pattern } : {}));
  });
  return command;
}

/** Registers `reponav diff FILE [--from REV] [--to REV] [--context N] [--json]`. */
export function registerDiffCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('diff')
    .description("one file's unified diff (working tree against HEAD, or between --from and --to) with the changed symbols named")
    .argument('<file>', 'file path')
    .option('--from <rev>', 'older revision (default: HEAD; with --commit, its parent)')
    .option('--to <rev>', 'newer revision (default: the working tree, or the --commit)')
    .option('--context <n>', 'unchanged lines around each change (default 3)', positiveInt);
  addToolCommandOptions(command).action(async (file: string, options: RevisionOptions & { context?: number }) => {
    await runToolCommand(options, io, diffTool, (repository) => {
      const args = revisions(options, { file: fileArgument(repository, file) });
      if (options.context !== undefined) args.context_lines = options.context;
      return args;
    });
  });
  return command;
}

/** Registers `reponav history FILE [--symbol NAME] [--lines START-END] [--revision REV] [--limit N] [--json]`. */
export function registerHistoryCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('history')
    .description('commits that touched a file, or only a symbol or line span (git log -L), newest first')
    .argument('<file>', 'file path, optionally FILE:START-END')
    .option('--symbol <name>', 'only commits that changed this symbol (Cart.checkout)')
    .option('--revision <rev>', 'walk history from this revision (default HEAD)')
    .option('--limit <n>', 'most commits listed (default 30)', positiveInt);
  addToolCommandOptions(command).action(async (file: string, options: ToolCommandOptions & { symbol?: string; revision?: string; limit?: number }) => {
    await runToolCommand(options, io, fileHistoryTool, (repository) => {
      const span = parseFileSpan(file);
      const args: Record<string, unknown> = { file: fileArgument(repository, span.path) };
      if (span.start !== undefined) Object.assign(args, { start: span.start, end: span.end });
      if (options.symbol !== undefined) args.symbol = options.symbol;
      if (options.revision !== undefined) args.revision = options.revision;
      if (options.limit !== undefined) args.limit = options.limit;
      return args;
    });
  });
  return command;
}

/** Registers `reponav blame FILE:START[-END] [--revision REV] [--json]`. */
export function registerBlameCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('blame')
    .description('who last changed each line of a range, when and in which commit')
    .argument('<file>', 'FILE:START-END or FILE:LINE')
    .option('--revision <rev>', 'blame the file at this revision (default: the working tree file)');
  addToolCommandOptions(command).action(async (file: string, options: ToolCommandOptions & { revision?: string }) => {
    const span = parseFileSpan(file);
    if (span.start === undefined) command.error('error: give the lines as FILE:START-END or FILE:LINE', { exitCode: 2, code: 'reponav.usage' });
    await runToolCommand(options, io, blameLinesTool, (repository) => {
      const args: Record<string, unknown> = { file: fileArgument(repository, span.path), start: span.start, end: span.end };
      if (options.revision !== undefined) args.revision = options.revision;
      return args;
    });
  });
  return command;
}
