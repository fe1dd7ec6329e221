/**
 * One tool call on one already opened repository: what a CLI command does.
 * Goes through callTool, so the CLI answers exactly what an MCP client would.
 */
import type { IndexReport, RepositoryIndex } from '../index/index.js';
import type { Logger } from '../logger.js';
import { RepositorySet } from './repository-set.js';
import { callTool } from './call-tool.js';
import type { ToolBudgets, ToolCallResult, ToolContext, ToolRegistry } from './tool-types.js';

export interface RunToolOnceOptions {
  logger?: Logger;
  budgets?: ToolBudgets;
  /** Default: the built-in registry (loaded then: a caller that names its registry loads no other tool). */
  registry?: ToolRegistry;
  /** Retrieval knobs for the search tools: dense fusion, an embedder, scaffold ablations. */
  context?: Pick<ToolContext, 'fuse' | 'embedder' | 'scaffold' | 'firstIndexElsewhere' | 'firstIndexFailure' | 'continueFirstIndex'>;
  /**
   * The report of a refresh the caller ran on `repository` just before this
   * call: the call's freshness gate takes it instead of checking the tree a
   * second time (see RepositoryHandle.markRefreshed).
   */
  refreshed?: IndexReport;
}

/**
 * Calls `toolName` with `args` on `repository` (which the caller opened and
 * keeps owning: it is not closed here). Never throws for tool errors; they
 * come back with `isError: true`.
 */
export async function runToolOnce(
  repository: RepositoryIndex,
  toolName: string,
  args: Record<string, unknown>,
  options: RunToolOnceOptions = {},
): Promise<ToolCallResult> {
  const repositories = RepositorySet.of([repository]);
  if (options.refreshed) repositories.all()[0].markRefreshed(options.refreshed);
  const registry = options.registry ?? (await import('./tool-registry.js')).createToolRegistry();
  return callTool(registry, toolName, args, {
    surface: 'cli',
    ...options.context,
    repositories,
    logger: options.logger,
    budgets: options.budgets,
  });
}
