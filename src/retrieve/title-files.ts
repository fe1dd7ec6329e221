/**
 * File-level evidence from the issue's title, kept out of the function ranking.
 * A title states the problem in the project's words ("Wrong column number for
 * ParamSpec", "Positional subpattern … causes type confusion"); a body may be
 * mostly a user's program and its output, whose words pull the file ranking
 * elsewhere. Raising the title's weight in the one search lifts the right file
 * (mypy: file Acc@5 0.455 → 0.727 at title ×4) but costs the function ranking,
 * so here the title shapes the files only: either a second search of the whole
 * query with other weights, whose files replace the ranked files
 * (`titleFiles.queryWeights`), or a search of the title alone, whose file scores are
 * added to the ranked files' (`titleFiles.weight`). Modules and functions are the
 * first search's either way. Both are off: the default ranks the file-identity
 * document against the title instead (file-level.ts, `fileLevel.titleWeight`),
 * which costs no second search and keeps the instance the title search loses.
 */
import { issueTitle, parseQuery, type ParsedQuery, type QueryTerm, type QueryWeights } from './query-parser.js';
import type { FileCandidate } from './retrieval-types.js';
import type { IndexStore } from '../index/index.js';

/** The settings of a search this module reads and sets (a part of retrieval-tuning.ts' TunedSearchOptions). */
interface SearchSettings {
  query?: { weights?: Partial<QueryWeights> };
  lexical?: { minInformativeTerms?: number };
  evidence?: { phrase?: number };
  titleFiles?: { weight?: number; queryWeights?: Partial<QueryWeights> };
  filesOnly?: boolean;
}

/** The title-file settings resolved (retrieval-tuning.ts' `ResolvedTuning.titleFiles`). */
export interface TitleFileTuning {
  /** Weight of a title-only search's files fused into the ranked files; 0 is off. */
  weight: number;
  /** Query weights of a second search whose files replace the ranked files; absent is off. */
  queryWeights?: Partial<QueryWeights>;
}

type Search<O, R> = (store: IndexStore, queryText: string, options: O) => Promise<R>;

/** True when a search needs {@link withTitleFiles}. */
export function usesTitleFiles(tuning: TitleFileTuning): boolean {
  return tuning.queryWeights !== undefined || tuning.weight > 0;
}

/**
 * Runs `search` without the title-file settings, then re-ranks its files by
 * them. The title search ranks files only; it leaves out words in half the
 * chunks or more (FTS5 gives them no weight, yet a title's `sympy` or `type`
 * made it score nearly every chunk) and quoted-message evidence (the first
 * search has it from the whole text, the title included).
 */
export async function withTitleFiles<O extends SearchSettings, R extends { files: FileCandidate[] }>(
  store: IndexStore,
  queryText: string,
  options: O,
  tuning: TitleFileTuning,
  search: Search<O, R>,
): Promise<R> {
  const rest: O = { ...options, titleFiles: { weight: 0 } };
  const result = await search(store, queryText, rest);
  let files = result.files;
  if (tuning.queryWeights) {
    const weights = { ...rest.query?.weights, ...tuning.queryWeights };
    files = (await search(store, queryText, { ...rest, query: { ...rest.query, weights }, filesOnly: true })).files;
  }
  const title = issueTitle(queryText);
  if (tuning.weight && title) {
    const titleSearch: O = { ...rest, filesOnly: true, lexical: { ...rest.lexical, minInformativeTerms: 1 }, evidence: { ...rest.evidence, phrase: 0 } };
    files = fuseFiles(files, (await search(store, title, titleSearch)).files, tuning.weight);
  }
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
