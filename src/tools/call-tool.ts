/**
 * The one way to call a tool. The MCP server, the CLI and the agents all go
 * through callTool, so validation, repository choice, freshness, budgeting and
 * error handling are identical everywhere. No tool is imported here (the
 * registry of all of them is tool-registry.ts).
 */
import type { $ZodError, $ZodType } from 'zod/v4/core';
import { isReponavError } from '../errors.js';
import { silentLogger } from '../logger.js';
import { enforceBudget, resolveBudget } from './output-budget.js';
import { freshenForCall, stillIndexingText } from './tool-freshness.js';
import type { AnyToolDefinition, ToolCallResult, ToolContext, ToolEnvironment, ToolRegistry } from './tool-types.js';
import type { RepositoryHandle } from './repository-set.js';
import { pathFilterOf } from './tool-args.js';
import { prepareArgs } from './strict-args.js';

/** A registry of exactly one tool: what a CLI command that runs that tool needs. */
export function singleToolRegistry(tool: AnyToolDefinition): ToolRegistry {
  const tools = new Map([[tool.name, tool]]);
  return { tools, list: () => [tool], get: (name) => tools.get(name) };
}

/** A zod error as one sentence per problem: `start: must be at least 1`. */
export function formatArgumentError(toolName: string, error: $ZodError): string {
  const problems = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    if (issue.code === 'unrecognized_keys') return `${where}unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    return `${where}${issue.message}`;
  });
  return `Invalid arguments for ${toolName}: ${problems.join('; ')}.`;
}

/**
 * Calls tool `name` with raw `args`. Never throws: unknown tools, invalid
 * arguments, paths outside the repository, missing files and internal
 * failures all come back as `{ isError: true, text: <one actionable message> }`.
 * Before the handler runs, the chosen repository is refreshed (unless the tool
 * is `as-is`); if that takes longer than `context.indexWaitMs`, the answer says
 * indexing is under way (not an error) and the index keeps building.
 */
export async function callTool(registry: ToolRegistry, name: string, args: unknown, context: ToolContext): Promise<ToolCallResult> {
  const logger = context.logger ?? silentLogger;
  const tool = registry.get(name);
  if (!tool) {
    return error('UNKNOWN_TOOL', `Unknown tool '${String(name).slice(0, 100)}'. Available tools: ${[...registry.tools.keys()].join(', ')}.`);
  }
  const prepared = prepareArgs(tool.name, tool.inputSchema as unknown as $ZodType, args ?? {});
  if (!prepared.ok) return error('INVALID_ARGUMENTS', prepared.message);
  const parsed = tool.inputSchema.safeParse(prepared.args);
  if (!parsed.success) return error('INVALID_ARGUMENTS', formatArgumentError(tool.name, parsed.error));
  const input = parsed.data as Record<string, unknown>;
  try {
    const all = tool.repositoryOmitted === 'all' && (input.repo === undefined || input.repo === '');
    const repository = all ? context.repositories.all()[0] : context.repositories.select(input.repo as string | undefined);
    if ((tool.freshness ?? 'fresh') === 'fresh') {
      const fresh = await freshenForCall(repository, context);
      if (fresh.state === 'indexing') {
        const provisional = await provisionalAnswer(tool, repository, input, context);
        if (provisional) return provisional;
        const p = fresh.progress;
        return {
          isError: false,
          text: stillIndexingText(repository.name, p, `Call ${tool.name} again in a little while.`),
          data: { indexing: true, repository: repository.name, done: p?.done ?? 0, total: p?.total ?? null },
        };
      }
    }
    const budgetTokens = resolveBudget(tool.name, tool.defaultBudgetTokens, input.budget_tokens as number | undefined, context.budgets);
    const env: ToolEnvironment = { repository, context, budgetTokens, logger };
    const data = await tool.run(input, env);
    const text = enforceBudget(tool.render(data, env), budgetTokens);
    return { text, isError: false, data: tool.toJson ? tool.toJson(data, env) : data };
  } catch (caught) {
    if (isReponavError(caught)) return error(caught.code, caught.message);
    const message = caught instanceof Error ? caught.message : String(caught);
    logger.error(`tool ${tool.name} failed: ${caught instanceof Error ? (caught.stack ?? message) : message}`);
    return error('INTERNAL', `Internal error in ${tool.name}: ${message}. The server keeps running; try again or report this.`);
  }
}

/**
 * While a working tree's first index is still being built, a search answers
 * from a provisional text scan (marked so in its text and data) instead of
 * "call again"; null for other tools, commits and indexes that exist already.
 */
async function provisionalAnswer(
  tool: AnyToolDefinition,
  repository: RepositoryHandle,
  input: Record<string, unknown>,
  context: ToolContext,
): Promise<ToolCallResult | null> {
  if (tool.name !== 'search' && tool.name !== 'snippet_search') return null;
  const index = repository.index;
  if (index.source.mode !== 'worktree' || index.store.getMeta('indexed') !== null) return null;
  // eslint-disable-next-line entry-points/no-restricted-paths -- loaded only when a search comes before any index exists
  const { provisionalSearch, renderProvisional } = await import('../retrieve/provisional-search.js');
  const result = await provisionalSearch(index.root, String(input.query), { pathFilter: pathFilterOf(input.file_pattern as string | undefined) });
  const budget = resolveBudget(tool.name, tool.defaultBudgetTokens, input.budget_tokens as number | undefined, context.budgets);
  return {
    isError: false,
    text: enforceBudget(renderProvisional(result, repository.name), budget),
    data: { provisional: true, query: result.query, provisionalFiles: result.files, repository: repository.name },
  };
}

function error(code: string, text: string): ToolCallResult {
  return { isError: true, text, errorCode: code };
}
