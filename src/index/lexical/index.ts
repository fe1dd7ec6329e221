/**
 * Lexical scoring over the full-text index: BM25 over chunks (FTS5 or exact,
 * from the postings), body phrases, term statistics, the index vocabulary and
 * the warm-up that keeps the first query after a refresh fast.
 */
export { bm25Chunks, bm25ChunksIn, chunkIdOfSymbol, chunkRangesOfFile, type ChunkScore, chunksWithBodyPhrase, chunksWithBodyPhraseUpTo, indexGeneration, type WeightedToken } from './chunk-queries.js';
export { indexVocabulary } from './index-vocabulary.js';
export { kthLargest } from './kth-largest.js';
export { B as BM25_B, K1 as BM25_K1 } from './postings-corpus.js';
export { scoringWarm, warmScoring, type IdleWarmer, type WarmScoringOptions, type WarmScoringReport } from './scoring-warmup.js';
export { termStatistics, type TermStatistics } from './term-statistics.js';
