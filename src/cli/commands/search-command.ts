/**
 * `reponav search "QUERY"`: the `search` tool (or `snippet_search` for the
 * snippet interface) called once, exactly as an MCP client would call it; the
 * comparison interfaces `file-only` and `inline` are the same tool with its
 * text renderer swapped. `--format json` prints the tool's machine form, the
 * one search result shape (scaffold/search-result-json.ts).
 */
import { type Command, Option } from 'commander';
import { DEFAULT_RANKER, RANKER_KINDS, type RankerKind } from '../../retrieve/index.js';
import { ReponavError } from '../../errors.js';
import { addHiddenAlias } from '../option-aliases.js';
import { wholeNumber } from '../option-parsers.js';
import { compilePathPattern } from '../../index/index.js';
import { INTERFACE_MODES, type InterfaceMode } from '../../scaffold/index.js';
import { searchTool, snippetSearchTool } from '../../tools/index.js';
import { createToolRegistry, toolsWithSearchInterface } from '../../tools/index.js';
import { DEFAULT_MAX_BUDGET_TOKENS } from '../../tools/index.js';
import { openRepository, type RepositoryCommandOptions } from '../cli-context.js';
import { addEmbedderOptions, prepareDenseRetrieval, type EmbedderFlags } from '../embedder-options.js';
import { runToolCommand } from './symbols-command.js';
import { indexInBackground, type BackgroundIndex } from '../provisional-answer.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

interface SearchCommandOptions extends RepositoryCommandOptions, EmbedderFlags {
  format: InterfaceMode;
  ranker: RankerKind;
  filePattern?: string;
  budgetTokens: number;
}

/** Largest `--budget-tokens` (the tools' per-call ceiling). */
const MAX_SEARCH_BUDGET = 100_000;
const searchBudget = wholeNumber(100, MAX_SEARCH_BUDGET, 'whole number of tokens');

/** `reponav search "QUERY"`: refresh the index, then print the RepoNav scaffold (or another interface). */
export function registerSearchCommand(program: Command, io: CliIo = PROCESS_IO): void {
  const command = program
    .command('search')
    .description('find the files and functions a query (an issue text or a question) is about; print the RepoNav scaffold')
    .argument('<query>', 'the query: an issue text, a stack trace, or a short request; "-" reads it from stdin')
    .option('--repo <path>', 'repository folder', '.')
    .option('--commit <rev>', 'search one commit instead of the working tree')
    .option('--index-path <file>', 'where the SQLite index lives')
    .addOption(new Option('--format <format>', 'output interface').choices([...INTERFACE_MODES]).default('scaffold'))
    .option('--file-pattern <glob>', 'only files matching this glob (e.g. "src/**/*.py")')
    .option('--budget-tokens <n>', `output budget in o200k tokens (estimated from above; 100 to ${MAX_SEARCH_BUDGET})`, searchBudget, 1500)
    .addOption(new Option('--ranker <kind>', 'what orders the candidates: auto (the shipped LambdaMART model at the levels and for the queries where it passed its evaluation, the tuned combination elsewhere), hand (the tuned combination) or learned (the model at every level, for every query); docs/retrieval.md').choices(RANKER_KINDS).default(DEFAULT_RANKER))
    .option('--json', 'same as --format json')
    .option('-q, --quiet', 'no progress bar');
  addHiddenAlias(command, '--budget <tokens>', '--budget-tokens <n>', searchBudget);
  addEmbedderOptions(command, { fusion: true, reembed: true }).action(async (queryArgument: string, options: SearchCommandOptions) => {
    const budgetTokens = options.budgetTokens;
    const query = queryArgument === '-' ? await readStdin() : queryArgument;
    if (!query.trim()) throw new ReponavError('BAD_INPUT', 'The query is empty; give an issue text, a stack trace or a question.');
    const pathFilter = options.filePattern ? compilePathPattern(options.filePattern) : undefined;
    const format = options.json ? 'json' : options.format;
    // One open for both steps: a CLI process pays every open's schema check and statements.
    const repository = await openRepository(options, io);
    let background: BackgroundIndex = { provisional: false };
    try {
      // A never-indexed working tree answers now from a text scan while its index builds (not with dense retrieval).
      if (!options.embedder) background = await indexInBackground(repository, options);
    } catch (error) {
      repository.close();
      throw error;
    }
    const elsewhere = background.provisional;
    const failure = background.provisional ? background.failure : null;
    // A focused first index answers this search; the whole index is then built by a detached process, not here.
    const continueFirstIndex = background.provisional ? undefined : background.continueIndex;
    const args = { query, budget_tokens: budgetTokens, ...(options.filePattern ? { file_pattern: options.filePattern } : {}) };
    await runToolCommand({ ...options, json: format === 'json' }, io, format === 'snippet' ? snippetSearchTool : searchTool, () => args, async (repository, logger) => {
      const { fuse } = elsewhere || continueFirstIndex ? { fuse: undefined } : await prepareDenseRetrieval(repository.store, options, logger, io.stderr, pathFilter);
      return {
        registry: format === 'file-only' || format === 'inline' ? createToolRegistry({ tools: toolsWithSearchInterface(format) }) : undefined,
        context: {
          fuse,
          ranker: options.ranker,
          firstIndexElsewhere: elsewhere,
          ...(continueFirstIndex ? { continueFirstIndex } : {}),
          ...(failure ? { firstIndexFailure: { reason: failure, retry: `reponav index ${shellQuoted(repository.root)}` } } : {}),
          ...(continueFirstIndex ? { firstIndexRetry: `reponav index ${shellQuoted(repository.root)}` } : {}),
        },
        budgets: { maxTokens: Math.max(budgetTokens, DEFAULT_MAX_BUDGET_TOKENS) },
      };
    }, { repository, refresh: !elsewhere && !continueFirstIndex }, searchFoundAnything);
  });
}

/**
 * Whether a search answer holds anything (a file, a snippet hit, a document,
 * a provisional file), or is a "still indexing" answer: a search that finds
 * nothing fails like rg (exit 1, the sentence on stderr). An answer of a shape
 * not listed here counts as nothing found.
 */
export function searchFoundAnything(data: unknown): boolean {
  if (!data || typeof data !== 'object') return false;
  const answer = data as Record<string, unknown>;
  if (answer.indexing === true) return true;
  return ['files', 'hits', 'provisionalFiles', 'docs'].some((key) => Array.isArray(answer[key]) && (answer[key] as unknown[]).length > 0);
}

/** A path as a POSIX shell word (quoted when it holds anything but safe characters). */
function shellQuoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
