/**
 * Execution: run a node's action through the tool registry (the same
 * callTool the MCP server and CLI use), then filter, rank and dedupe the
 * tool's spans into evidence the answer can cite. Deterministic — no model
 * call — so its cost is one tool call and the evidence is reproducible.
 */
import type { IndexStore } from '../../index/index.js';
import { callTool, type ToolRegistry } from '../../tools/index.js';
import type { ToolContext } from '../../tools/index.js';
import { toolArgsFor } from './actions.js';
import { buildEvidence, spansFromToolData } from './evidence.js';
import type { TraceAction, TraceEvidence } from './trace-types.js';

/** Longest tool text kept in the trace. */
const MAX_TOOL_TEXT = 4000;

/** What running actions needs. */
export interface ExecutionEnvironment {
  registry: ToolRegistry;
  toolContext: ToolContext;
  /** Repository name for multi-repository sets; omitted for one. */
  repo?: string;
  terms: ReadonlySet<string>;
  maxEvidencePerAction: number;
  excerptLines: number;
}

/** The outcome of one action. */
export interface ExecutionResult {
  evidence: TraceEvidence[];
  toolText: string | null;
  toolError: boolean;
}

/** The index store the actions read (for excerpts and citation checks). */
export function storeOf(env: Pick<ExecutionEnvironment, 'toolContext' | 'repo'>): IndexStore {
  return env.toolContext.repositories.select(env.repo).index.store;
}

/**
 * Runs `action` (Finish runs nothing) and returns evidence not already shown
 * by `seen` (the trajectory's evidence). Tool errors come back as
 * `toolError` with the tool's message; they never throw.
 */
export async function executeAction(env: ExecutionEnvironment, action: TraceAction, seen: readonly TraceEvidence[]): Promise<ExecutionResult> {
  const call = toolArgsFor(action);
  if (!call) return { evidence: [], toolText: null, toolError: false };
  const args = env.repo ? { ...call.args, repo: env.repo } : call.args;
  const result = await callTool(env.registry, call.tool, args, env.toolContext);
  const toolText = result.text.length > MAX_TOOL_TEXT ? `${result.text.slice(0, MAX_TOOL_TEXT)}…` : result.text;
  if (result.isError) return { evidence: [], toolText, toolError: true };
  const store = storeOf(env);
  const spans = spansFromToolData(call.tool, result.data, store, env.excerptLines);
  const evidence = buildEvidence(call.tool, spans, store, {
    terms: env.terms,
    seen,
    maxItems: env.maxEvidencePerAction,
    excerptLines: env.excerptLines,
  });
  return { evidence, toolText, toolError: false };
}
