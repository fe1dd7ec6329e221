import type { Command } from 'commander';
import { displayPath, RepositoryIndex, type IndexStatus } from '../../index/index.js';
import { cliLogger, printJson, repositoryArgument, standsIn, type RepositoryCommandOptions } from '../cli-context.js';
import { countOf } from '../../plural.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';
import { lastBackgroundFailure } from '../provisional-answer.js';

/** `reponav status [PATH]`: what is indexed and what is stale, without re-indexing. */
export function registerStatusCommand(program: Command, io: CliIo = PROCESS_IO): void {
  program
    .command('status')
    .description('show what is indexed and which files changed since (does not re-index)')
    .argument('[path]', 'repository folder', '.')
    .option('--repo <path>', 'repository folder (the same as PATH)')
    .option('--commit <rev>', 'the commit-mode index of this revision')
    .option('--index-path <file>', 'where the SQLite index lives')
    .option('--json', 'print as JSON')
    .option('-v, --verbose', 'list every failed or stale file (default: the first 10 of each)')
    .action(async (path: string, options: RepositoryCommandOptions, command: Command) => {
      // Read-only: status never creates, rebuilds or writes an index.
      const folder = repositoryArgument(path, options, command);
      const repository = await RepositoryIndex.open(folder, { commit: options.commit, indexPath: options.indexPath, logger: cliLogger(options, io), readonly: true, findWorkTreeRoot: standsIn(folder) });
      try {
        const status = await repository.status();
        if (options.json) return printJson(io, status);
        const languages = Object.entries(status.languages)
          .sort((a, b) => b[1] - a[1])
          .map(([l, n]) => `${l} ${n}`)
          .join(', ');
        const stale = status.stale.changed.length + status.stale.added.length + status.stale.deleted.length;
        const lines = [
          `Repository: ${displayPath(status.root)}${status.commit ? ` @ ${status.commit.slice(0, 12)}` : ''} (${status.mode})`,
          `Index:      ${displayPath(status.indexPath)}`,
          `Indexed:    ${indexedText(status, status.indexedAt || status.writer ? null : lastBackgroundFailure(status.indexPath))}`,
          `Contents:   ${countOf(status.files, 'file')}, ${countOf(status.symbols, 'symbol')}, ${countOf(status.chunks, 'chunk')}, ${countOf(status.partialFiles, 'partial parse', 'partial parses')}, ${countOf(status.failedFiles, 'failed parse')}`,
          `Languages:  ${languages || 'none'}`,
          `Settings:   ${settingsText(status.settings)}`,
          ...leftOutLines(status),
          ...(status.writer ? [`Writer:     ${writerText(status.writer)}`] : []),
          stale === 0
            ? 'Freshness:  up to date'
            : `Freshness:  STALE: ${status.stale.changed.length} changed, ${status.stale.added.length} added, ${status.stale.deleted.length} deleted`,
        ];
        const shown = options.verbose ? Infinity : 10;
        for (const [label, list] of [['changed', status.stale.changed], ['added', status.stale.added], ['deleted', status.stale.deleted]] as const) {
          for (const path of list.slice(0, shown)) lines.push(`  ${label}: ${displayPath(path)}`);
          if (list.length > shown) lines.push(`  … ${list.length - shown} more ${label} (-v lists all)`);
        }
        if (status.failedFiles > 0) {
          lines.push(`Failed:     ${countOf(status.failedFiles, 'file')} could not be parsed (searchable as text only; the next \`reponav index\` parses them again)`);
          for (const { path, reason } of status.failures.slice(0, shown)) lines.push(`  failed: ${displayPath(path)}: ${reason}`);
          if (status.failures.length > shown) lines.push(`  … ${status.failures.length - shown} more failed (-v lists all)`);
        }
        io.stdout.write(lines.join('\n') + '\n');
      } finally {
        repository.close();
      }
    });
}

/**
 * When the index was last completed, or why it is not: a run that is still
 * going (another process writing now, such as the background index a first
 * search starts) is neither "never" nor "interrupted", and a first run that was
 * stopped part-way is not "never". `backgroundFailure`: why the background
 * build a first search started failed, when it did (it is said, not "never").
 */
export function indexedText(status: Pick<IndexStatus, 'indexedAt' | 'complete' | 'writer' | 'files'>, backgroundFailure: string | null = null): string {
  if (!status.indexedAt) {
    if (status.writer) return 'not yet: the first index is being built now (see Writer)';
    if (backgroundFailure !== null) return `not yet: the last background build failed (${backgroundFailure.replace(/\.$/, '')}); run \`reponav index\` to retry it`;
    // A first run that was stopped keeps the batches it wrote; the next run resumes from them.
    return status.files > 0 ? `not yet: the first index was interrupted after ${countOf(status.files, 'file')}; run \`reponav index\` to finish` : 'never (run `reponav index`)';
  }
  const at = new Date(status.indexedAt).toISOString();
  if (status.complete) return at;
  return status.writer ? `${at}, being updated now (see Writer)` : `${at} (INCOMPLETE: the last run was interrupted; run \`reponav index\` to finish)`;
}

/**
 * What another process writing the index is doing. Its counts are of the files
 * this run (re)indexes, not of the index: a run resumed after an interruption,
 * or an update, keeps the files already indexed, so "Contents" (every file in
 * the index) runs ahead of them, and a bare "128/1242 files" beside "960 files"
 * read as the writer lagging. Before the run has listed the files it has no
 * count at all (0 of 0).
 */
export function writerText(writer: NonNullable<IndexStatus['writer']>): string {
  const running = `process ${writer.pid} is indexing now`;
  if (writer.total === 0) return `${running}: listing the files to find what needs indexing`;
  return `${running}: ${writer.done} of the ${countOf(writer.total, 'new or changed file')} done (Contents also counts the files kept from before)`;
}

/** The index settings as one line: the size limit, excluded folders and the --include / --exclude globs. */
function settingsText(settings: IndexStatus['settings']): string {
  const parts = [`max file size ${settings.maxFileBytes} bytes`];
  if (settings.excludeDirectories.length) parts.push(`excluded folders ${settings.excludeDirectories.join(', ')}`);
  if (settings.include?.length) parts.push(`--include ${settings.include.map((glob) => `'${glob}'`).join(' ')}`);
  if (settings.exclude?.length) parts.push(`--exclude ${settings.exclude.map((glob) => `'${glob}'`).join(' ')}`);
  return parts.join(', ');
}

/** What the rules leave out, with examples and the rule behind each: a file missing from answers is explained here. */
function leftOutLines(status: IndexStatus): string[] {
  const counts = Object.entries(status.leftOutCounts).filter(([, n]) => n);
  if (counts.length === 0) return [];
  const total = counts.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  return [
    `Left out:   ${countOf(total, 'file or folder', 'files and folders')} by rules (${counts.map(([reason, n]) => `${n} ${reason}`).join(', ')}), e.g.`,
    ...status.leftOut.map((entry) => `  ${displayPath(entry.path)}${entry.rule ? `: ${entry.rule}` : ''}`),
  ];
}
