/**
 * The reranker over a search's ranked functions: the top `candidates`
 * functions with their code read from the index, reranked by the model,
 * followed by the rest in retrieval order. Files and modules are left as
 * retrieval ranked them.
 */
import type { IndexStore } from '../../index/index.js';
import type { ChatModel } from '../../llm/index.js';
import type { RankedSymbol } from '../retrieval-types.js';
import { rerankCandidates, resolveRerankSettings, type RerankCallOptions, type RerankSettings, type RerankTrace } from './listwise-reranker.js';
import type { RerankCandidate } from './rerank-prompt.js';

/**
 * The candidates for `functions` (best first): each one's span and source
 * from the index. A function whose symbol or text is gone (the index moved
 * on) is offered with its name only and an empty body.
 */
export function rerankCandidatesOf(store: IndexStore, functions: readonly RankedSymbol[]): RerankCandidate[] {
  const texts = new Map<string, string[] | null>();
  return functions.map((f) => {
    if (!texts.has(f.path)) texts.set(f.path, store.fileText(f.path)?.split('\n') ?? null);
    const lines = texts.get(f.path);
    const symbol = store
      .symbolsOf(f.path)
      .filter((s) => s.qualifiedName === f.qualifiedName)
      .sort((a, b) => a.startLine - b.startLine)[0];
    const body = symbol && lines ? lines.slice(symbol.startLine - 1, symbol.endLine).join('\n') : '';
    return { id: `${f.path}:${f.qualifiedName}`, path: f.path, qualifiedName: f.qualifiedName, startLine: symbol?.startLine ?? null, endLine: symbol?.endLine ?? null, body };
  });
}

/** The functions reranked, and what the rerank did. */
export interface RerankedFunctions {
  functions: RankedSymbol[];
  trace: RerankTrace;
}

/**
 * Reranks the first `settings.candidates` of `functions` for `issue`; the
 * rest keep their places after them. Rejects as {@link rerankCandidates} does.
 */
export async function rerankFunctions(
  store: IndexStore,
  model: ChatModel,
  issue: string,
  functions: readonly RankedSymbol[],
  settings: Partial<RerankSettings> = {},
  options: RerankCallOptions = {},
): Promise<RerankedFunctions> {
  const s = resolveRerankSettings(settings);
  const top = functions.slice(0, s.candidates);
  const byId = new Map(top.map((f) => [`${f.path}:${f.qualifiedName}`, f]));
  const outcome = await rerankCandidates(model, issue, rerankCandidatesOf(store, top), s, options);
  return { functions: [...outcome.candidates.map((c) => byId.get(c.id)!), ...functions.slice(s.candidates)], trace: outcome.trace };
}

/**
 * A model and its rerank settings, bound: what a server holds to offer
 * reranking on its `search` tool (the tools never see the model itself).
 */
export interface FunctionReranker {
  /** The model's `provider:model` id. */
  readonly modelId: string;
  /** The effective settings (candidates, window, step, budgets, failure policy). */
  readonly settings: Readonly<RerankSettings>;
  /** {@link rerankFunctions} with the bound model and settings. */
  rerank(store: IndexStore, issue: string, functions: readonly RankedSymbol[], options?: RerankCallOptions): Promise<RerankedFunctions>;
}

/** Binds `model` and `settings` (checked now: throws BAD_INPUT for bad ones). */
export function createFunctionReranker(model: ChatModel, settings: Partial<RerankSettings> = {}): FunctionReranker {
  const resolved = Object.freeze(resolveRerankSettings(settings));
  return {
    modelId: model.id,
    settings: resolved,
    rerank: (store, issue, functions, options) => rerankFunctions(store, model, issue, functions, resolved, options),
  };
}
