/**
 * Fusing a file-level ranking (file-documents.ts: a file as one document) with
 * the chunk aggregation of file-aggregation.ts. The chunk ranking sees a file
 * only through its best few chunks among the top 80; a file-level document
 * sees what the file is as a whole (its path, the names it defines, or all of
 * its text), and can bring in a file none of whose chunks made the cut.
 */
import { compareText } from './hit-order.js';
import { derivedKey, kthLargest, snapshotOf, type DerivedKey, type IndexStore } from '../index/index.js';
import { fileDocumentIndex, fileDocumentScores, type FileDocumentIndex, type FileDocumentKind, type FileScore } from './file-documents.js';
import { samePaths } from './file-documents-update.js';
import type { FileCandidate } from './retrieval-types.js';
import { fuseFiles } from './title-files.js';

/** How a file-level ranking joins the chunk aggregation. */
export interface FileLevelOptions {
  /**
   * Which document describes a file: `identity` (path + defined names),
   * `content` (the whole file), or `both` (each ranking divided by its best
   * score, summed).
   */
  document: FileDocumentKind | 'both';
  /**
   * `boost`: a file gains weight × the best aggregated score × its file-level
   * score / the best file-level score. `rrf`: reciprocal rank fusion,
   * 1/(k + chunk rank) + weight/(k + file-level rank), rescaled so the best
   * file keeps the best aggregated score (the symbol ranking mixes file scores
   * with chunk scores, so they stay on that scale).
   */
  method: 'boost' | 'rrf';
  weight: number;
  /** RRF constant (default 60). */
  k: number;
  /** How many of the file-level ranking's best files may join without a chunk among the hits (0: none). */
  candidates: number;
  /**
   * Whether the symbol ranking reads the fused file ranking (true) or the
   * chunk aggregation's (false: the file-level ranking then changes only the
   * file list; a file whose name matches the query can otherwise pull the
   * function ranking to its methods).
   */
  rankSymbols: boolean;
  /**
   * Weight of the same document ranked against the title alone
   * (a multi-line query's first line), added to the file list as
   * title-files.ts's fuseFiles does: weight × the best file score × the
   * file's share of the best title score; the title ranking's best files may
   * join the list. 0 turns it off. The title names the problem in the
   * project's words, the body's pasted program and logs pull the ranking
   * elsewhere. Scored against what files *are* (path and defined names), a
   * title of words the whole codebase uses (mypy's "Generic type aliases
   * with TypeVar defaults…") reaches files named after them, where a chunk
   * search of the title (title-files.ts, `titleFiles.weight`) lifts the longest
   * modules that use them everywhere. Costs one postings walk over a few terms.
   */
  titleWeight: number;
}

/**
 * The default: the identity document, added as a boost of 0.35 × the best file
 * score, to the file list only. Chosen at 0.7 on the 12 development
 * repositories (file Acc@1 +0.119 [0.052, 0.185] against no identity); six
 * repositories nobody tuned on (fix-commit proxies, bench/history-instances.mjs)
 * then showed that weight lifting test files whose names hold the query's
 * words: 0.35 there file Acc@5 +0.031 [0.009, 0.057] (8 won / 1 lost), five of
 * six repositories up; on the 12 development repositories one instance lower
 * (yt-dlp), file Acc@3 higher. Weight 0, which leave-one-repository-out over
 * all 18 picks on 16 folds, drops diffusers to file Acc@5 0.588, below issue
 * 14's floor of 0.60 (docs/retrieval.md).
 * The title's own identity ranking at 0.45 on top: file Acc@5 0.815 → 0.867,
 * +0.052 [0.015, 0.089] (7 won / 0 lost), file Acc@1 +0.007 (8/7), no
 * repository lower, functions unchanged; leave-one-repository-out chose it on
 * 11 of 12 folds.
 */
export const DEFAULT_FILE_LEVEL: FileLevelOptions = { document: 'identity', method: 'boost', weight: 0.35, k: 60, candidates: 0, rankSymbols: false, titleWeight: 0.45 };

/**
 * How many of the title ranking's best files are fused (the shares of the
 * rest are near zero, and joining them would only lengthen the list).
 */
