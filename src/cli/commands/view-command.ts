/**
 * `reponav view FILE[:START-END]`: numbered source lines of a file, a span or
 * a symbol (the view_code tool).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { parseFileSpan, viewCodeTool } from '../../tools/index.js';
import { positiveInt } from '../option-parsers.js';
import { addToolCommandOptions, fileArgument, runToolCommand, type ToolCommandOptions } from './symbols-command.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface ViewCommandOptions extends ToolCommandOptions {
  symbol?: string;
  start?: number;
  end?: number;
  lines?: { start: number; end: number };
}

/** `--lines START-END` (or `--lines LINE`): a span given apart from the path, for a path that itself holds a newline or a colon. */
function lineSpan(value: string): { start: number; end: number } {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const start = match ? Number(match[1]) : 0;
  const end = match?.[2] !== undefined ? Number(match[2]) : start;
  if (!match || start < 1 || end < start) throw new InvalidArgumentError('give START-END (1-based, START <= END) or one line number, e.g. --lines 10-30');
  return { start, end };
}

/** Registers `reponav view [FILE[:START-END]] [--symbol NAME] [--lines START-END] [--start N] [--end N] [--repo PATH] [--json]`. */
export function registerViewCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('view')
    .description('print numbered source lines of a file, a line span (FILE:START-END or FILE --lines START-END) or a symbol (--symbol)')
    .argument('[file]', 'file path, optionally with :START-END or :LINE (optional with --symbol)')
    .option('--symbol <name>', 'show this symbol (Cart.checkout, checkout, Cart); with FILE, only in that file')
    .option('--start <n>', 'first line (1-based)', positiveInt)
    .option('--end <n>', 'last line (inclusive)', positiveInt)
    .option('--lines <start-end>', 'line span START-END or one LINE; the path is then taken as written (for a path with a newline or a colon)', lineSpan);
  addToolCommandOptions(command).action(async (file: string | undefined, options: ViewCommandOptions) => {
    if (options.lines !== undefined) {
      if (options.start !== undefined || options.end !== undefined) command.error('error: give --lines or --start/--end, not both', { exitCode: 2, code: 'reponav.usage' });
      options.start = options.lines.start;
      options.end = options.lines.end;
    }
    if (file === undefined && options.symbol === undefined) {
      command.error('error: give FILE[:START-END] or --symbol NAME', { exitCode: 2, code: 'reponav.usage' });
    }
    await runToolCommand(options, io, viewCodeTool, (repository) => {
      const args: Record<string, unknown> = {};
      if (file !== undefined) {
        const span = options.start === undefined && options.end === undefined ? parseFileSpan(file) : { path: file };
        const path = fileArgument(repository, span.path);
        args.file = path;
        if (span.start !== undefined && span.path !== file) {
          args.start = span.start;
          args.end = span.end;
        }
      }
      if (options.symbol !== undefined) args.symbol = options.symbol;
      if (options.start !== undefined) args.start = options.start;
      if (options.end !== undefined) args.end = options.end;
      return args;
    });
  });
  return command;
}
