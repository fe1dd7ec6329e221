/**
 * `reponav symbols FILE`: a file's skeleton (the list_symbols tool). Also home
 * of runToolCommand, which the find and view commands share: every such
 * command goes through callTool, so the CLI prints exactly what an MCP client
 * would receive.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ReponavError, type ReponavErrorCode } from '../../errors.js';
import type { RepositoryIndex } from '../../index/index.js';
import type { Logger } from '../../logger.js';
import { listSymbolsTool, runToolOnce, singleToolRegistry, type AnyToolDefinition, type RunToolOnceOptions } from '../../tools/index.js';
import { tokenBudget } from '../option-parsers.js';
import { cliLogger, openFreshRepository, printJson, type RepositoryCommandOptions } from '../cli-context.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

/** Options every tool-backed command accepts. */
export interface ToolCommandOptions extends RepositoryCommandOptions {
  budgetTokens?: number;
}

/**
 * A FILE argument as the user typed it, for the repository: a path that exists
 * relative to the current directory is passed absolute (the tools accept
 * absolute paths inside the root and refuse others); anything else is taken
 * as repository-relative.
 */
export function fileArgument(repository: RepositoryIndex, file: string): string {
  if (isAbsolute(file)) return file;
  const fromCwd = resolve(file);
  if (existsSync(fromCwd) && !existsSync(join(repository.root, file))) return fromCwd;
  return file;
}

/** Adds the options every tool-backed command shares. */
export function addToolCommandOptions(command: Command): Command {
  // Usage errors throw a CommanderError (exit 2 in the entry point) instead of exiting here with 1.
  return command
    .exitOverride()
    .option('--repo <path>', 'repository folder', '.')
    .option('--commit <rev>', 'read the repository at this commit instead of the working tree')
    .option('--index-path <file>', 'SQLite index location (default: the user cache)')
    .option('--budget-tokens <n>', 'output budget in o200k tokens (estimated from above)', tokenBudget())
    .option('--json', 'print the machine-readable answer as JSON')
    .option('-q, --quiet', 'only print errors on stderr (no progress bar)');
}

/** Tool error codes that are not ReponavError codes are bad input (unknown tool, invalid arguments). */
const TOOL_ERROR_CODES = new Set<string>([
  'BAD_INPUT',
  'PATH_OUTSIDE_ROOT',
  'FILE_NOT_FOUND',
  'UNKNOWN_REVISION',
  'EMPTY_REPOSITORY',
  'INDEX_CORRUPT',
  'INDEX_UNAVAILABLE',
  'INDEX_BUSY',
  'INDEX_MISSING',
  'INTERNAL',
]);

/**
 * Opens and refreshes the repository, calls `tool` with the arguments
 * `buildArgs` makes for it, and prints the answer on `io` (text, or `data` as JSON
 * with --json). A tool error is thrown as a ReponavError carrying the tool's
 * message, which the CLI entry point prints as `error: <message>` (exit 1).
 * `setup` may give the call its own registry or retrieval context (the search
 * command's interfaces and dense fusion); `opened`, a repository the caller
 * opened and did not refresh, is used instead of opening it again (and not
 * refreshed when `opened.refresh` is false). `found`, for a lookup, says
 * whether its answer found anything: when not, the answer's text becomes the
 * error (exit 1), after the JSON with --json. The repository is always closed.
 */
export async function runToolCommand(
  options: ToolCommandOptions,
  io: CliIo,
  tool: AnyToolDefinition,
  buildArgs: (repository: RepositoryIndex) => Record<string, unknown>,
  setup?: (repository: RepositoryIndex, logger: Logger) => Promise<Pick<RunToolOnceOptions, 'registry' | 'context' | 'budgets'>>,
  opened?: { repository: RepositoryIndex; refresh: boolean },
  found?: (data: unknown) => boolean,
  nothingFound: NothingFound = 'one line',
): Promise<void> {
  // Not refreshed: another process builds the first index and the tool answers provisionally.
  const { repository, report, logger } =
    opened && !opened.refresh
      ? { repository: opened.repository, report: undefined, logger: cliLogger(options, io) }
      : await openFreshRepository(options, io, undefined, opened?.repository);
  try {
    const args = buildArgs(repository);
    if (options.budgetTokens !== undefined) args.budget_tokens = options.budgetTokens;
    const extra = setup ? await setup(repository, logger) : {};
    // The tool's freshness gate takes this process's refresh instead of checking the tree again.
    const result = await runToolOnce(repository, tool.name, args, { logger, ...extra, registry: extra.registry ?? singleToolRegistry(tool), refreshed: report });
    if (result.isError) {
      const code = TOOL_ERROR_CODES.has(result.errorCode ?? '') ? (result.errorCode as ReponavErrorCode) : 'BAD_INPUT';
      throw new ReponavError(code, result.text);
    }
    // A lookup that finds nothing fails like grep (exit 1, one sentence on stderr); --json still prints the
    // answer. With 'summary and list' the sentence is the answer's summary and the answer goes to stdout
    // when it lists more (the calls of the same name on other receivers that `references` found instead).
    if (found && !found(result.data)) {
      if (options.json) printJson(io, result.data);
      if (nothingFound === 'one line') throw new ReponavError('FILE_NOT_FOUND', result.text.split('\n').join(' '));
      const summary = summaryOf(result.text);
      if (!options.json && summary.lines < result.text.split('\n').length) io.stdout.write(`${result.text}\n`);
      throw new ReponavError('FILE_NOT_FOUND', summary.sentence);
    }
    if (options.json) printJson(io, result.data);
    else io.stdout.write(`${result.text}\n`);
  } finally {
    repository.close();
  }
}

/**
 * What a lookup that finds nothing prints: `one line`, its whole answer as
 * the error sentence; `summary and list`, the answer's summary as the error
 * sentence and the whole answer on stdout when it lists more than that.
 */
export type NothingFound = 'one line' | 'summary and list';

/**
 * The summary of a tool's answer: its leading lines up to the first list (a
 * line ending in ':', an indented or bracketed line, or a blank one), joined
 * as one sentence, and how many lines that was.
 */
export function summaryOf(text: string): { sentence: string; lines: number } {
  const lines = text.split('\n');
  let n = 0;
  while (n < lines.length && lines[n]!.trim() !== '' && !/^[\s[]/.test(lines[n]!) && !lines[n]!.trimEnd().endsWith(':')) n++;
  // An answer that opens with a list still needs a sentence: its first line.
  const taken = Math.max(1, n);
  return { sentence: lines.slice(0, taken).join(' ').trim(), lines: taken };
}

/** Registers `reponav symbols FILE [--repo PATH] [--commit REV] [--json]`. */
export function registerSymbolsCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const command = program
    .command('symbols')
    .description("show a file's skeleton: imports and every class, function and method with line span, signature and doc line")
    .argument('<file>', 'file path (relative to the repository root or to the current folder)');
  addToolCommandOptions(command).action(async (file: string, options: ToolCommandOptions) => {
    await runToolCommand(options, io, listSymbolsTool, (repository) => ({ file: fileArgument(repository, file) }));
  });
  return command;
}
