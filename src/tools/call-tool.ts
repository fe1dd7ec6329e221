/**
 * The one way to call a tool. The MCP server, the CLI and the agents all go
 * through callTool, so validation, repository choice, freshness, budgeting and
 * error handling are identical everywhere. No tool is imported here (the
 * registry of all of them is tool-registry.ts).
 */
import type { $ZodError, $ZodType } from '../zod-mini.js';
import { isReponavError } from '../errors.js';
import { describeOpenFailure, isCorruption, type IndexProgress } from '../index/index.js';
import { silentLogger } from '../logger.js';
import { enforceBudget, resolveBudget } from './output-budget.js';
import { freshenForCall, stillIndexingText } from './tool-freshness.js';
import type { AnyToolDefinition, ToolCallResult, ToolContext, ToolEnvironment, ToolRegistry } from './tool-types.js';
import { prepareArgs } from './strict-args.js';
import { neverIndexed } from './provisional-answer.js';
import { structuredEnvelope, type Rerender } from './structured-envelope.js';
import { focusedFirstAnswer } from './focused-answer.js';
import type { FreshnessResult, RepositoryHandle } from './repository-set.js';

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
 * indexing is under way (not an error) and the index keeps building, or, for a
 * tool with a `provisional` answer on a tree not yet indexed, is that answer.
 * A read that meets damage SQLite proves ("database disk image is malformed")
 * rebuilds the index once and answers from the rebuilt one (with one warning
 * line); an index opened read-only is not rebuilt, and the answer says which
 * command repairs it.
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
  let repository: RepositoryHandle | undefined;
  try {
    const all = tool.repositoryOmitted === 'all' && (input.repo === undefined || input.repo === '');
    repository = all ? context.repositories.all()[0] : context.repositories.select(input.repo as string | undefined);
    const budgetTokens = resolveBudget(tool.name, tool.defaultBudgetTokens, input.budget_tokens as number | undefined, context.budgets);
    const asked = input.budget_tokens !== undefined || context.budgets?.perTool?.[tool.name] !== undefined || context.budgets?.defaultTokens !== undefined;
    const env: ToolEnvironment = { repository, context, budgetTokens, askedBudgetTokens: asked ? budgetTokens : null, logger };
    try {
      return enveloped(tool, env, await answer(tool, input, env));
    } catch (caught) {
      const damage = damageOf(caught);
      if (damage === null) throw caught;
      // SQLite proved the index damaged: rebuild it (as a truncated index is) and answer from the rebuilt one.
      const refused = repository.index.markDamaged(damage);
      if (refused) throw refused;
      const fresh = await freshenForCall(repository, context);
      if (fresh.state === 'indexing') return enveloped(tool, env, stillIndexing(tool.name, repository, fresh.progress));
      return enveloped(tool, env, await answer(tool, input, env));
    }
  } catch (caught) {
    // Damage met again after the rebuild, or raw from a read: one sentence with the command that repairs it.
    const described = repository && isCorruption(caught) ? describeOpenFailure(repository.index.store.path, caught) : caught;
    if (isReponavError(described)) return error(described.code, described.message);
    const message = caught instanceof Error ? caught.message : String(caught);
    logger.error(`tool ${tool.name} failed: ${caught instanceof Error ? (caught.stack ?? message) : message}`);
    // A person at the CLI has no server; an MCP client needs to know the server is still there.
    const next = context.surface === 'cli' ? 'try again, or report this with the command you ran' : 'the server keeps running; try again or report this';
    return error('INTERNAL', `Internal error in ${tool.name}: ${message}. ${next[0].toUpperCase()}${next.slice(1)}.`);
  }
}

/** A result as it leaves callTool, with the re-render that fits its text to a smaller budget when there is one. */
type Answered = ToolCallResult & { rerender?: Rerender };

/**
 * With `context.structuredOutput`, a tool with an outputSchema answers the
 * envelope `{ text, ...data }` whose JSON fits the budget (structured-envelope.ts),
 * and the same fitted text; otherwise the result as it is.
 */
function enveloped(tool: AnyToolDefinition, env: ToolEnvironment, answered: Answered): ToolCallResult {
  const { rerender, ...result } = answered;
  if (result.isError || env.context.structuredOutput !== true || !tool.outputSchema) return result;
  const envelope = structuredEnvelope(result.text, result.data, env.budgetTokens, rerender);
  return { ...result, text: envelope.text, data: envelope };
}

