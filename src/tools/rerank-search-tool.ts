/**
 * The `search` tool with a `rerank` argument, offered only by a server that
 * has a model reranker (ToolContext.reranker, `reponav mcp --rerank-model`):
 * `rerank: true` has the model order the search's top functions listwise
 * (retrieve/rerank) and shows that order above the scaffold. A model failure
 * is the call's error (isError), unless the server was started with the
 * fallback, and then the answer says the retrieval order was kept.
 */
import * as z from '../zod-mini.js';
import { estimateTokens } from '../budget/index.js';
import type { RerankTrace } from '../retrieve/rerank/index.js';
// The summary through the retrieve entry, not the rerank folder's entry: that one loads the model clients (src/llm),
// which the library entry `reponav` must not load; the reranker itself reaches this tool through ToolContext.reranker.
import { summarizeRerank } from '../retrieve/index.js';
import { ReponavError } from '../errors.js';
import { displayPath } from '../scaffold/index.js';
import { BUILTIN_TOOLS } from './builtin-tools.js';
import { clipLine } from './output-budget.js';
import { searchTool, type ScaffoldData } from './search-tools.js';
import { budgetArg, described, filePatternArg, lazySchema, queryArg, repoArg } from './tool-args.js';
import type { AnyToolDefinition, ToolDefinition, ToolEnvironment } from './tool-types.js';
import { searchOutputSchema } from './output-schemas.js';
import { countOf } from '../plural.js';

/** The functions the reranked block lists at most. */
const SHOWN = 10;

const rerankSearchInput = lazySchema(() =>
  z.strictObject({
    query: queryArg('What you are looking for: an issue text, an error message, or a few words and identifiers.'),
    file_pattern: filePatternArg(),
    rerank: described(
      z.optional(z.boolean()),
      'true: a language model reranks the top functions against the query (slower; costs model calls, a few thousand tokens). Use for an issue text when the order of candidates matters. Default false.',
    ),
    repo: repoArg(),
    budget_tokens: budgetArg(),
  }),
);

/** What the reranking `search` computes: the scaffold's data and, when asked, the rerank's trace. */
export interface RerankScaffoldData extends ScaffoldData {
  rerank: RerankTrace | null;
}

/** `search` with the `rerank` argument. */
export const rerankSearchTool: ToolDefinition<z.infer<ReturnType<typeof rerankSearchInput>>, RerankScaffoldData> = {
  ...(searchTool as unknown as ToolDefinition<z.infer<ReturnType<typeof rerankSearchInput>>, RerankScaffoldData>),
  get inputSchema() {
    return rerankSearchInput();
  },
  get outputSchema() {
    return searchOutputSchema();
  },
  async run(args, env) {
    const data = (await searchTool.run(args, env)) as ScaffoldData;
    if (!args.rerank) return { ...data, rerank: null };
    const reranker = env.context.reranker;
    if (!reranker) throw new ReponavError('BAD_INPUT', 'This server has no rerank model; call search without rerank, or start the server with --rerank-model.');
    const reranked = await reranker.rerank(env.repository.index.store, args.query, data.search.result.functions, { ...(env.context.signal ? { signal: env.context.signal } : {}), logger: env.logger });
    const result = { ...data.search.result, functions: reranked.functions };
    return { ...data, search: { ...data.search, result }, rerank: reranked.trace };
  },
  render(data, env) {
    if (!data.rerank) return searchTool.render(data, env);
    const block = rerankBlock(data, env);
    const rest = Math.max(0, env.budgetTokens - estimateTokens(block) - 2);
    return `${block}\n\n${searchTool.render(data, { ...env, budgetTokens: rest })}`;
  },
  toJson(data, env) {
    const json = searchTool.toJson!(data, env) as Record<string, unknown>;
    return data.rerank ? { ...json, rerank: summarizeRerank(data.rerank) } : json;
  },
};

/** The reranked functions, best first, with a line saying who ranked them and at what cost. */
function rerankBlock(data: RerankScaffoldData, env: ToolEnvironment): string {
  const trace = data.rerank!;
  const tokens = trace.inputTokens + trace.outputTokens;
  const head = trace.fallback
    ? `[RERANKED] not reranked: the model failed (${clipLine(trace.fallback.message, 200)}); functions in retrieval order:`
    : `[RERANKED] top functions as ${trace.model} ordered them (${countOf(trace.input.length, 'candidate')}, ${countOf(trace.calls, 'model call')}, ${countOf(tokens, 'token')}):`;
  const store = env.repository.index.store;
  const lines = data.search.result.functions.slice(0, SHOWN).map((f, i) => {
    const symbol = store.symbolsOf(f.path).find((s) => s.qualifiedName === f.qualifiedName);
    const span = symbol ? `:${symbol.startLine}-${symbol.endLine}` : '';
    return `${i + 1}. ${displayPath(f.path)}${span} ${f.qualifiedName}`;
  });
  return [head, ...(lines.length > 0 ? lines : ['(no functions)'])].join('\n');
}

/** The built-in tools with `search` taking `rerank` (for a server whose context has a reranker). */
export function toolsWithRerank(tools: readonly AnyToolDefinition[] = BUILTIN_TOOLS): AnyToolDefinition[] {
  return tools.map((tool) => (tool.name === 'search' ? rerankSearchTool : tool));
}
