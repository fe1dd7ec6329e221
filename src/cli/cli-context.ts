import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { createStderrLogger } from '../logger.js';
import { RepositoryIndex } from '../index/repository-index.js';
import type { IndexReport } from '../index/indexer.js';
import { createProgressBar } from './progress-bar.js';

/** Options every repository command shares. */
export interface RepositoryCommandOptions {
  repo?: string;
  commit?: string;
  indexPath?: string;
  maxFileBytes?: string;
  /** Parse worker threads (`index --workers`); default: the indexer's. */
  workers?: string;
  quiet?: boolean;
  json?: boolean;
  verbose?: boolean;
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
  const maxFileBytes = options.maxFileBytes !== undefined ? parseSize(options.maxFileBytes) : undefined;
  const workers = options.workers !== undefined ? parseWorkerCount(options.workers) : undefined;
  const repository = await RepositoryIndex.open(path ?? options.repo ?? '.', {
    commit: options.commit,
    indexPath: options.indexPath,
    maxFileBytes,
    logger,
  });
  const bar = options.quiet || options.json ? null : createProgressBar('files');
  try {
    const report = await repository.refresh({ workers, onProgress: (p) => bar?.update(p.done, p.total) });
    return { repository, report, logger };
  } catch (error) {
    repository.close();
    throw error;
  } finally {
    bar?.finish();
  }
}

/** Parses `1048576`, `512k`, `2m`, `1g` into bytes. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) throw new ReponavError('BAD_INPUT', `'${text}' is not a size; use bytes or a suffix like 512k, 2m.`);
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(match[1]) * scale);
}

/** Parses `--workers`: a whole number from 0 (parse in this process) to 16. */
export function parseWorkerCount(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > 16) {
    throw new ReponavError('BAD_INPUT', `'${text}' is not a worker count; use a whole number from 0 (parse in this process) to 16.`);
  }
  return n;
}

/** Prints a value as pretty JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}
