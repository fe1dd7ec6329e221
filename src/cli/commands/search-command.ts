import { type Command, Option } from 'commander';
import { ReponavError } from '../../errors.js';
import { tokenBudget } from '../option-parsers.js';
import { compilePathPattern } from '../../index/path-pattern.js';
import { searchRepository } from '../../retrieve/search-repository.js';
import { INTERFACE_MODES, renderSearchResult, type InterfaceMode } from '../../scaffold/index.js';
import { openFreshRepository, type RepositoryCommandOptions } from '../cli-context.js';
import { addEmbedderOptions, prepareDenseRetrieval, type EmbedderFlags } from '../embedder-options.js';

interface SearchCommandOptions extends RepositoryCommandOptions, EmbedderFlags {
  format: InterfaceMode;
  filePattern?: string;
  budget: number;
}

/** `reponav search "QUERY"`: refresh the index, then print the RepoNav scaffold (or another interface). */
export function registerSearchCommand(program: Command): void {
  const command = program
    .command('search')
    .description('Find the files and functions a query (an issue text or a question) is about; prints the RepoNav scaffold')
    .argument('<query>', 'the query: an issue text, a stack trace, or a short request; "-" reads it from stdin')
    .option('--repo <path>', 'repository folder', '.')
    .option('--commit <rev>', 'search one commit instead of the working tree')
    .option('--index-path <file>', 'where the SQLite index lives')
    .addOption(new Option('--format <format>', 'output interface').choices([...INTERFACE_MODES]).default('scaffold'))
    .option('--file-pattern <glob>', 'only files matching this glob (e.g. "src/**/*.py")')
    .option('--budget <tokens>', 'output budget in tokens (about 4 characters each, at least 100)', tokenBudget(100), 1500)
    .option('--json', 'same as --format json')
    .option('-q, --quiet', 'no progress bar');
  addEmbedderOptions(command, { fusion: true, reembed: true }).action(async (queryArgument: string, options: SearchCommandOptions) => {
      const query = queryArgument === '-' ? await readStdin() : queryArgument;
      if (!query.trim()) throw new ReponavError('BAD_INPUT', 'The query is empty; give an issue text, a stack trace or a question.');
      const { repository, logger } = await openFreshRepository(options);
      try {
        const pathFilter = options.filePattern ? compilePathPattern(options.filePattern) : undefined;
        const { fuse } = await prepareDenseRetrieval(repository.store, options, logger, pathFilter);
        const result = await searchRepository(repository.store, query, { pathFilter, fuse });
        const format = options.json ? 'json' : options.format;
        process.stdout.write(renderSearchResult(repository.store, result, format, { budgetTokens: options.budget }) + '\n');
      } finally {
        repository.close();
      }
    });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
