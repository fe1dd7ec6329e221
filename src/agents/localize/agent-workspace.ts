/**
 * Everything one agent run acts on, opened together and closed together: the
 * repository view and its shell (every interface), and — only when the
 * interface has index tools — a fresh index with a tool registry restricted
 * to the interface's tools. The `bash` interface never pays for indexing.
 */
import { RepositoryIndex } from '../../index/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { Embedder } from '../../retrieve/dense/index.js';
import { createToolRegistry, RepositorySet, toolsWithSearchInterface, type ToolBudgets, type ToolContext, type ToolRegistry } from '../../tools/index.js';
import { CommitViewCache, openWorktreeView, SafeShell, type RepositoryView } from '../../sandbox/index.js';
import type { AgentInterface } from './agent-interfaces.js';

/** Shell settings shared by the CLI and the eval localizer. */
export interface ShellSettings {
  timeoutMs?: number;
  maxOutputChars?: number;
  allowAnyCommand?: boolean;
}

/** Options of {@link openAgentWorkspace}. */
export interface AgentWorkspaceOptions {
  /** A working tree, or (with `commit`) any git dir. */
  repoPath: string;
  /** Show the repository at this commit (materialised view + commit-mode index) instead of the working tree. */
  commit?: string;
  iface: AgentInterface;
  /** Where the index lives (default: the user cache). Ignored when `index` is given. */
  indexPath?: string;
  /** An index already open and fresh at the right commit (the eval pool's); not closed by the workspace. */
  index?: RepositoryIndex;
  /** Shared commit views; default a private cache closed with the workspace. */
  viewCache?: CommitViewCache;
  shell?: ShellSettings;
  toolBudgets?: ToolBudgets;
  /** Dense retrieval for the index tools (search fuses BM25 with it); default BM25 only. */
  embedder?: Embedder;
  logger?: Logger;
}

/** An open workspace. */
export interface AgentWorkspace {
  view: RepositoryView;
  shell: SafeShell;
  /** Present when the interface has index tools. */
  tools?: { registry: ToolRegistry; context: ToolContext };
  /** Time to materialise (or reuse) the view, ms. */
  viewMs: number;
  /** Time to open and refresh the index, ms (0 when none was needed or it was given). */
  indexMs: number;
  close(): Promise<void>;
}

/**
 * Opens the view, the shell and (when needed) the index. On failure,
 * whatever was opened is closed again before the error propagates.
 */
export async function openAgentWorkspace(options: AgentWorkspaceOptions): Promise<AgentWorkspace> {
  const logger = options.logger ?? silentLogger;
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const viewStarted = performance.now();
    let view: RepositoryView;
    if (options.commit) {
      const cache = options.viewCache ?? new CommitViewCache({ logger });
      if (!options.viewCache) cleanups.push(() => cache.close());
      view = await cache.acquire(options.repoPath, options.commit);
      cleanups.push(() => view.release());
    } else {
      view = openWorktreeView(options.repoPath);
    }
    const viewMs = performance.now() - viewStarted;
    const shell = await SafeShell.create({ view, ...options.shell, logger });
    cleanups.push(() => shell.close());

    let tools: AgentWorkspace['tools'];
    let indexMs = 0;
    if (options.iface.indexTools.length > 0) {
      const indexStarted = performance.now();
      let index = options.index;
      if (!index) {
        const opened = await RepositoryIndex.open(options.repoPath, { commit: options.commit, indexPath: options.indexPath, logger });
        cleanups.push(() => opened.close());
        await opened.refresh();
        index = opened;
      }
      indexMs = performance.now() - indexStarted;
      const view = options.iface.search;
      const registry = createToolRegistry({ include: options.iface.indexTools, ...(view && view.render !== 'scaffold' ? { tools: toolsWithSearchInterface(view.render) } : {}) });
      const context: ToolContext = {
        repositories: RepositorySet.of([index]),
        logger,
        budgets: options.toolBudgets,
        ...(options.embedder ? { embedder: options.embedder } : {}),
        // The scaffold ablations: the same search with blocks switched off.
        ...(view?.render === 'scaffold' ? { scaffold: { ...view.blocks } } : {}),
      };
      tools = { registry, context };
    }
    return { view, shell, tools, viewMs, indexMs, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

