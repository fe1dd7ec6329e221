/**
 * `reponav references NAME`, `reponav regex PATTERN` and `reponav snippet TEXT`:
 * the find_references, regex_search and find_code_snippet tools on the command
 * line, through runToolCommand like find and view, so the CLI prints exactly
 * what an MCP client receives. A search that finds nothing exits 1, like grep.
 */
import type { Command } from 'commander';
import { findCodeSnippetTool, findReferencesTool, regexSearchTool } from '../../tools/index.js';
import { wholeNumber } from '../option-parsers.js';
import { addToolCommandOptions, runToolCommand, type ToolCommandOptions } from './symbols-command.js';

interface SearchCommandOptions extends ToolCommandOptions {
  filePattern?: string;
  max?: number;
  ignoreCase?: boolean;
  context?: number;
  limit?: number;
}

const FILE_PATTERN = ['--file-pattern <glob>', 'only files matching this glob (e.g. "*.py", "src/**/*.ts", "tests/")'] as const;

/** The file_pattern argument when the option was given. */
function filePattern(options: SearchCommandOptions): Record<string, string> {
  return options.filePattern !== undefined ? { file_pattern: options.filePattern } : {};
}

/** Registers `reponav references NAME` (find_references). */
export function registerReferencesCommand(program: Command): Command {
  const command = program
    .command('references')
    .description("where a function, method or class is called, across files (calls only; each marked 'same file', 'import' or 'name only'); exit 1 when nothing calls it")
    .argument('<name>', 'symbol name: total, Order.total, or shop/models.py:Order.total')
    .option(...FILE_PATTERN)
    .option('--max <n>', 'call sites shown (default 50, at most 500)', wholeNumber(1, 500));
  addToolCommandOptions(command).action(async (name: string, options: SearchCommandOptions) => {
    await runToolCommand(options, findReferencesTool, () => ({ name, ...filePattern(options), ...(options.max !== undefined ? { max_results: options.max } : {}) }), undefined, undefined, (data) => {
      const d = data as { references: unknown[]; notShown: number };
      return d.references.length + d.notShown > 0;
    });
  });
  return command;
}

/** Registers `reponav regex PATTERN` (regex_search). */
export function registerRegexCommand(program: Command): Command {
  const command = program
    .command('regex')
    .description('lines of the indexed files matching an RE2 regular expression (linear time, 3 s deadline); exit 1 when none match')
    .argument('<pattern>', 'RE2 regular expression, e.g. "def \\w+_total\\(" or "TODO|FIXME"')
    .option('-i, --ignore-case', 'match case-insensitively')
    .option(...FILE_PATTERN)
    .option('--max <n>', 'matching lines shown (default 50, at most 500)', wholeNumber(1, 500));
  addToolCommandOptions(command).action(async (pattern: string, options: SearchCommandOptions) => {
    await runToolCommand(
      options,
      regexSearchTool,
      () => ({ pattern, ...filePattern(options), ...(options.ignoreCase ? { ignore_case: true } : {}), ...(options.max !== undefined ? { max_matches: options.max } : {}) }),
      undefined,
      undefined,
      (data) => (data as { totalMatches: number }).totalMatches > 0,
    );
  });
  return command;
}

/** Registers `reponav snippet TEXT` (find_code_snippet). */
export function registerSnippetCommand(program: Command): Command {
  const command = program
    .command('snippet')
    .description('where an exact piece of code occurs (a literal, case-sensitive substring that may span lines); exit 1 when nowhere')
    .argument('<text>', 'the exact code text, e.g. "def total(self)"')
    .option(...FILE_PATTERN)
    .option('--context <n>', 'lines of context above and below each match (0-2, default 1)', wholeNumber(0, 2))
    .option('--limit <n>', 'most matches shown (default 30, at most 200); the total is always reported', wholeNumber(1, 200));
  addToolCommandOptions(command).action(async (text: string, options: SearchCommandOptions) => {
    await runToolCommand(
      options,
      findCodeSnippetTool,
      () => ({
        text,
        ...filePattern(options),
        ...(options.context !== undefined ? { context_lines: options.context } : {}),
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
      }),
      undefined,
      undefined,
      (data) => (data as { totalMatches: number }).totalMatches > 0,
    );
  });
  return command;
}
