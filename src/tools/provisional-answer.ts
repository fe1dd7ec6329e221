/**
 * The answer of `search` and `snippet_search` while a working tree's first
 * index is still being built: files ranked by a plain text scan of the tree
 * (retrieve/provisional-search.ts), marked provisional in the first line of
 * the text and in the data, and cut to the call's budget like every answer.
 */
import type { RepositoryIndex } from '../index/index.js';
import { reduceLongQuery, type ProvisionalFile } from '../retrieve/index.js';
import { renderBlocks } from './output-budget.js';
import { countOf } from '../plural.js';
import { pathFilterOf } from './tool-args.js';
import type { ToolAnswer, ToolEnvironment } from './tool-types.js';

/** True while `index` is a working tree whose first index has not completed: what a provisional answer stands in for. */
export function neverIndexed(index: RepositoryIndex): boolean {
  return index.source.mode === 'worktree' && index.store.getMeta('indexed') === null;
}

/** The text shapes of a provisional answer: one per search interface that renders text (json prints the data). */
export type ProvisionalShape = 'scaffold' | 'snippet' | 'file-only' | 'inline';

/** The provisional answer to a search for `query` (within `file_pattern`), its text in the shape of the interface asked for. */
export async function provisionalSearchAnswer(args: { query: string; file_pattern?: string }, env: ToolEnvironment, shape: ProvisionalShape = 'scaffold'): Promise<ToolAnswer> {
  const index = env.repository.index;
  // eslint-disable-next-line entry-points/no-restricted-paths -- loaded only when a search comes before any index exists
  const { provisionalSearch } = await import('../retrieve/provisional-search.js');
  // The index's own listing: the scan holds what the index would (its ignore files, --include/--exclude, tracked files).
  const files = (await index.source.list()).files.map((file) => file.path);
  const result = await provisionalSearch(index.root, reduceLongQuery(args.query).text, { pathFilter: pathFilterOf(args.file_pattern), maxFileBytes: index.settings.maxFileBytes, files });
  const name = env.repository.name;
  return {
    text: renderProvisional(result.files, name, env.budgetTokens, failureOf(env), shape),
    data: { provisional: true, query: result.query, provisionalFiles: result.files, repository: name },
  };
}

/** Why the first index has not been built, and what happens next: the CLI's background build, this call's focused index, else this server's own build. */
function failureOf(env: ToolEnvironment): BuildFailure | undefined {
  const { firstIndexFailure: cli, firstIndexUnbuildable: here, firstIndexRetry: retry } = env.context;
  if (cli) return { reason: cli.reason, next: `Run \`${cli.retry}\` to retry the build and see its progress.` };
  if (here) {
    const next = retry ? `Run \`${retry}\` to build it once that is fixed.` : 'The next call tries to build it again.';
    return { what: 'the index cannot be built', reason: here, next };
  }
  const failed = env.repository.lastFailure;
  return failed ? { reason: failed, next: 'This call started it again; search again shortly for the full answer.' } : undefined;
}

/** Why a provisional answer stands in for a build that failed: what failed (default: the last background build), why, what to do. */
export interface BuildFailure {
  what?: string;
  reason: string;
  next: string;
}

/**
 * The text form: marked provisional in its first line, then one block per file
 * (best first) in the interface's shape: the scaffold's `[FILE]` blocks with
 * the best line, snippet's `path:line` with that line, file-only's numbered
 * `[FILES]` list (one path a line), inline's list with the best line under
 * each file. With `failure`, the first line says the background build failed,
 * why, and what to run, instead of "being built".
 */
export function renderProvisional(
  files: readonly ProvisionalFile[],
  repository: string,
  budgetTokens: number,
  failure?: BuildFailure,
  shape: ProvisionalShape = 'scaffold',
): string {
  // Said only of files there are: with none, the last line says the scan found nothing.
  const scan = files.length > 0 ? ' These files come from a plain text scan for the query words (no symbols, no scaffold)' : '';
  const head = [
    failure
      ? `[PROVISIONAL] '${repository}' has no index: ${failure.what ?? 'the last background index build failed'} (${failure.reason.replace(/\.$/, '')}).` +
        `${scan}${scan ? '.' : ''} ${failure.next}`
      : `[PROVISIONAL] '${repository}' has no index yet; it is being built in the background${scan ? `.${scan};` : ';'} search again shortly for the full answer.`,
  ];
  if (files.length === 0) head.push('No source file contains the query words.');
  else if (shape === 'file-only' || shape === 'inline') head.push(`[FILES] ${files.length} of ${countOf(files.length, 'candidate file')} (text scan)`);
  const blocks = files.map((file, i) => provisionalBlock(file, i + 1, shape));
  return renderBlocks(head, blocks, budgetTokens, { singular: 'file', plural: 'files' });
}

/** One file of a provisional answer in `shape`. */
function provisionalBlock(file: ProvisionalFile, rank: number, shape: ProvisionalShape): string[] {
  switch (shape) {
    case 'scaffold': {
      const lines = [`[FILE] ${file.path} (matches: ${file.matches}; words: ${file.terms.slice(0, 6).join(', ')})`];
      if (file.line !== null) lines.push(`    L${file.line}: ${file.preview}`);
      return lines;
    }
    case 'snippet':
      return file.line !== null ? [`${file.path}:${file.line} (matches: ${file.matches})`, `  ${file.line} | ${file.preview}`] : [`${file.path} (matches: ${file.matches})`];
    case 'file-only':
      return [`${rank}. ${file.path} (matches: ${file.matches})`];
    case 'inline':
      return [`${rank}. ${file.path} (matches: ${file.matches})`, ...(file.line !== null ? [`   - L${file.line}: ${file.preview}`] : [])];
  }
}
