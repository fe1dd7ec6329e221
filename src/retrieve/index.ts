/**
 * Public surface of the retrieval layer: query parsing, BM25 over chunks, file
 * aggregation, symbol ranking, and dense retrieval with fusion
 * (dense/index.ts).
 */
export { aggregateFiles, DEFAULT_AGGREGATION, type AggregationOptions } from './file-aggregation.js';
export { createDenseFusion, normalizedScoreFusion, reciprocalRankFusion, type FusionMethod } from './fusion.js';
export { parseQuery, type ParsedQuery } from './query-parser.js';
export { MAX_KEPT_QUERY_CHARS, reduceLongQuery, type ReducedQuery } from './long-query.js';
export type { ChunkHit, ChunkKind, DocHit, DocPlacement, FileCandidate, RankedSymbol, RetrievalResult } from './retrieval-types.js';
export { isDocumentationPath, mergeWithDocs } from './doc-search.js';
export { searchRepository, type SearchOptions, type SearchResult } from './search-repository.js';
/** For the evaluation harness only (src/eval, bench/): not re-exported by the package's entry points. */
export { searchWithTuning, DEFAULT_TUNING, type RetrievalTuning, type TunedSearchOptions } from './search-repository.js';
export { DEFAULT_RANKER, RANKER_KINDS, type RankerKind } from './ranker-kind.js';
export { rankerIdentity } from './ranker-identity.js';
export type { RankerModel, RankerModelError } from './learned/learned-ranker.js';
export type { RankingLevel, SearchFeatures } from './ranking-features.js';
export { STOPWORDS } from './stopwords.js';
export { fileGraph, mapSymbolRows, pageRank, rankedFiles, MAX_DEFINITIONS_PER_CALL, type FileGraph } from './file-centrality.js';
/** Types only: the provisional scan itself is loaded on demand (tools/provisional-answer.ts). */
export type { ProvisionalFile, ProvisionalResult } from './provisional-search.js';
export { isTestPath } from './path-prior.js';
export { DEFAULT_FOCUS_BUDGET, filesNamedAfter, focusLeavesFiles, focusNeighbours, focusSeeds, type FocusBudget, type NeighbourInput, type SizeOf } from './focused-files.js';
// The model reranker's summary only: the reranker (retrieve/rerank) needs the model clients, which this entry does not load.
export { summarizeRerank, type RerankSummary } from './rerank/rerank-summary.js';
