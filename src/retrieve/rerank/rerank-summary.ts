/**
 * A rerank's figures without its windows, for answers. Kept apart from the
 * reranker itself (which needs the model clients of src/llm) so the tools
 * layer can show a rerank without loading any model code: the library entry
 * `reponav` must not load src/llm (test/package/entry-modules.test.ts).
 */
import type { RerankTrace } from './listwise-reranker.js';

/**
 * A rerank's figures without its windows: what answers (`--json`, the search
 * tool's JSON) carry. `fallback` is the failure's message when the retrieval
 * order was kept, else null.
 */
export type RerankSummary = Pick<RerankTrace, 'model' | 'calls' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'unknownIds' | 'repeatedIds' | 'missingIds' | 'cutReplies' | 'reasks'> & {
  candidates: number;
  fallback: string | null;
};

/** The {@link RerankSummary} of `trace`. */
export function summarizeRerank(trace: RerankTrace): RerankSummary {
  return {
    model: trace.model,
    candidates: trace.input.length,
    calls: trace.calls,
    inputTokens: trace.inputTokens,
    outputTokens: trace.outputTokens,
    costUsd: trace.costUsd,
    unknownIds: trace.unknownIds,
    repeatedIds: trace.repeatedIds,
    missingIds: trace.missingIds,
    cutReplies: trace.cutReplies,
    reasks: trace.reasks,
    fallback: trace.fallback ? trace.fallback.message : null,
  };
}
