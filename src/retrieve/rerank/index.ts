/**
 * The optional model reranker (SweRank / RankGPT style listwise reranking of
 * the retrieval's top functions by a chat model).
 */
export {
  DEFAULT_RERANK_SETTINGS,
  rerankCandidates,
  resolveRerankSettings,
  type RerankAttemptTrace,
  type RerankCallOptions,
  type RerankFailurePolicy,
  type RerankOutcome,
  type RerankSettings,
  type RerankTrace,
  type RerankWindowTrace,
} from './listwise-reranker.js';
export { summarizeRerank, type RerankSummary } from './rerank-summary.js';
export { buildRerankMessages, cutToTokens, type PromptBudgets, type RerankCandidate, type TokenCounter } from './rerank-prompt.js';
export { parseRanking, type ParsedRanking, type RankingFormat } from './rerank-reply.js';
export { createFunctionReranker, rerankCandidatesOf, rerankFunctions, type FunctionReranker, type RerankedFunctions } from './rerank-functions.js';
export { slidingWindows, type WindowSpan } from './sliding-windows.js';
