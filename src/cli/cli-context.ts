import type { Logger } from '../logger.js';
import { createStderrLogger } from '../logger.js';
import { RepositoryIndex } from '../index/index.js';
import type { IndexReport } from '../index/index.js';
import { createProgressBar } from './progress-bar.js';

/** Options every repository command shares. */
export interface RepositoryCommandOptions {
  repo?: string;
  commit?: string;
  indexPath?: string;
  /** Skip files larger than this many bytes (parsed by the option's `fileSize` parser). */
  maxFileBytes?: number;
  /** Parse worker threads (`index --workers`, parsed by `workerCount`); default: the indexer's. */
  workers?: number;
  quiet?: boolean;
  json?: boolean;
  verbose?: boolean;
  /** Run the full integrity check before refreshing (`index --check`). */
  check?: boolean;
}

/** The logger of a CLI run: warnings by default, debug with --verbose, errors only with --quiet. */
export function cliLogger(options: { quiet?: boolean; verbose?: boolean }): Logger {
  return createStderrLogger(options.verbose ? 'debug' : options.quiet ? 'error' : 'warn');
}

/**
 * Opens the repository a command names and refreshes its index (showing a
 * progress bar on a TTY), so every answer matches the tree or commit.
 */
export async function openFreshRepository(
  options: RepositoryCommandOptions,
  path?: string,
): Promise<{ repository: RepositoryIndex; report: IndexReport; logger: Logger }> {
  const logger = cliLogger(options);
  const repository = await RepositoryIndex.open(path ?? options.repo ?? '.', {
    commit: options.commit,
    indexPath: options.indexPath,
    maxFileBytes: options.maxFileBytes,
    logger,
  });
  const bar = options.quiet || options.json ? null : createProgressBar('files');
  try {
    const report = await repository.refresh({ workers: options.workers, check: options.check, onProgress: (p) => bar?.update(p.done, p.total) });
    return { repository, report, logger };
  } catch (error) {
    repository.close();
    throw error;
  } finally {
    bar?.finish();
  }
}

/** Prints a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
