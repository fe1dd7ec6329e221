import type { Command } from 'commander';
import { displayPath, type IndexReport } from '../../index/index.js';
import { fileSize, workerCount } from '../option-parsers.js';
import { addPathRuleOptions, openFreshRepository, printJson, repositoryArgument, type RepositoryCommandOptions } from '../cli-context.js';
import { addEmbedderOptions, prepareDenseRetrieval, type EmbedderFlags } from '../embedder-options.js';
import { countOf } from '../../plural.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

/** `reponav index [PATH] [--commit REV]`: build or refresh the index, print a summary. */
export function registerIndexCommand(program: Command, io: CliIo = PROCESS_IO): void {
  const command = program
    .command('index')
    .description('index a working tree (or one commit with --commit) incrementally: only changed files are re-parsed')
    .argument('[path]', 'repository folder (or git dir with --commit)', '.')
    .option('--repo <path>', 'repository folder (the same as PATH)')
    .option('--commit <rev>', 'index this commit without a checkout (git ls-tree + cat-file)')
    .option('--index-path <file>', 'where the SQLite index lives (default: the user cache)')
    .option('--max-file-size <size>', 'skip files larger than this (e.g. 512k, 2m); stored with the index, later commands use it (default: 1m, or what the index was built with)', fileSize)
    .option('--check', "run SQLite's full integrity check first, and rebuild the index if it fails")
    .option('--workers <n>', 'parse worker threads when 200+ files need parsing (default: one per core, at most 4; 0: this process)', workerCount)
    .option('--json', 'print the report as JSON')
    .option('-q, --quiet', 'errors only: no progress bar and no report (--json still prints the report)')
    .option('-v, --verbose', 'debug logging on stderr');
  addPathRuleOptions(command);
  addEmbedderOptions(command, { fusion: false, reembed: true }).action(async (path: string, options: RepositoryCommandOptions & EmbedderFlags & { maxFileSize?: number; check?: boolean }) => {
      const { repository, report, logger } = await openFreshRepository({ ...options, maxFileBytes: options.maxFileSize }, io, repositoryArgument(path, options, command));
      try {
        const { counts } = await prepareDenseRetrieval(repository.store, options, logger, io.stderr);
        if (options.json) printJson(io, { ...report, indexPath: repository.store.path, embeddings: counts ?? null });
        // -q is errors only: the report is not printed (--json, asked for by name, still is).
        else if (!options.quiet) {
          io.stdout.write(summarizeReport(report, repository.store.path) + '\n');
          if (counts) io.stdout.write(`Embeddings: ${counts.embedded} embedded, ${counts.cached} cached, ${countOf(counts.total, 'chunk')}.\n`);
        }
      } finally {
        repository.close();
      }
    });
}

/** One line (two with skips) describing an indexing run. */
export function summarizeReport(report: IndexReport, indexPath: string): string {
  const seconds = report.durationMs / 1000;
  const work = report.parsed + report.reused;
  const rate = seconds > 0 && work > 0 ? `, ${Math.round(work / seconds)} files/s` : '';
  const where = report.commit ? `${displayPath(report.root)} @ ${report.commit.slice(0, 12)}` : displayPath(report.root);
  const skipped = Object.entries(report.skipped)
    .filter(([, n]) => n)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  return (
    `Indexed ${countOf(report.listed, 'file')} of ${where} in ${seconds.toFixed(2)} s (${report.parsed} parsed, ${report.reused} reused, ` +
    `${report.unchanged} unchanged, ${report.deleted} removed${rate}); ${countOf(report.partial, 'partial parse')}, ${report.failed} failed.` +
    (report.failed > 0
      ? `\nFailed to parse (indexed as text; the next run tries again): ${report.failures.map((f) => `${displayPath(f.path)} (${f.reason})`).join(', ')}${report.failed > report.failures.length ? `, … ${report.failed - report.failures.length} more (see \`reponav status -v\`)` : ''}.`
      : '') +
    (skipped ? `\nSkipped: ${skipped}.` : '') +
    `\nIndex: ${displayPath(indexPath)}`
  );
}
