import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Logger } from '../logger.js';
import { createStderrLogger } from '../logger.js';
import { RepositoryIndex } from '../index/index.js';
import type { IndexReport } from '../index/index.js';
import { createProgressBar } from './progress-bar.js';
import { keepingWorkOnInterrupt } from './interrupted-build.js';
import type { CliIo } from './cli-io.js';

/** Options every repository command shares. */
export interface RepositoryCommandOptions {
  repo?: string;
  commit?: string;
  indexPath?: string;
  /** Skip files larger than this many bytes (parsed by the option's `fileSize` parser). */
  maxFileBytes?: number;
  /** `--include` / `--exclude` globs (see addPathRuleOptions); undefined: what the index was built with. */
  include?: string[];
  exclude?: string[];
  /** Parse worker threads (`index --workers`, parsed by `workerCount`); default: the indexer's. */
  workers?: number;
  quiet?: boolean;
  json?: boolean;
  verbose?: boolean;
  /** Run the full integrity check before refreshing (`index --check`). */
  check?: boolean;
}

/**
 * `--include GLOB` and `--exclude GLOB` (repeatable, gitignore syntax, relative
 * to the repository root) on the commands that build an index (`index`, `mcp`,
 * `ui`): stored with the index, so later commands use them without the flags.
 */
export function addPathRuleOptions(command: Command): Command {
  // No default list: an option not given leaves the stored list in force.
  const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
  return command
    .addOption(
      new Option('--include <glob>', "index paths matching this glob even where .gitignore, .ignore, .rgignore, .reponavignore or a default folder rule (venv/, build/ …) leaves them out (repeatable; stored with the index; --include '' clears the list)")
        .argParser(collect),
    )
    .addOption(
      new Option('--exclude <glob>', "leave out paths matching this glob, tracked files too (repeatable; stored with the index; --exclude '' clears the list)")
        .argParser(collect),
    );
}

/** The logger of a CLI run, on its stderr: warnings by default, debug with --verbose, errors only with --quiet. */
export function cliLogger(options: { quiet?: boolean; verbose?: boolean }, io: CliIo): Logger {
  return createStderrLogger(options.verbose ? 'debug' : options.quiet ? 'error' : 'warn', io.stderr);
}

/**
 * The repository folder of a command that takes it as `[path]` (default `.`)
 * and also as `--repo`, the spelling of `search`, `symbols`, `view` and `ask`:
 * either one; two different folders are a usage error (exit code 2).
 */
export function repositoryArgument(path: string, options: { repo?: string }, command: Command): string {
  if (options.repo === undefined) return path;
  if (path !== '.' && path !== options.repo) command.error(`error: give the repository once, as PATH or with --repo, not both (${path} and ${options.repo})`, { exitCode: 2 });
  return options.repo;
}

/**
 * True when `folder` is where the command runs: there, as for git, a subfolder
 * of a work tree means the work tree (a folder named explicitly is its own root).
 */
export function standsIn(folder: string): boolean {
  return resolve(folder) === process.cwd();
}

/** Opens the repository a command names, without refreshing its index. */
export function openRepository(options: RepositoryCommandOptions, io: CliIo, path?: string): Promise<RepositoryIndex> {
  const folder = path ?? options.repo ?? '.';
  return RepositoryIndex.open(folder, {
    commit: options.commit,
    findWorkTreeRoot: standsIn(folder),
    indexPath: options.indexPath,
    maxFileBytes: options.maxFileBytes,
    include: options.include,
    exclude: options.exclude,
    logger: cliLogger(options, io),
  });
}

/**
 * Opens the repository a command names (or takes `opened`, already opened by
 * {@link openRepository}: `search` looks at it first, and a second open would
 * cost a CLI process another schema check and its statements) and refreshes its
 * index (showing a progress bar on a TTY), so every answer matches the tree or
 * commit. On failure the repository is closed.
 */
export async function openFreshRepository(
  options: RepositoryCommandOptions,
  io: CliIo,
  path?: string,
  opened?: RepositoryIndex,
): Promise<{ repository: RepositoryIndex; report: IndexReport; logger: Logger }> {
  const logger = cliLogger(options, io);
  const repository = opened ?? (await openRepository(options, io, path));
  const bar = options.quiet || options.json ? null : createProgressBar('files', io.stderr);
  try {
    const report = await keepingWorkOnInterrupt(
      () => repository.refresh({ workers: options.workers, check: options.check, onProgress: (p) => bar?.update(p.done, p.total) }),
      { write: (text) => void io.stderr.write(text), exit: (code) => process.exit(code) },
    );
    return { repository, report, logger };
  } catch (error) {
    repository.close();
    throw error;
  } finally {
    bar?.finish();
  }
}

/** Prints a value as pretty JSON on the run's stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
