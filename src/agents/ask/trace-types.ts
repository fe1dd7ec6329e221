/**
 * The JSON shape of an `ask` trace (`reponav ask --trace FILE`, and the
 * `trace` field of every AskResult). One document describes one question:
 * the settings it ran with, the whole search tree (MCTS) or step list
 * (ReAct), every model call with its token counts, the answer with its
 * checked citations, and the cost. The web view and offline inspection read
 * this shape; bump {@link ASK_TRACE_VERSION} on any incompatible change.
 *
 * Conventions: line numbers are 1-based and inclusive; scores are 0–100;
 * times are milliseconds; ids are small integers unique within one trace.
 */

/** Version of the trace document. */
export const ASK_TRACE_VERSION = 1;

/** How a question is answered. */
export type AskMethod = 'mcts' | 'react' | 'rag' | 'direct';

/** The six MCTS actions (the paper's names). */
export type ActionType = 'FindClass' | 'FindFunction' | 'FindCodeSnippet' | 'SemanticSearch' | 'ViewCode' | 'Finish';

/** One action as the model proposed it, after validation. */
export interface TraceAction {
  type: ActionType;
  /** Validated, normalised arguments (see actions.ts for each action's fields). */
  args: Record<string, unknown>;
  /** The dedupe key: action type + normalised arguments. */
  key: string;
  /** Why the planner proposed it (free text from the model). */
  rationale: string;
}

/** One citation-ready piece of evidence produced by an action. */
export interface TraceEvidence {
  /** Repository-relative path. */
  path: string;
  startLine: number;
  endLine: number;
  /** Qualified symbol name when the evidence is a symbol (class, function, chunk). */
  symbol: string | null;
  /** Numbered source lines, clipped (what the model saw). */
  excerpt: string;
  /** Last line the excerpt shows (< endLine when the span was clipped). */
  excerptEndLine: number;
  /** Which tool produced it. */
  tool: string;
  /** Ranking score within its action (higher is better). */
  rank: number;
}

/** One node of the search tree. The root has `action: null`. */
export interface TraceNode {
  id: number;
  parentId: number | null;
  childIds: number[];
  depth: number;
  /** Iteration in which the node was created (0 for the root). */
  createdAt: number;
  action: TraceAction | null;
  evidence: TraceEvidence[];
  /** The tool's rendered answer, clipped (for inspection only). */
  toolText: string | null;
  toolError: boolean;
  /** The Evaluation score (0–100), null for the root or when evaluation failed. */
  score: number | null;
  /** Evaluation's written reasons and suggested follow-up. */
  evaluation: { rationale: string; followUp: string } | null;
  /** Sum of the values back-propagated through this node (0–100 units). */
  valueSum: number;
  visits: number;
  /** No further children will be planned (planning found nothing new, or depth limit). */
  exhausted: boolean;
  /** Perception's summary when this node was expanded (last expansion wins). */
  perception: { summary: string; redundancy: string[]; gaps: string[]; promising: string[] } | null;
  /** Proposals planning made at this node that were dropped, and why. */
  rejected: Array<{ type: string; args: unknown; reason: string }>;
  /** Tokens spent on model calls attributed to this node. */
  tokens: { input: number; output: number };
  /** Finish nodes: whether it passed the checks that end the search, and why not (absent in older traces). */
  finishCheck?: { passed: boolean; reason: string | null };
}

/** Which role a model call served. */
export type RoleName = 'perception' | 'planning' | 'evaluation' | 'answer' | 'revision' | 'react' | 'direct';

/** One model call (retries are separate records with `attempt: 2`). */
export interface RoleCallRecord {
  role: RoleName;
  /** The node the call was about (MCTS), the step index (ReAct), or null. */
  nodeId: number | null;
  iteration: number;
  attempt: 1 | 2;
  temperature: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  latencyMs: number;
  /** Did the reply parse and validate (always true for free-text roles that returned)? */
  ok: boolean;
  /** Why not: the parse problem or the transport/budget error. */
  error?: string;
  /** What the reader did beyond the plain protocol (e.g. took the first of several JSON objects), and what the client noted (a request profile learned, tokens counted locally). */
  note?: string;
  /** The reply stopped at the output length limit (any provider). */
  cut?: boolean;
  /** Reasoning the reply carried (a `<think>` block or the endpoint's reasoning field); never parsed. */
  reasoning?: string;
  /** `local` when the endpoint reported no usage and the tokens were counted locally. */
  tokensCounted?: 'local';
}