const TITLE_RANKED_FILES = 50;

/**
 * `files` with the file-level ranking of the title alone (`rankedTitle`, best
 * first) fused in at `weight`; unchanged at weight 0 or without a ranking.
 */
export function fuseTitleLevel(files: FileCandidate[], rankedTitle: readonly FileScore[], weight: number): FileCandidate[] {
  if (!(weight > 0) || rankedTitle.length === 0) return files;
  return fuseFiles(files, rankedTitle.slice(0, TITLE_RANKED_FILES).map((r) => ({ path: r.path, score: r.score, hits: [] })), weight);
}

/**
 * The aggregated files re-scored with the file-level ranking `ranked` (best
 * first), plus up to `candidates` files of it that had no chunk hit; best
 * first, equal scores by path.
 */
export function fuseFileLevel(files: FileCandidate[], ranked: readonly FileScore[], options: FileLevelOptions): FileCandidate[] {
  if (files.length === 0 || ranked.length === 0 || !(options.weight > 0)) return files;
  const best = files[0]!.score;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const out: FileCandidate[] = files.map((f) => ({ ...f }));
  for (const r of ranked.slice(0, options.candidates)) if (!byPath.has(r.path)) out.push({ path: r.path, score: 0, hits: [] });
  if (options.method === 'boost') {
    const top = ranked[0]!.score;
    // Only the listed files' scores are read: a map of those few (not of the ~10^4 ranked files) looked up once per ranked file.
    const scoreOf = new Map<string, number | undefined>(out.map((f) => [f.path, undefined]));
    for (const r of ranked) if (scoreOf.has(r.path)) scoreOf.set(r.path, r.score);
    for (const f of out) f.score += (options.weight * best * (scoreOf.get(f.path) ?? 0)) / top;
  } else {
    const fileLevelRank = new Map(ranked.map((r, i) => [r.path, i + 1]));
    const fused = out.map((f, i) => {
      const chunkRank = i < files.length ? i + 1 : Infinity;
      const rank = fileLevelRank.get(f.path) ?? Infinity;
      return 1 / (options.k + chunkRank) + options.weight / (options.k + rank);
    });
    const top = Math.max(...fused);
    out.forEach((f, i) => (f.score = (best * fused[i]!) / top));
  }
  return out.sort((a, b) => b.score - a.score || compareText(a.path, b.path));
}

/**
 * The file-level ranking of a query: BM25 over `document` (file-documents.ts;
 * each divided by its best score, so `both` weighs the two alike)
 * with the query's first `maxTerms` terms, each file's score times `prior`
 * (the chunk ranking's path priors: tests, stubs, code outside the library),
 * files failing `pathFilter` left out; the best `ordered` files first in
 * order (best first, equal scores by path), the rest after them in no
 * promised order (default: all in order). With `keep`, those after the
 * `ordered` best are only the files `keep` holds (the fusions read no others).
 */