/** The freshness gate, then the tool (or its provisional answer while the first index is built elsewhere). */
async function answer(tool: AnyToolDefinition, input: Record<string, unknown>, env: ToolEnvironment): Promise<Answered> {
  const { repository, context, budgetTokens } = env;
  if ((tool.freshness ?? 'fresh') === 'fresh') {
    // A call that came while a focused first index runs answers after it, from what it started.
    await repository.focusDone();
    const first = await firstAnswer(tool, input, env);
    if (first) return first;
    // Another process builds the first index: a tool that can answer before it does so at once.
    const elsewhere = context.firstIndexElsewhere === true && tool.provisional !== undefined && neverIndexed(repository.index);
    const fresh: FreshnessResult = elsewhere ? { state: 'indexing', progress: null } : await freshenForCall(repository, context);
    if (fresh.state === 'indexing') {
      if (tool.provisional && neverIndexed(repository.index)) return provisionalResult(tool.provisional, input, env);
      return stillIndexing(tool.name, repository, fresh.progress);
    }
  }
  const data = await tool.run(input, env);
  const rerender: Rerender = (budget) => enforceBudget(tool.render(data, { ...env, budgetTokens: budget }), budget);
  return { text: rerender(budgetTokens), isError: false, data: tool.toJson ? tool.toJson(data, env) : data, rerender };
}

/**
 * The first search on a never-indexed working tree that no one indexes yet:
 * answered from a focused first index (focused-answer.ts), else, when that
 * fails or finds no file, provisionally; null when it does not apply (then the
 * call goes on as usual).
 */
async function firstAnswer(tool: AnyToolDefinition, input: Record<string, unknown>, env: ToolEnvironment): Promise<ToolCallResult | null> {
  const { repository, context } = env;
  if (!tool.provisional || context.focusedFirstIndex === false || context.firstIndexElsewhere === true) return null;
  if (repository.refreshing || !neverIndexed(repository.index)) return null;
  const continueIndex = context.continueFirstIndex ?? (() => void repository.refresh().catch(() => undefined));
  const outcome = await repository.focusing(() => focusedFirstAnswer(tool, input, env, continueIndex));
  if (outcome === null) return null;
  if (outcome.answer) return outcome.answer;
  // An index that cannot be written is said so (why, what to do), not promised as "being built".
  const told = outcome.unbuildable ? { ...env, context: { ...context, firstIndexUnbuildable: outcome.reason } } : env;
  return provisionalResult(tool.provisional, input, told);
}

/** A tool's provisional answer (a text scan standing in for the first index) as a call result, budgeted. */
async function provisionalResult(provisional: NonNullable<AnyToolDefinition['provisional']>, input: Record<string, unknown>, env: ToolEnvironment): Promise<ToolCallResult> {
  const answer = await provisional(input, env);
  return { isError: false, text: enforceBudget(answer.text, env.budgetTokens), data: answer.data };
}

/** The answer of a call that stopped waiting for indexing; a run that failed before this one is named, with why. */
function stillIndexing(toolName: string, repository: RepositoryHandle, p: IndexProgress | null): ToolCallResult {
  const before = repository.lastFailure;
  const failed = before ? `The previous indexing run failed (${before.replace(/\.$/, '')}); this call started it again. ` : '';
  return {
    isError: false,
    text: stillIndexingText(repository.name, p, `${failed}Call ${toolName} again in a little while.`),
    data: { indexing: true, repository: repository.name, done: p?.done ?? 0, total: p?.total ?? null, ...(before ? { previousFailure: before } : {}) },
  };
}

/**
 * SQLite's message when `caught` is damage it proved ("database disk image is
 * malformed": SQLITE_CORRUPT, SQLITE_NOTADB), raw or already described as
 * INDEX_CORRUPT; null for anything else (a newer schema is INDEX_CORRUPT too,
 * but no damage).
 */
function damageOf(caught: unknown): string | null {
  if (isCorruption(caught)) return (caught as Error).message;
  if (isReponavError(caught, 'INDEX_CORRUPT') && typeof caught.details?.damage === 'string') return caught.details.damage;
  return null;
}

function error(code: string, text: string): ToolCallResult {
  return { isError: true, text, errorCode: code };
}
