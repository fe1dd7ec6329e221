/**
 * File-level evidence from the issue's title, kept out of the function ranking.
 * A title states the problem in the project's words ("Wrong column number for
 * ParamSpec", "Positional subpattern … causes type confusion"); a body may be
 * mostly a user's program and its output, whose words pull the file ranking
 * elsewhere. Raising the title's weight in the one search lifts the right file
 * (mypy: file Acc@5 0.455 → 0.727 at title ×4) but costs the function ranking,
 * so here the title shapes the files only: either a second search of the whole
 * query with other weights, whose files replace the ranked files
 * (`fileQueryWeights`), or a search of the title alone, whose file scores are
 * added to the ranked files' (`titleFileWeight`). Modules and functions are the
 * first search's either way. Both are off: the default ranks the file-identity
 * document against the title instead (file-level.ts, `fileLevel.titleWeight`),
 * which costs no second search and keeps the instance the title search loses.
 */
import { issueTitle, parseQuery, type ParsedQuery, type QueryTerm, type QueryWeights } from './query-parser.js';
import type { FileCandidate } from './retrieval-types.js';
import type { IndexStore } from '../index/index.js';

/** The file-level settings of a search (part of search-repository.ts's SearchOptions). */
export interface TitleFileOptions {
  /**
   * Query weights of a second search whose files replace the ranked files;
   * modules and functions keep the first search's. Off unless given.
   */
  fileQueryWeights?: Partial<QueryWeights>;
  /** Weight of a title-only search's files fused into the ranked files (default 0: off); modules and functions unchanged. */
  titleFileWeight?: number;
  /** Stop after ranking files (modules and functions left empty): for a search whose files alone are used. */
  filesOnly?: boolean;
}

/** The other settings this module sets. */
type SearchSettings = TitleFileOptions & { queryWeights?: Partial<QueryWeights>; minInformativeTerms?: number; phraseBoost?: number };

/**
 * The title search ranks files only; it leaves out words in half the chunks
 * or more (FTS5 gives them no weight, yet a title's `sympy` or `type` made it
 * score nearly every chunk) and quoted-message evidence (the first search has
 * it from the whole text, the title included).
 */
const TITLE_SEARCH: SearchSettings = { filesOnly: true, minInformativeTerms: 1, phraseBoost: 0 };

type Search<O, R> = (store: IndexStore, queryText: string, options: O) => Promise<R>;

/**
 * Default of `SearchOptions.titleFileWeight`: off. On the 12 dev repositories
 * (135 instances), on top of the file-identity document (`fileLevel`), 0.5
 * gave file Acc@5 0.815 → 0.859 (+0.044 [0.007, 0.089], 7 won / 1 lost) with
 * functions unchanged, but the one loss is the worst repository's (mypy
 * 0.636 → 0.545, below issue 14's 0.60 floor); see docs/retrieval.md.
 */
export const DEFAULT_TITLE_FILE_WEIGHT = 0;

/** True when a search needs {@link withTitleFiles}. */
export function usesTitleFiles(options: TitleFileOptions): boolean {
  return options.fileQueryWeights !== undefined || (options.titleFileWeight ?? DEFAULT_TITLE_FILE_WEIGHT) > 0;
}

/** Runs `search` without the file-level settings, then re-ranks its files by them. */
export async function withTitleFiles<O extends SearchSettings, R extends { files: FileCandidate[] }>(
  store: IndexStore,
  queryText: string,
  options: O,
  search: Search<O, R>,
): Promise<R> {
  const { fileQueryWeights } = options;
  const titleFileWeight = options.titleFileWeight ?? DEFAULT_TITLE_FILE_WEIGHT;
  const rest: O = { ...options, fileQueryWeights: undefined, titleFileWeight: 0 };
  const result = await search(store, queryText, rest);
  let files = result.files;
  if (fileQueryWeights) files = (await search(store, queryText, { ...rest, queryWeights: { ...rest.queryWeights, ...fileQueryWeights }, filesOnly: true })).files;
  const title = issueTitle(queryText);
  if (titleFileWeight && title) files = fuseFiles(files, (await search(store, title, { ...rest, ...TITLE_SEARCH })).files, titleFileWeight);
  return { ...result, files };
}

/** The weighted terms of a multi-line query's title (its parse's `title`) parsed on its own; none for a one-line query. */
export function titleTerms(query: ParsedQuery, weights: QueryWeights): QueryTerm[] {
  return query.title ? parseQuery(query.title, weights).terms : [];
}

/**
 * Adds to each file's score `weight` × the best file score × its share of the
 * best score in `extra` (files only `extra` has join with that share alone),
 * best first; ties keep the first list's order, then the second's.
 */
export function fuseFiles(files: readonly FileCandidate[], extra: readonly FileCandidate[], weight: number): FileCandidate[] {
  if (extra.length === 0 || weight === 0) return [...files];
  const top = files[0]?.score ?? extra[0]!.score;
  const extraTop = extra[0]!.score;
  const share = new Map(extra.map((f) => [f.path, extraTop > 0 ? f.score / extraTop : 0]));
  const out = files.map((f) => ({ ...f, score: f.score + weight * top * (share.get(f.path) ?? 0) }));
  const present = new Set(files.map((f) => f.path));
  for (const f of extra) if (!present.has(f.path)) out.push({ ...f, score: weight * top * share.get(f.path)! });
  const position = new Map(out.map((f, i) => [f.path, i]));
  return out.sort((a, b) => b.score - a.score || position.get(a.path)! - position.get(b.path)!);
}