export function rankFileDocuments(
  store: IndexStore,
  terms: readonly { token: string; weight: number }[],
  document: FileDocumentKind | 'both',
  prior: (path: string) => number,
  pathFilter?: (path: string) => boolean,
  ordered = Infinity,
  keep?: ReadonlySet<string>,
): FileScore[] {
  const order = (a: FileScore, b: FileScore) => b.score - a.score || compareText(a.path, b.path);
  if (document !== 'both') {
    // One document kind: its files are distinct, so no summing map (a string-keyed map of ~10^4 files per query),
    // and their scores stay in arrays: an object is made only for a file that is returned.
    const index = fileDocumentIndex(store, document);
    const { touched, scores } = fileDocumentScores(index, terms);
    const top = bestScore(touched, scores);
    const priors = priorTable(store, document, index, prior);
    const files = new Int32Array(touched.length);
    const ranked = new Float64Array(touched.length);
    let count = 0;
    for (const file of touched) {
      if (pathFilter && !pathFilter(index.paths[file]!)) continue;
      files[count] = file;
      // 0 + x: the summed form's value, bit for bit.
      ranked[count++] = (0 + scores[file]! / top) * priors[file]!;
    }
    const bound = count > ordered && ordered >= 1 ? kthLargest(ranked, ordered, count) : -Infinity;
    const head: FileScore[] = [];
    const tail: FileScore[] = [];
    for (let i = 0; i < count; i++) {
      const path = index.paths[files[i]!]!;
      if (ranked[i]! >= bound) head.push({ path, score: ranked[i]! });
      else if (!keep || keep.has(path)) tail.push({ path, score: ranked[i]! });
    }
    return head.sort(order).concat(tail);
  }
  const summed = new Map<string, number>();
  for (const kind of ['identity', 'content'] as const) {
    // Only the best score is needed here (the list is sorted once below), not scoreFileDocuments' sorted list.
    const index = fileDocumentIndex(store, kind);
    const { touched, scores } = fileDocumentScores(index, terms);
    const top = bestScore(touched, scores);
    for (const file of touched) {
      const path = index.paths[file]!;
      summed.set(path, (summed.get(path) ?? 0) + scores[file]! / top);
    }
  }
  const list: FileScore[] = [];
  for (const [path, score] of summed) if (!pathFilter || pathFilter(path)) list.push({ path, score: score * prior(path) });
  if (list.length <= ordered) return list.sort(order);
  // Every file scoring at least the ordered-th best score, sorted, is exactly the sorted list's prefix; a
  // large repository matches ~10^4 files per query, and sorting all of them twice per search cost ~20% of it.
  const values = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) values[i] = list[i]!.score;
  const bound = kthLargest(values, ordered);
  const head: FileScore[] = [];
  const tail: FileScore[] = [];
  for (const f of list) {
    if (f.score >= bound) head.push(f);
    else if (!keep || keep.has(f.path)) tail.push(f);
  }
  return head.sort(order).concat(tail);
}

/**
 * Each prior's factor for every file of one document kind's index, by file
 * number, per index state, with the paths they were computed over. Carried:
 * after an edit that keeps every path a table still holds for the same prior
 * function (path-prior.ts keeps it while the layout lasts).
 */
type PriorTables = { paths: readonly string[]; byPrior: WeakMap<(path: string) => number, Float64Array> };
const PRIOR_TABLES: Record<FileDocumentKind, DerivedKey<PriorTables>> = {
  identity: derivedKey('file prior tables (identity)', { carried: true }),
  content: derivedKey('file prior tables (content)', { carried: true }),
};

/**
 * `prior` of every file of `index` (the state's `kind` index), computed once
 * per index state and prior function: a search asks for ~10^4 matching files
 * twice, and a path lookup per file cost a sixth of a warm search on a large
 * tree. Callers that pass the same function for an index state
 * (search-repository.ts' per-state priors) hit the table; a new function
 * builds a new one.
 */
function priorTable(store: IndexStore, kind: FileDocumentKind, index: FileDocumentIndex, prior: (path: string) => number): Float64Array {
  const { byPrior } = snapshotOf(store).derive(PRIOR_TABLES[kind], (earlier) =>
    earlier && samePaths(earlier.paths, index.paths) ? { paths: index.paths, byPrior: earlier.byPrior } : { paths: index.paths, byPrior: new WeakMap() },
  );
  let table = byPrior.get(prior);
  if (!table) byPrior.set(prior, (table = Float64Array.from(index.paths, (path) => prior(path))));
  return table;
}

/** The best of the touched files' scores (1 when none, so nothing divides by −∞). */
function bestScore(touched: readonly number[], scores: Float64Array): number {
  let top = touched.length > 0 ? -Infinity : 1;
  for (const file of touched) if (scores[file]! > top) top = scores[file]!;
  return top;
}

/**
 * How many of a file-level ranking's best files {@link fuseFileLevel} and
 * {@link fuseTitleLevel} read in rank order under `options` (the others only
 * by path): `rankFileDocuments`' `ordered` for them.
 */
export function orderedFiles(options: FileLevelOptions): number {
  return options.method === 'rrf' ? Infinity : Math.max(TITLE_RANKED_FILES, options.candidates, 1);
}
