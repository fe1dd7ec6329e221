/**
 * The first search on a never-indexed working tree, answered from a real
 * index within seconds: the provisional text scan ranks the files
 * (retrieve/provisional-search.ts), the best of them and their neighbours are
 * indexed first (a focused run of the indexer, retrieve/focused-files.ts says
 * which), and the tool answers with its normal pipeline over that partial
 * index, its first line (and its JSON's `partialIndex`) saying how many of how
 * many files it covers. Then the whole tree is indexed in the background
 * (this process's refresh, or the caller's own build), which leaves the
 * focused files alone as unchanged: the finished index equals a cold one.
 */
import type { SourceListing } from '../index/index.js';
import { importTargets, WorktreeSource } from '../index/index.js';
import { estimateTokens } from '../budget/index.js';
import { isReponavError } from '../errors.js';
import { countOf } from '../plural.js';
import { filesNamedAfter, focusLeavesFiles, focusNeighbours, focusSeeds, isTestPath, parseQuery, reduceLongQuery, DEFAULT_FOCUS_BUDGET, type FocusBudget } from '../retrieve/index.js';
import { enforceBudget, MIN_BUDGET_TOKENS } from './output-budget.js';
import { pathFilterOf } from './tool-args.js';
import type { AnyToolDefinition, ToolCallResult, ToolEnvironment } from './tool-types.js';

/**
 * The fewest listed files for which the default budget's focused first index
 * always leaves files out (retrieve/focused-files.ts's focusLeavesFiles): a
 * smaller tree is focused only when its bytes exceed the seeds' budget, and
 * otherwise indexed whole first (the focused run would take every file).
 */
export const FOCUSED_MIN_FILES = Math.min(DEFAULT_FOCUS_BUDGET.maxSeeds, DEFAULT_FOCUS_BUDGET.maxFiles) + 1;

/** Files of the scan's ranking read for seeds and for filling the budget. */
const RANKED_FILES = 120;

/** How much of the tree a partial answer covers (its JSON's `partialIndex`). */
export interface PartialCoverage {
  /** Files in the index when the answer was made. */
  indexedFiles: number;
  /** Files the tree lists for indexing. */
  totalFiles: number;
  /** The scan's best files among them, and the files added as their neighbours. */
  rankedFiles: number;
  neighbourFiles: number;
  complete: false;
}

/**
 * What a focused first answer came to: the answer, or why there is none (the
 * caller answers provisionally); `unbuildable` when the index could not be
 * written (INDEX_UNAVAILABLE: a full disk, a read-only or failing one), which
 * the whole index would meet too.
 */
export type FocusedOutcome = { answer: ToolCallResult } | { answer: null; reason: string; unbuildable: boolean };

/**
 * Indexes the files a search for `input.query` needs first and answers from
 * them (see the module comment); `continueIndex` then starts the whole index.
 * Not applicable (null) to a tree the focused index would take whole. A
 * failure (the focused run, the search) is an outcome without an answer; the
 * whole index is started all the same, told why when the index could not be
 * written.
 */
export async function focusedFirstAnswer(
  tool: AnyToolDefinition,
  input: Record<string, unknown>,
  env: ToolEnvironment,
  continueIndex: (unbuildable?: string) => void,
  budget: FocusBudget = DEFAULT_FOCUS_BUDGET,
): Promise<FocusedOutcome | null> {
  const index = env.repository.index;
  if (!(index.source instanceof WorktreeSource)) return null;
  const listing = await index.source.list();
  if (!focusLeavesFiles(listing.files, budget)) return null;
  let unbuildable: string | undefined;
  try {
    return await answerFromFocus(tool, input, env, listing, budget);
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    if (isReponavError(caught, 'INDEX_UNAVAILABLE')) unbuildable = reason;
    env.logger.warn(`the focused first index of ${env.repository.name} failed (${reason}); answering from the text scan`);
    return { answer: null, reason, unbuildable: unbuildable !== undefined };
  } finally {
    continueIndex(unbuildable);
  }
}

async function answerFromFocus(
  tool: AnyToolDefinition,
  input: Record<string, unknown>,
  env: ToolEnvironment,
  listing: SourceListing,
  budget: FocusBudget,
): Promise<FocusedOutcome> {
  const index = env.repository.index;
  const query = reduceLongQuery(String(input.query ?? '')).text;
  const sizes = new Map(listing.files.map((f) => [f.path, f.size]));
  const sizeOf = (path: string) => sizes.get(path);
  // eslint-disable-next-line entry-points/no-restricted-paths -- loaded only when a search comes before any index exists
  const { provisionalSearch } = await import('../retrieve/provisional-search.js');
  const pathFilter = pathFilterOf(input.file_pattern as string | undefined);
  const files = listing.files.map((file) => file.path);
  const scan = await provisionalSearch(index.root, query, { limit: RANKED_FILES, pathFilter, maxFileBytes: index.settings.maxFileBytes, files });
  const ranked = scan.files.map((f) => f.path);
  if (ranked.length === 0) return { answer: null, reason: 'no file contains the query words', unbuildable: false };
  const listed = new Set(sizes.keys());
  const words = parseQuery(query).terms.map((t) => t.token);
  const named = filesNamedAfter(words, listed, isTestPath).filter((path) => pathFilter?.(path) ?? true);
  const seeds = focusSeeds([...named, ...ranked], sizeOf, budget);
  if (seeds.length === 0) return { answer: null, reason: 'no file the query words name or match fits the focused index', unbuildable: false };
  await index.indexFocused(seeds, { listing, logger: env.logger });
  const neighbours = focusNeighbours({ seeds, imports: importTargets(index.store, seeds, listed), ranked }, sizeOf, budget);
  if (neighbours.length > 0) await index.indexFocused(neighbours, { listing, logger: env.logger });
  const coverage: PartialCoverage = {
    indexedFiles: index.store.fileCounts().files,
    totalFiles: listing.files.length,
    rankedFiles: seeds.length,
    neighbourFiles: neighbours.length,
    complete: false,
  };
  const head = partialLine(env.repository.name, coverage);
  const budgetTokens = Math.max(MIN_BUDGET_TOKENS, env.budgetTokens - estimateTokens(head) - 1);
  const inner: ToolEnvironment = { ...env, budgetTokens };
  const data = await tool.run(input, inner);
  const text = `${head}\n${enforceBudget(tool.render(data, inner), budgetTokens)}`;
  const json = tool.toJson ? tool.toJson(data, inner) : data;
  return { answer: { isError: false, text, data: { ...(json as object), partialIndex: coverage } } };
}

/** The first line of a partial answer: what it covers, and that the full answer follows. */
export function partialLine(repository: string, coverage: PartialCoverage): string {
  const { indexedFiles, totalFiles, rankedFiles, neighbourFiles } = coverage;
  return (
    `[PARTIAL INDEX] '${repository}' is being indexed: this answer covers ${indexedFiles} of its ${countOf(totalFiles, 'file')} ` +
    `(the ${rankedFiles} named by the query or ranked first by a text scan for it, and ${neighbourFiles} they import or that come next); ` +
    'files outside them are not in it. The rest is indexed in the background; search again shortly for the full answer.'
  );
}
