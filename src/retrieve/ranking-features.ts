/**
 * Per-candidate feature vectors of one search, read off the values its own
 * stages computed (no second search): the learned ranker's input
 * (learned-ranker.ts) and the training data of `bench/ranker-features.mjs`.
 *
 * Every name in {@link FEATURE_NAMES} is stable: a model file lists the names
 * it was trained on and is refused when they differ. Scores are divided by the
 * best score of the same list (so they are comparable across queries), ranks
 * are 1/(1+rank) (0 when the candidate is absent from that list), and the
 * static features (test path, stub, depth, size) are centred on the mean over
 * the query's candidates, so they say "more or less than the other candidates"
 * rather than a repository's absolute layout.
 */
import type { IndexStore } from '../index/index.js';
import { aggregateFiles, DEFAULT_AGGREGATION } from './file-aggregation.js';
import { nameShare, queryNames } from './named-functions.js';
import type { ChunkHit, FileCandidate, RankedSymbol } from './retrieval-types.js';
import type { FileScore } from './file-documents.js';
import type { ParsedQuery } from './query-parser.js';
import { isTestPath } from './path-prior.js';

/** The three ranked lists of a search answer. */
export type RankingLevel = 'file' | 'module' | 'function';
export const RANKING_LEVELS = ['file', 'module', 'function'] as const satisfies readonly RankingLevel[];

/** The chunk hits after each stage that changes their scores, in pipeline order. */
export const HIT_STAGES = ['bm25', 'priors', 'file-name', 'path-frame', 'phrase'] as const;
export type HitStage = (typeof HIT_STAGES)[number];

/** What searchRepository records of its stages when asked for features. */
export interface SearchTrace {
  hits: Partial<Record<HitStage, readonly ChunkHit[]>>;
  /** The chunk aggregation's file list (before the file-level fusions). */
  chunkFiles?: readonly FileCandidate[];
  /** The file-as-document ranking fused into the file list. */
  fileDocuments?: readonly FileScore[];
  /** The title's file-as-document ranking. */
  titleDocuments?: readonly FileScore[];
  /** The path prior's factor of a path (1 when no prior applies). */
  prior?: (path: string) => number;
}

const STATIC_FILE = ['test', 'stub', 'depth', 'log-symbols'] as const;
const STATIC_MODULE = ['test', 'depth', 'log-lines'] as const;
const STATIC_FUNCTION = [...STATIC_MODULE, 'method'] as const;
/**
 * The hit stages whose file aggregation is a feature: the last stage's is the
 * chunk aggregation itself with the default settings (the stages after it are
 * off), so it would only repeat `chunk-score`.
 */
const FILE_HIT_STAGES = HIT_STAGES.filter((s) => s !== 'phrase');

/** Feature names per level, in vector order. */
export const FEATURE_NAMES: { readonly [L in RankingLevel]: readonly string[] } = {
  file: [
    'hand-score', 'hand-rank', 'chunk-score', 'chunk-rank',
    ...FILE_HIT_STAGES.flatMap((s) => [`${s}-score`, `${s}-rank`]),
    'best-hit', 'hits', 'prior', 'doc-score', 'doc-rank', 'title-score', 'title-rank', ...STATIC_FILE,
  ],
  // A module is a top-level name, never a method: it has no `method` column (it would be constant).
  module: ['hand-score', 'hand-rank', 'file-score', 'file-rank', 'best-hit', 'hits', 'named', 'in-file', ...STATIC_MODULE],
  function: ['hand-score', 'hand-rank', 'file-score', 'file-rank', 'best-hit', 'hits', 'named', 'in-file', ...STATIC_FUNCTION],
};

/** One level's candidates (the answer's first ones, in its order) and their vectors. */
export interface LevelFeatures {
  /** `path` (file level) or `path:qualifiedName`. */
  keys: string[];
  x: number[][];
}
export type SearchFeatures = { [L in RankingLevel]: LevelFeatures };

/** What a search answer holds that the features read. */
export interface RankedLists {
  files: readonly FileCandidate[];
  modules: readonly RankedSymbol[];
  functions: readonly RankedSymbol[];
  parsedQuery: ParsedQuery;
}

/** Candidate key of a symbol (`path:qualifiedName`). */
export const symbolKey = (s: { path: string; qualifiedName: string }): string => `${s.path}:${s.qualifiedName}`;

/**
 * Feature vectors of the first `top` candidates of each level of `answer`,
 * from the stage values in `trace` (a stage the trace lacks reads as 0).
 */