/** One MCTS iteration, for replaying the search step by step. */
export interface TraceIteration {
  iteration: number;
  /** The node selection stopped at (by UCT from the root). */
  selectedId: number;
  /** The root-to-selected path of ids. */
  path: number[];
  /** Children created in this iteration. */
  createdIds: number[];
  /**
   * Nodes re-planned in this iteration that yielded nothing new (even after
   * the corrective round): each was closed as fully expanded and selection
   * ran again, so the iteration still made progress. Absent when none.
   */
  closedIds?: number[];
  /** Best node score seen so far after this iteration. */
  bestScore: number | null;
  tokensSoFar: number;
  elapsedMs: number;
}

/** One ReAct step. */
export interface TraceReactStep {
  step: number;
  thought: string;
  action: TraceAction | null;
  observation: string;
  evidence: TraceEvidence[];
  /** Set when the action was refused (not run) as the same action a third time in a row: how many times in a row. */
  repeated?: number;
}

/** A citation found in the answer and its verdict. */
export interface TraceCitation {
  /** As written in the answer, e.g. `cli.py:10-30`. */
  text: string;
  /** The indexed file it resolved to (null when none). */
  path: string | null;
  startLine: number;
  endLine: number;
  /** Identifiers the answer attributes to the span (`parse_args`). */
  names: string[];
  valid: boolean;
  /** Why it was rejected (`no such file`, `span past end of file (120 lines)`, `does not contain parse_args`). */
  reason: string | null;
}

/** Why a search stopped. */
export type StopReason =
  | 'finish'
  | 'iterations'
  | 'budget-tokens'
  | 'budget-seconds'
  | 'budget-cost'
  | 'plateau'
  | 'exhausted'
  | 'aborted'
  | 'single-shot'
  /** The search ended without any evidence: the answer says nothing was found (no model answer is written). */
  | 'no-evidence'
  /** The answer was cut at the length limit twice: a fallback (evidence list) was shipped instead. */
  | 'answer-truncated'
  /** The answer was empty twice: a fallback was shipped instead. */
  | 'answer-empty'
  /** The answer writer called tools instead of answering twice (native tool calls, with or without text): a fallback was shipped instead. */
  | 'answer-tool-call'
  /** A model call failed (after the client's retries), or every reply was empty: no answer was written (`AskTrace.llmError` says why). */
  | 'llm-error';

/** Money and tokens of one answer. */
export interface AskCost {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Sum over priced calls; null when no call had a known price. */
  costUsd: number | null;
  unpricedCalls: number;
}

/** The whole trace document. */
export interface AskTrace {
  version: typeof ASK_TRACE_VERSION;
  method: AskMethod;
  question: string;
  /** Repository name and commit (null for `direct`); never an absolute path, so traces are portable. */
  repository: { name: string; commit: string | null } | null;
  modelId: string;
  /** The resolved settings (see ask-settings.ts). */
  settings: Record<string, unknown>;
  startedAt: string;
  elapsedMs: number;
  /** Why the run ended (the answer's own reason when the answer could not be written or had no evidence). */
  stopReason: StopReason;
  /** Why the search (or ReAct loop) ended, when `stopReason` is about the answer instead (absent in old traces). */
  searchStopReason?: StopReason;
  /** With stop reason `llm-error`: the model failure, one sentence. */
  llmError?: string;
  iterationsRun: number;
  /** MCTS: every node, root first (id 0). Empty for other methods. */
  nodes: TraceNode[];
  iterations: TraceIteration[];
  /** MCTS: the path the answer was written from (root → Finish or best leaf). */
  answerPath: number[];
  /** ReAct only. */
  steps: TraceReactStep[];
  /** Evidence handed to answer synthesis, in the order given. */
  answerEvidence: TraceEvidence[];
  roleCalls: RoleCallRecord[];
  answer: {
    text: string;
    citations: TraceCitation[];
    /** Citations removed from the shipped answer. */
    dropped: TraceCitation[];
    /** A revision round ran because the first draft had bad (or no) citations. */
    revised: boolean;
    /** The rejected citations of the first draft that triggered the revision. */
    draftProblems: TraceCitation[];
    /** The answer was written without the model (budget ran out, or its reply was cut or empty twice): an evidence list. */
    fallback: boolean;
    /** The check against the question type (what/why/where/how) that the shipped answer still fails, if any. */
    typeProblem?: string | null;
  };
  cost: AskCost;
}
