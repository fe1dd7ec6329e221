/**
 * The record of one agent run: every step (the model's reply, the action,
 * what it cost, what the model saw back) plus the outcome and the behaviour
 * figures of the paper's Table 2 (steps, tokens, list_symbols use, files
 * inspected, time). Serialised as-is for `--trace` and eval traces.
 */
import type { AgentInterfaceName } from './agent-interfaces.js';
import type { RankedAnswer } from './answer-format.js';

/** Why a run ended. */
export type StopReason =
  /** The model gave a valid answer (possibly after one correction). */
  | 'answered'
  | 'step-budget'
  | 'token-budget'
  /** The shared run-wide spend ceiling (UsageMeter) refused the next call. */
  | 'spend-budget'
  /** The answer stayed malformed after the one corrective message. */
  | 'malformed-answer'
  /** The model could not be reached (after retries). */
  | 'llm-error'
  /** The run's wall-clock deadline passed. */
  | 'deadline'
  /** The same format error several times in a row (see MAX_REPEATED_FORMAT_ERRORS). */
  | 'format-errors'
  /** Several empty replies in a row. */
  | 'empty-replies'
  /** The model answered, but every name in its answer was dropped (no such file, or not defined in the file it was named with). */
  | 'no-answer'
  | 'aborted';

/** Where the final answer came from. */
export type AnswerSource =
  | 'answer'
  /** The reply to the corrective message. */
  | 'corrected'
  /** Locations mentioned in a malformed answer. */
  | 'salvaged'
  /** No answer: the files the agent read, most recent first. */
  | 'inspected'
  | 'none';

/** What a step did. */
export type StepAction = 'tool' | 'bash' | 'answer' | 'bad-answer' | 'corrected-answer' | 'format-error' | 'truncated';

/** One model call and what followed it. */
export interface TrajectoryStep {
  /** 1-based; equals the number of model calls so far. */
  step: number;
  /** The model's full reply. */
  assistant: string;
  action: StepAction;
  /** Tool name (`bash` for the shell) for tool and bash steps. */
  tool?: string;
  /** Tool arguments as sent (hidden ones removed), or `{ command }` for bash. */
  args?: unknown;
  /** The text sent back to the model after this step (observation, correction or format hint); absent after the last. */
  observation?: string;
  /** Characters of the tool/shell output (before the budget footer). */
  outputChars: number;
  isError: boolean;
  /** Not run: the shell refused the command, or it was the same action a third time in a row (see `repeated`). */
  refused?: boolean;
  /** Set when the action was refused as a repeat: how many times in a row it had been asked for. */
  repeated?: number;
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null };
  modelMs: number;
  toolMs: number;
  /** The server's finish reason (`stop`, `length`, `max_tokens`, …) when it sent one. */
  finishReason?: string;
  /** The reply stopped at the output length limit (any provider). */
  cut?: boolean;
  /** Reasoning the reply carried (a `<think>` block or the endpoint's reasoning field); never read as an action. */
  reasoning?: string;
  /** What the model client noted (a request profile learned from the endpoint, tokens counted locally). */
  notes?: string[];
  /** Files this step read (shell cat/head/tail/sed/nl, list_symbols). */
  inspected?: string[];
}

/** Behaviour figures of one run (the paper's Table 2 per instance). */
export interface RunStats {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Sum over priced calls; null when no call had a known price. */
  costUsd: number | null;
  /** Calls per tool name (`bash` included). */
  toolCalls: Record<string, number>;
  listSymbolsUsed: boolean;
  /** Distinct files read via the shell or list_symbols. */
  filesInspected: number;
  inspectedFiles: string[];
  formatErrors: number;
  refusedCommands: number;
  /** Actions refused (not run) as the same action a third time in a row; not counted in `toolCalls`. */
  refusedRepeats: number;
  toolErrors: number;
  wallMs: number;
  modelMs: number;
  toolMs: number;
}

/** A whole run. `version` changes if the shape changes incompatibly. */
export interface Trajectory {
  version: 1;
  interface: AgentInterfaceName;
  model: string;
  startedAt: string;
  issue: string;
  systemPrompt: string;
  budgets: { maxSteps: number; maxTokens: number | null };
  steps: TrajectoryStep[];
  stopReason: StopReason;
  /** The error that ended the run (llm-error, spend-budget, aborted). */
  error?: string;
  answer: RankedAnswer;
  answerSource: AnswerSource;
  /** Answer entries dropped because the repository has no such file or name (absent in old traces). */
  dropped?: { count: number; names: string[] };
  stats: RunStats;
}

/** Totals and behaviour figures computed from the steps. */
export function computeStats(steps: readonly TrajectoryStep[], wallMs: number): RunStats {
  const toolCalls: Record<string, number> = {};
  const inspected: string[] = [];
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | null = null;
  let modelMs = 0;
  let toolMs = 0;
  let formatErrors = 0;
  let refusedCommands = 0;
  let refusedRepeats = 0;
  let toolErrors = 0;
  for (const step of steps) {
    inputTokens += step.usage.inputTokens;
    outputTokens += step.usage.outputTokens;
    if (step.usage.costUsd !== null) cost = (cost ?? 0) + step.usage.costUsd;
    modelMs += step.modelMs;
    toolMs += step.toolMs;
    if (step.action === 'format-error' || step.action === 'truncated') formatErrors++;
    if (step.repeated !== undefined) {
      refusedRepeats++;
      continue;
    }
    if (step.tool) toolCalls[step.tool] = (toolCalls[step.tool] ?? 0) + 1;
    if (step.refused) refusedCommands++;
    else if (step.isError && (step.action === 'tool' || step.action === 'bash')) toolErrors++;
    for (const file of step.inspected ?? []) if (!inspected.includes(file)) inspected.push(file);
  }
  return {
    steps: steps.length,
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    costUsd: cost,
    toolCalls,
    listSymbolsUsed: (toolCalls.list_symbols ?? 0) > 0,
    filesInspected: inspected.length,
    inspectedFiles: inspected,
    formatErrors,
    refusedCommands,
    refusedRepeats,
    toolErrors,
    wallMs,
    modelMs,
    toolMs,
  };
}

/** Files read, most recently read first (the fallback answer when the run ends without one). */
export function recentlyInspected(steps: readonly TrajectoryStep[]): string[] {
  const order: string[] = [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const files = steps[i]!.inspected ?? [];
    for (let j = files.length - 1; j >= 0; j--) if (!order.includes(files[j]!)) order.push(files[j]!);
  }
  return order;
}
