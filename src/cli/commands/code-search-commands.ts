/**
 * `reponav references NAME`, `reponav regex PATTERN` and `reponav snippet TEXT`:
 * the find_references, regex_search and find_code_snippet tools on the command
 * line, through runToolCommand like find and view, so the CLI prints exactly
 * what an MCP client receives. A search that finds nothing exits 1, like grep.
 */
import type { Command } from 'commander';
import { findCodeSnippetTool, findReferencesTool, regexSearchTool, type AnyToolDefinition } from '../../tools/index.js';
import { wholeNumber } from '../option-parsers.js';
import { addToolCommandOptions, runToolCommand, type NothingFound, type ToolCommandOptions } from './symbols-command.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface SearchCommandOptions extends ToolCommandOptions {
  filePattern?: string;
  max?: number;
  ignoreCase?: boolean;
  context?: number;
  limit?: number;
}

/** One command: its words, its tool, how its options become the tool's arguments, and whether an answer found anything. */
interface CommandSpec {
  name: string;
  description: string;
  argument: [string, string];
  tool: AnyToolDefinition;
  /** Options beyond --file-pattern and the shared ones: flags, description, parser. */
  options: Array<[string, string, ((value: string) => number)?]>;
  args(value: string, options: SearchCommandOptions): Record<string, unknown>;
  found(data: unknown): boolean;
  /** How an answer that found nothing is printed (see runToolCommand). */
  nothingFound: NothingFound;
}

/** `{ key: value }` when `value` was given, else nothing. */
function given(key: string, value: unknown): Record<string, unknown> {
  return value === undefined || value === false ? {} : { [key]: value };
}

const SPECS: Record<'references' | 'regex' | 'snippet', CommandSpec> = {
  references: {
    name: 'references',
    description: "where a function, method or class is called, across files (calls only; each marked 'same file', 'import' or 'name only'); exit 1 when nothing calls it",
    argument: ['<name>', 'symbol name: total, Order.total, or shop/models.py:Order.total'],
    tool: findReferencesTool,
    options: [['--max <n>', 'call sites shown (default 50, at most 500)', wholeNumber(1, 500)]],
    args: (name, o) => ({ name, ...given('max_results', o.max) }),
    found: (data) => {
      const { references, notShown } = data as { references: unknown[]; notShown: number };
      return references.length + notShown > 0;
    },
    // What it found instead (calls of the same name on other receivers) is worth reading: on stdout.
    nothingFound: 'summary and list',
  },
  regex: {
    name: 'regex',
    description: 'lines of the indexed files matching an RE2 regular expression (linear time, 3 s deadline); exit 1 when none match',
    argument: ['<pattern>', 'RE2 regular expression, e.g. "def \\w+_total\\(" or "TODO|FIXME"'],
    tool: regexSearchTool,
    options: [
      ['-i, --ignore-case', 'match case-insensitively'],
      ['--max <n>', 'matching lines shown (default 50, at most 500)', wholeNumber(1, 500)],
    ],
    args: (pattern, o) => ({ pattern, ...given('ignore_case', o.ignoreCase), ...given('max_matches', o.max) }),
    found: (data) => (data as { totalMatches: number }).totalMatches > 0,
    nothingFound: 'one line',
  },
  snippet: {
    name: 'snippet',
    description: 'where an exact piece of code occurs (a literal, case-sensitive substring that may span lines); exit 1 when nowhere',
    argument: ['<text>', 'the exact code text, e.g. "def total(self)"'],
    tool: findCodeSnippetTool,
    options: [
      ['--context <n>', 'lines of context above and below each match (0-2, default 1)', wholeNumber(0, 2)],
      ['--limit <n>', 'most matches shown (default 30, at most 200); the total is always reported', wholeNumber(1, 200)],
    ],
    args: (text, o) => ({ text, ...given('context_lines', o.context), ...given('limit', o.limit) }),
    found: (data) => (data as { totalMatches: number }).totalMatches > 0,
    nothingFound: 'one line',
  },
};

function register(program: Command, spec: CommandSpec, io: CliIo): Command {
  const command = program.command(spec.name).description(spec.description).argument(...spec.argument);
  command.option('--file-pattern <glob>', 'only files matching this glob (e.g. "*.py", "src/**/*.ts", "tests/")');
  for (const [flags, description, parse] of spec.options) {
    if (parse) command.option(flags, description, parse);
    else command.option(flags, description);
  }
  addToolCommandOptions(command).action(async (value: string, options: SearchCommandOptions) => {
    await runToolCommand(options, io, spec.tool, () => ({ ...spec.args(value, options), ...given('file_pattern', options.filePattern) }), undefined, undefined, spec.found, spec.nothingFound);
  });
  return command;
}

/** Registers `reponav references NAME` (find_references). */
export function registerReferencesCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  return register(program, SPECS.references, io);
}

/** Registers `reponav regex PATTERN` (regex_search). */
export function registerRegexCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  return register(program, SPECS.regex, io);
}

/** Registers `reponav snippet TEXT` (find_code_snippet). */
export function registerSnippetCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  return register(program, SPECS.snippet, io);
}
