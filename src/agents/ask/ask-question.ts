/**
 * `askQuestion`: answer one question about a repository with the chosen
 * method (MCTS search, ReAct, RAG or direct), under hard token and time
 * ceilings, and return the answer with verified citations, its cost and the
 * full trace. This is the library entry point the CLI and the SWE-QA
 * harness share.
 */
import { ReponavError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { ChatModel } from '../../llm/index.js';
import { UsageMeter, withUsageMeter } from '../../llm/index.js';
import type { Embedder } from '../../retrieve/dense/index.js';
import type { RepositorySet } from '../../tools/index.js';
import { createToolRegistry, type ToolRegistry } from '../../tools/index.js';
import { resolveAskSettings, type AskSettingsInput } from './ask-settings.js';
import { synthesizeAnswer, type SynthesisResult } from './answer-synthesis.js';
import { directAnswer, ragEvidence } from './baselines.js';
import { CitationChecker } from './citation-check.js';
import { questionTerms } from './evidence.js';
import type { ExecutionEnvironment } from './execution-role.js';
import { answerEvidence, runMctsSearch, type SearchProgress } from './mcts-search.js';
import { runReactAgent } from './react-agent.js';
import type { RoleRuntime } from './role-caller.js';
import { RunBudget } from './run-budget.js';
import { ASK_TRACE_VERSION, type AskCost, type AskMethod, type AskTrace, type TraceCitation, type StopReason } from './trace-types.js';
import { countOf } from '../../plural.js';

/** Options of one question. */
export interface AskOptions {
  question: string;
  /** Default `mcts`. */
  method?: AskMethod;
  /** The answering model (wrap it in a shared UsageMeter to cap a whole run's spend). */
  model: ChatModel;
  /** The repository to search; required for every method but `direct`. */
  repositories?: RepositorySet;
  /** Which repository of the set (omit when it holds one). */
  repo?: string;
  /** Recorded in the trace (the caller opened the index at it). */
  commit?: string | null;
  /** Name shown to the model, e.g. `pallets/flask`; default: the repository's name in the set. */
  repositoryLabel?: string;
  settings?: AskSettingsInput;
  logger?: Logger;
  signal?: AbortSignal;
  /** Milliseconds clock for the time budget; default `Date.now`. */
  clock?: () => number;
  /** Tools; default the built-in registry. */
  registry?: ToolRegistry;
  /** MCTS progress after each iteration. */
  onProgress?: (progress: SearchProgress) => void;
  /**
   * Dense retrieval for the tools (SemanticSearch and search fuse BM25 with
   * this embedder's nearest chunks, as in the paper); default BM25 only.
   */
  embedder?: Embedder;
}

/** The answer and everything about how it was made. */
export interface AskResult {
  answer: string;
  /** Citations that passed the check (the only ones left in `answer`). */
  citations: TraceCitation[];
  method: AskMethod;
  stopReason: StopReason;
  cost: AskCost;
  elapsedMs: number;
  trace: AskTrace;
}

/**
 * Answers `options.question`. Throws `ReponavError('BAD_INPUT')` for an empty
 * question or a missing repository; model failures, malformed replies and
 * exhausted budgets never throw — they shape the answer and the stop reason.
 * A failed model call (after the client's retries) or a model that replied
 * with nothing to every call ends the run with stop reason `llm-error`,
 * `trace.llmError` saying why and a marked fallback text: callers must treat
 * it as a failure, never as an answer.
 */
export async function askQuestion(options: AskOptions): Promise<AskResult> {
  const question = options.question.trim();
  if (question === '') throw new ReponavError('BAD_INPUT', 'The question is empty.');
  const method = options.method ?? 'mcts';
  const settings = resolveAskSettings(options.settings);
  const logger = options.logger ?? silentLogger;
  if (method !== 'direct' && !options.repositories) throw new ReponavError('BAD_INPUT', `Method ${method} needs a repository.`);
  const handle = options.repositories?.select(options.repo);
  // Index before the clock starts: the time budget is for answering.
  if (handle) await handle.refresh();

  const meter = new UsageMeter(
    {
      ...(settings.budgetTokens !== undefined ? { maxTokens: settings.budgetTokens } : {}),
      ...(settings.budgetUsd !== undefined ? { maxCostUsd: settings.budgetUsd } : {}),
    },
    { logger },
  );
  const budget = new RunBudget({ settings, meter, clock: options.clock, signal: options.signal });
  const rt: RoleRuntime = { model: withUsageMeter(options.model, meter), budget, records: [], logger };
  const startedAt = new Date().toISOString();
  const label = options.repositoryLabel ?? handle?.name ?? null;
  const trace: AskTrace = {
    version: ASK_TRACE_VERSION,
    method,
    question,
    repository: handle ? { name: options.repositoryLabel ?? handle.name, commit: options.commit ?? null } : null,
    modelId: options.model.id,
    settings: { ...settings },
    startedAt,
    elapsedMs: 0,
    stopReason: 'single-shot',
    iterationsRun: 0,
    nodes: [],
    iterations: [],
    answerPath: [],
    steps: [],
    answerEvidence: [],
    roleCalls: rt.records,
    answer: { text: '', citations: [], dropped: [], revised: false, draftProblems: [], fallback: false },
    cost: costOf(meter),
  };

  let synthesis: SynthesisResult;
  let unusable: string | null = null;
  if (method === 'direct') {
    const direct = await directAnswer(rt, { question, repository: label, settings });
    synthesis = { text: direct.text, citations: [], dropped: [], draftProblems: [], revised: false, fallback: direct.fallback, ...(direct.failure ? { failure: direct.failure } : {}) };
  } else {
    const registry = options.registry ?? createToolRegistry();
    const toolContext = { repositories: options.repositories!, logger, signal: options.signal, ...(options.embedder ? { embedder: options.embedder } : {}) };
    const exec: ExecutionEnvironment = {
      registry,
      toolContext,
      ...(options.repo ? { repo: options.repo } : {}),
      terms: questionTerms(question),
      maxEvidencePerAction: settings.maxEvidencePerAction,
      excerptLines: settings.excerptLines,
    };
    const synthEnv = {
      rt,
      checker: new CitationChecker({ registry, toolContext, repo: options.repo }),
      temperature: settings.answerTemperature,
      maxTokens: settings.maxReplyTokens * 2,
      repository: label,
      iteration: 0,
    };
    let draft: string | null = null;
    if (method === 'mcts') {
      const outcome = await runMctsSearch({ question, rt, exec, settings, onProgress: options.onProgress });
      trace.nodes = outcome.tree.nodes;
      trace.iterations = outcome.iterations;
      trace.iterationsRun = outcome.iterations.length;
      trace.answerPath = outcome.answerPath.map((n) => n.id);
      trace.stopReason = outcome.stopReason;
      trace.answerEvidence = answerEvidence(outcome.tree, outcome.answerPath, settings.maxAnswerEvidence);
      synthEnv.iteration = outcome.iterations.length;
    } else if (method === 'react') {
      const outcome = await runReactAgent({ question, rt, exec, settings });
      trace.steps = outcome.steps;
      trace.iterationsRun = outcome.steps.length;
      trace.stopReason = outcome.stopReason;
      trace.answerEvidence = outcome.evidence.slice(0, settings.maxAnswerEvidence);
      synthEnv.iteration = outcome.steps.length;
      draft = outcome.draft;
    } else {
      trace.answerEvidence = await ragEvidence(question, exec, settings);
    }
    // (An abort or a spent budget keeps its own reason and goes to the fallback answer.)
    // A search stopped by a ceiling (including a call refused before it was sent, which spends nothing and so
    // leaves hardStop() unset) keeps that reason: "nothing found" would hide why.
    const ceilingStop = ['budget-tokens', 'budget-cost', 'budget-seconds', 'aborted', 'llm-error'].includes(trace.stopReason);
    if (rt.llmFailure !== undefined) {
      // The model failed mid-run: nothing more is asked of it (see the outage check below).
      synthesis = { text: '', citations: [], dropped: [], draftProblems: [], revised: false, fallback: true };
    } else if (trace.answerEvidence.length === 0 && !budget.hardStop() && !ceilingStop && method !== 'rag' && !toolsRan(trace)) {
      // No tool ever ran: the model's replies were unusable, which is a model failure, not "nothing found".
      unusable = `no reply of the model led to a tool call (${countOf(rt.records.length, 'call')}; last problem: ${lastProblem(trace)})`;
      synthesis = { text: '', citations: [], dropped: [], draftProblems: [], revised: false, fallback: true };
    } else if (trace.answerEvidence.length === 0 && !budget.hardStop() && !ceilingStop) {
      // Nothing to answer from: a model answer would be written from memory and its citations could only be invented.
      trace.searchStopReason = trace.stopReason;
      trace.stopReason = 'no-evidence';
      synthesis = { text: noEvidenceAnswer(method, trace), citations: [], dropped: [], draftProblems: [], revised: false, fallback: false };
    } else {
      synthesis = await synthesizeAnswer(synthEnv, { question, evidence: trace.answerEvidence, ...(draft !== null ? { draft } : {}) });
    }
  }

  // An outage is never an answer: a failed call, or an endpoint that replied with nothing to every call.
  const outage = modelOutage(rt, meter.snapshot().calls) ?? unusable;
  if (outage !== null) {
    if (trace.stopReason !== 'llm-error') trace.searchStopReason = trace.stopReason;
    trace.stopReason = 'llm-error';
    trace.llmError = outage;
    synthesis = { text: `No answer was written: ${outage}.`, citations: [], dropped: [], draftProblems: [], revised: false, fallback: true };
  }
  // A fallback answer means the model could not be asked (abort, deadline, spend cap) or its reply was unusable: say which.
  if (synthesis.fallback && outage === null) {
    const reason = budget.hardStop() ?? (synthesis.failure ? (`answer-${synthesis.failure}` as const) : null);
    if (reason && reason !== trace.stopReason) {
      trace.searchStopReason = trace.stopReason;
      trace.stopReason = reason;
    }
  }
  trace.answer = {
    text: synthesis.text,
    citations: synthesis.citations,
    dropped: synthesis.dropped,
    revised: synthesis.revised,
    draftProblems: synthesis.draftProblems,
    fallback: synthesis.fallback,
    ...(synthesis.typeProblem !== undefined ? { typeProblem: synthesis.typeProblem } : {}),
  };
  trace.cost = costOf(meter);
  trace.elapsedMs = budget.elapsedMs();
  return { answer: synthesis.text, citations: synthesis.citations, method, stopReason: trace.stopReason, cost: trace.cost, elapsedMs: trace.elapsedMs, trace };
}

/**
 * Why the model is unusable for this run, or null: the first call that failed
 * after the client's retries, or every reply empty (an endpoint that only
 * answers with nothing is down as far as an answer is concerned). `calls`:
 * the calls the model answered (a call the spend cap refused is not one).
 */
function modelOutage(rt: RoleRuntime, calls: number): string | null {
  if (rt.llmFailure !== undefined) return `the model call failed (${rt.llmFailure.replace(/\.$/, '')})`;
  if (calls > 0 && (rt.nonEmptyReplies ?? 0) === 0) return `the model replied with nothing to all ${calls} call${calls === 1 ? '' : 's'}`;
  return null;
}

/** True when the search executed at least one action (a tool call), whatever it found. */
function toolsRan(trace: AskTrace): boolean {
  return trace.nodes.some((n) => n.action !== null && n.action.type !== 'Finish') || trace.steps.some((s) => s.action !== null && s.action.type !== 'Finish');
}

/** The last reason a model reply could not be used, for the llm-error sentence. */
function lastProblem(trace: AskTrace): string {
  const failed = trace.roleCalls.filter((c) => !c.ok && c.error);
  const rejected = trace.nodes.flatMap((n) => n.rejected).at(-1);
  return failed.at(-1)?.error ?? rejected?.reason ?? 'no action proposed';
}

/** The answer of a run that found no evidence: says so, and why the search ended. */
function noEvidenceAnswer(method: AskMethod, trace: AskTrace): string {
  const unit = `${method === 'react' ? 'step' : 'iteration'}${trace.iterationsRun === 1 ? '' : 's'}`;
  const what = method === 'rag' ? 'Retrieval returned' : `The search (${trace.iterationsRun} ${unit}, stopped: ${trace.searchStopReason}) found`;
  return `Nothing was found in the repository to answer this question: ${what} no code to cite, so no answer was written. Try rephrasing the question with names from the code, or a larger budget.`;
}

/** The meter's totals as an AskCost (cost null when no call had a known price). */
export function costOf(meter: UsageMeter): AskCost {
  const s = meter.snapshot();
  const priced = s.calls - s.unpricedCalls;
  return {
    calls: s.calls,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    totalTokens: s.totalTokens,
    // Rounded to a billionth of a dollar: float sums otherwise print as 0.003519000000000001.
    costUsd: s.calls > 0 && priced === 0 ? null : Math.round(s.costUsd * 1e9) / 1e9,
    unpricedCalls: s.unpricedCalls,
  };
}