export function rankingFeatures(store: IndexStore, answer: RankedLists, trace: SearchTrace, top = 30): SearchFeatures {
  const files = answer.files.slice(0, top);
  const fileValues = listValues(answer.files.map((f) => [f.path, f.score]));
  const chunkValues = listValues((trace.chunkFiles ?? []).map((f) => [f.path, f.score]));
  const stageValues = FILE_HIT_STAGES.map((stage) => {
    const hits = trace.hits[stage];
    return listValues(hits ? aggregateFiles(hits.slice(0, DEFAULT_AGGREGATION.topChunks), DEFAULT_AGGREGATION).map((f) => [f.path, f.score]) : []);
  });
  const docValues = listValues((trace.fileDocuments ?? []).map((f) => [f.path, f.score]));
  const titleValues = listValues((trace.titleDocuments ?? []).map((f) => [f.path, f.score]));
  const finalHits = trace.hits.phrase ?? [];
  const bestHit = finalHits[0]?.score || 1;
  const hitsOf = new Map<string, ChunkHit[]>();
  for (const hit of finalHits.slice(0, DEFAULT_AGGREGATION.topChunks)) {
    const list = hitsOf.get(hit.path);
    if (list) list.push(hit);
    else hitsOf.set(hit.path, [hit]);
  }
  const fileX = files.map((f) => {
    const hits = hitsOf.get(f.path) ?? [];
    return [
      ...fileValues.of(f.path), ...chunkValues.of(f.path),
      ...stageValues.flatMap((v) => v.of(f.path)),
      (hits[0]?.score ?? 0) / bestHit, hits.length / 10, trace.prior ? trace.prior(f.path) : 1,
      ...docValues.of(f.path), ...titleValues.of(f.path),
      testPath(f.path), stubPath(f.path), depth(f.path), Math.log10(1 + store.symbolCountOf(f.path)),
    ];
  });
  const names = queryNames(answer.parsedQuery.identifiers, answer.parsedQuery.terms, answer.parsedQuery.frames.flatMap((fr) => (fr.functionName ? [fr.functionName] : [])));
  const symbolLevel = (list: readonly RankedSymbol[], level: 'module' | 'function'): LevelFeatures => {
    const head = list.slice(0, top);
    const values = listValues(list.map((s) => [symbolKey(s), s.score]));
    const perFile = new Map<string, number>();
    for (const s of head) perFile.set(s.path, (perFile.get(s.path) ?? 0) + 1);
    const x = head.map((s) => {
      const own = (hitsOf.get(s.path) ?? []).filter((h) => h.symbol !== null && covers(s.qualifiedName, h.symbol, level));
      const row = store.symbolsOf(s.path).find((r) => r.qualifiedName === s.qualifiedName);
      const lines = row ? row.endLine - row.startLine + 1 : 1;
      return [
        ...values.of(symbolKey(s)), ...fileValues.of(s.path),
        (own[0]?.score ?? 0) / bestHit, own.length / 5, nameShare(s.qualifiedName, names, s.path), (perFile.get(s.path) ?? 0) / 5,
        testPath(s.path), depth(s.path), Math.log10(lines), ...(level === 'function' ? [s.qualifiedName.includes('.') ? 1 : 0] : []),
      ];
    });
    return { keys: head.map(symbolKey), x: centred(x, FEATURE_NAMES[level].length - (level === 'function' ? STATIC_FUNCTION : STATIC_MODULE).length) };
  };
  return {
    file: { keys: files.map((f) => f.path), x: centred(fileX, FEATURE_NAMES.file.length - STATIC_FILE.length) },
    module: symbolLevel(answer.modules, 'module'),
    function: symbolLevel(answer.functions, 'function'),
  };
}

/** Whether a hit on `hitSymbol` counts for the candidate `qualifiedName` (its own chunk or a nested one; a module also its members'). */
function covers(qualifiedName: string, hitSymbol: string, level: 'module' | 'function'): boolean {
  if (hitSymbol === qualifiedName || hitSymbol.startsWith(`${qualifiedName}.`)) return true;
  return level === 'module' && hitSymbol.split('.')[0] === qualifiedName;
}

/** A ranked list's score over its best and 1/(1+rank), per key; [0, 0] for a key it lacks. */
function listValues(list: readonly (readonly [string, number])[]): { of(key: string): [number, number] } {
  const best = list[0]?.[1] || 1;
  const at = new Map<string, [number, number]>();
  list.forEach(([key, score], rank) => {
    if (!at.has(key)) at.set(key, [score / best, 1 / (1 + rank)]);
  });
  return { of: (key) => at.get(key) ?? [0, 0] };
}

/** Columns from `from` on, minus their mean over the rows; values rounded to 1e-6 so vectors are stable across platforms' last bits. */
function centred(x: number[][], from: number): number[][] {
  if (x.length === 0) return x;
  const width = x[0]!.length;
  const mean = new Array<number>(width).fill(0);
  for (const row of x) for (let j = from; j < width; j++) mean[j]! += row[j]! / x.length;
  return x.map((row) => row.map((v, j) => Math.round((j >= from ? v - mean[j]! : v) * 1e6) / 1e6));
}

const testPath = (path: string) => (isTestPath(path) ? 1 : 0);
const stubPath = (path: string) => (/\.pyi$|\.d\.ts$/.test(path) ? 1 : 0);
const depth = (path: string) => path.split('/').length - 1;
