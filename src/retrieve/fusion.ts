/**
 * Hybrid retrieval: merges ranked chunk lists from different retrievers
 * (weighted BM25 and dense cosine) into one list, and builds the
 * `SearchOptions.fuse` hook that runs dense retrieval next to the lexical one.
 */
import type { IndexStore } from '../index/index.js';
import { silentLogger, type Logger } from '../logger.js';
import { denseSearch } from './dense/dense-retriever.js';
import { compareHitPlaces, compareHits } from './hit-order.js';
import { ensureEmbeddings } from './dense/embed-index.js';
import type { Embedder } from './dense/embedder.js';
import type { VectorStoreOptions } from '../index/index.js';
import { stripBoilerplate, type ParsedQuery } from './query-parser.js';
import type { ChunkHit } from './retrieval-types.js';
import { isTestPath, type SearchOptions } from './search-repository.js';

/** How two ranked lists become one. */
export type FusionMethod = 'rrf' | 'normalized';

/** The RRF smoothing constant of Cormack et al. (2009); it damps the dominance of the very top ranks. */
export const DEFAULT_RRF_K = 60;
/** Share of the dense retriever in the fused score; 0.5 ranks exactly like unweighted fusion. */
export const DEFAULT_DENSE_WEIGHT = 0.5;
/** Dense hits fetched per query: about the lexical over-fetch (2 × the 80 aggregated chunks is 160; dense precision falls off sooner). */
export const DEFAULT_DENSE_LIMIT = 100;

/** Options of {@link reciprocalRankFusion}. */
export interface RrfOptions {
  /** Smoothing constant; must be ≥ 0. Default 60. */
  k?: number;
  /** One weight per list (default 1 each). */
  weights?: number[];
}

/**
 * Reciprocal rank fusion: score(d) = Σᵢ wᵢ / (k + rankᵢ(d)) over the lists
 * containing d, ranks 1-based (a chunk repeated in one list counts at its best
 * rank). Uses only ranks, so lists with incomparable score scales fuse
 * safely. Returns every chunk of every list once, best first, carrying the
 * hit object of the first list that has it with the fused score. Ties (equal
 * up to float rounding) go to the better best rank, then to the earlier list,
 * then to the smaller chunk id — fully deterministic.
 */
export function reciprocalRankFusion(lists: ChunkHit[][], options: RrfOptions = {}): ChunkHit[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!(k >= 0)) throw new RangeError(`RRF k must be >= 0, got ${k}`);
  return fuse(lists, options.weights, (_hit, rank) => 1 / (k + rank));
}

/** Options of {@link normalizedScoreFusion}. */
export interface NormalizedFusionOptions {
  /** One weight per list (default 1 each). */
  weights?: number[];
}

/**
 * Min-max score fusion: each list's scores are mapped to [0, 1] (its best hit
 * 1, its worst 0; a list whose scores are all equal maps them all to 1), a
 * chunk absent from a list gets 0 there, and score(d) = Σᵢ wᵢ · normᵢ(d).
 * Sensitive to outliers and to where each list is cut off, but keeps score
 * gaps that ranks discard. Same output shape and tie rules as
 * {@link reciprocalRankFusion}.
 */
export function normalizedScoreFusion(lists: ChunkHit[][], options: NormalizedFusionOptions = {}): ChunkHit[] {
  const ranges = lists.map((list) => {
    let min = Infinity;
    let max = -Infinity;
    for (const hit of list) {
      min = Math.min(min, hit.score);
      max = Math.max(max, hit.score);
    }
    return { min, span: max - min };
  });
  return fuse(lists, options.weights, (hit, _rank, list) => {
    const { min, span } = ranges[list]!;
    return span > 0 ? (hit.score - min) / span : 1;
  });
}

/** Shared accumulation and deterministic ordering of both fusion methods. */
function fuse(lists: ChunkHit[][], weights: number[] | undefined, contribution: (hit: ChunkHit, rank: number, list: number) => number): ChunkHit[] {
  if (weights && weights.length !== lists.length) throw new RangeError(`got ${weights.length} weights for ${lists.length} lists`);
  const entries = new Map<number, { hit: ChunkHit; score: number; bestRank: number; firstList: number }>();
  lists.forEach((list, listIndex) => {
    const weight = weights?.[listIndex] ?? 1;
    const seen = new Set<number>();
    list.forEach((hit, index) => {
      if (seen.has(hit.chunkId)) return;
      seen.add(hit.chunkId);
      const rank = index + 1;
      const add = weight * contribution(hit, rank, listIndex);
      const entry = entries.get(hit.chunkId);
      if (!entry) entries.set(hit.chunkId, { hit, score: add, bestRank: rank, firstList: listIndex });
      else {
        entry.score += add;
        entry.bestRank = Math.min(entry.bestRank, rank);
      }
    });
  });
  return [...entries.values()]
    .sort((a, b) => {
      const scale = Math.max(Math.abs(a.score), Math.abs(b.score), 1e-300);
      if (Math.abs(a.score - b.score) > 1e-12 * scale) return b.score - a.score;
      return a.bestRank - b.bestRank || a.firstList - b.firstList || compareHitPlaces(a.hit, b.hit);
    })
    .map((e) => ({ ...e.hit, score: e.score }));
}

