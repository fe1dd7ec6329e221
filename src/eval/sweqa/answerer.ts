/**
 * What the SWE-QA harness needs of an answering method. eval owns this
 * contract and never imports an implementation: the CLI composes the
 * question-answering agent (agents/ask) into it (cli/commands/sweqa-command.ts),
 * and a test can pass any other.
 */
import type { ChatModel } from '../../llm/index.js';
import type { Logger } from '../../logger.js';
import type { RepositorySet } from '../../tools/index.js';

/** Tokens and spend of answering one question. */
export interface AnswerCost {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Sum over priced calls; null when no call had a known price. */
  costUsd: number | null;
  unpricedCalls: number;
}

/** One question as the harness hands it to the method. */
export interface SweqaAnswerInput {
  question: string;
  /** The answering model, already metered by the harness (its spend cap applies). */
  model: ChatModel;
  /** The question's repository at its commit; absent when the method reads no code. */
  repository?: { set: RepositorySet; commit: string };
  /** `owner/name`, for prompts. */
  repositoryLabel: string;
  logger: Logger;
  signal?: AbortSignal;
}

/** The method's answer, reduced to what the harness records and judges. */
export interface SweqaAnswer {
  answer: string;
  /** Citations kept in the answer, and citations dropped by the method's check. */
  citations: number;
  droppedCitations: number;
  /** The method's own stop reason (recorded as is). */
  stopReason: string;
  cost: AnswerCost;
  /** Stopped by the abort signal: not finished, so not judged (a resumed run redoes it). */
  interrupted: boolean;
  /** The spend cap cut the answer short and only a fallback is left (recorded as `budget`). */
  spendCapFallback: boolean;
  /**
   * The model failed (outage, HTTP error, timeout, only empty or unusable
   * replies): the answer is no answer. Recorded as `error` with this reason,
   * never judged; a resumed run answers the question again.
   */
  modelFailure: string | null;
  /** Writes the method's trace of this answer to `file` (the run's traces/ folder). */
  writeTrace(file: string): Promise<void>;
}

/** An answering method. */
export interface SweqaAnswerer {
  /** Name recorded in run.json and every record; a resumed run must use the same. */
  method: string;
  /** Every setting that can change an answer, resolved (defaults filled in); recorded in run.json and checked on resume. */
  settings: Record<string, unknown>;
  /** False for methods that answer from the model alone: the harness then opens no repository. */
  readsRepository: boolean;
  /** Answers one question. Throws only for failures (recorded as `error`, or `budget` for BUDGET_EXCEEDED). */
  answer(input: SweqaAnswerInput): Promise<SweqaAnswer>;
}