/** Options of {@link createDenseFusion}. */
export interface DenseFusionOptions {
  /**
   * Default `rrf`. BM25 scores are unbounded and depend on query length and
   * term weights, while cosine similarities sit in a narrow band of [-1, 1]
   * whose spread varies by model; ranks are the only scale the two share, so
   * RRF needs no per-model or per-query calibration. `normalized` (min-max)
   * keeps score gaps but is swayed by outliers and by where each list is cut.
   *
   * Caveat: RRF scores are flat (rank 1 → 1/61, rank 5 → 1/65) while a chunk
   * found by one retriever only gets about half the score of one found by
   * both, so the file aggregation downstream (α·best + (1−α)·mean of the top
   * 3) weighs "several chunks found by both" more than "one far better
   * chunk" than it does under BM25. Compare both methods on the dev split
   * with a real embedder before changing the default.
   */
  method?: FusionMethod;
  /** RRF constant. Default 60. */
  k?: number;
  /** Dense share in [0, 1]; the lexical list gets 1 − denseWeight. Default 0.5. */
  denseWeight?: number;
  /** Dense hits fetched per query. Default 100. */
  denseLimit?: number;
  /** The search's path filter, applied to dense hits as the lexical side applies it. */
  pathFilter?: (path: string) => boolean;
  /** Multiplier on positive similarities of test-file chunks, mirroring the search's `priors.test`. Default 0.5. */
  testFileFactor?: number;
  /**
   * Embed chunks that have no vector yet before each search (cheap when none
   * are missing). Useful in long-running servers that refresh the index per
   * call; a first search may then embed a whole repository. Default false.
   */
  embedMissing?: boolean;
  /** `throw` (default) rejects the search when dense retrieval fails; `lexical` logs a warning and returns the lexical hits. */
  onError?: 'throw' | 'lexical';
  logger?: Logger;
  signal?: AbortSignal;
  vectorStore?: VectorStoreOptions;
}

/**
 * Builds a `SearchOptions.fuse` hook that runs {@link denseSearch} for the
 * query (issue-template boilerplate stripped) and fuses its hits with the
 * lexical ones: RRF by default (see {@link DenseFusionOptions.method}),
 * lexical weight 1 − denseWeight, dense weight denseWeight. The result holds
 * the union of both lists, best first; `searchRepository` then cuts it to
 * `topChunks`. The store must have been embedded with the same embedder
 * (`ensureEmbeddings`), else the hook rejects with `EMBEDDER_ERROR` unless
 * `onError: 'lexical'`.
 */
export function createDenseFusion(
  store: IndexStore,
  embedder: Embedder,
  options: DenseFusionOptions = {},
): NonNullable<SearchOptions['fuse']> {
  const method = options.method ?? 'rrf';
  const denseWeight = options.denseWeight ?? DEFAULT_DENSE_WEIGHT;
  if (!(denseWeight >= 0 && denseWeight <= 1)) throw new RangeError(`denseWeight must be in [0, 1], got ${denseWeight}`);
  const denseLimit = options.denseLimit ?? DEFAULT_DENSE_LIMIT;
  const testFactor = options.testFileFactor ?? 0.5;
  const weights = [1 - denseWeight, denseWeight];
  const logger = options.logger ?? silentLogger;
  // Concurrent searches share one catch-up run instead of embedding the same chunks twice.
  let catchingUp: Promise<unknown> | null = null;

  return async (lexical: ChunkHit[], query: ParsedQuery): Promise<ChunkHit[]> => {
    let dense: ChunkHit[];
    try {
      if (options.embedMissing) {
        catchingUp ??= ensureEmbeddings(store, embedder, { signal: options.signal, logger, vectorStore: options.vectorStore }).finally(() => {
          catchingUp = null;
        });
        await catchingUp;
      }
      dense = await denseSearch(store, embedder, stripBoilerplate(query.text).trim(), denseLimit, {
        pathFilter: options.pathFilter,
        signal: options.signal,
        vectorStore: options.vectorStore,
      });
    } catch (error) {
      if (options.onError !== 'lexical') throw error;
      logger.warn(`dense retrieval failed, using lexical hits only: ${(error as Error).message}`);
      return lexical;
    }
    if (testFactor !== 1) {
      dense = dense
        .map((hit) => (hit.score > 0 && isTestPath(hit.path) ? { ...hit, score: hit.score * testFactor } : hit))
        .sort(compareHits);
    }
    return method === 'rrf'
      ? reciprocalRankFusion([lexical, dense], { k: options.k ?? DEFAULT_RRF_K, weights })
      : normalizedScoreFusion([lexical, dense], { weights });
  };
}
