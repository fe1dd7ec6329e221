/**
 * The localization agent, mini-SWE-agent style: a fixed loop of model call →
 * one action → observation, bounded by a step budget and a token budget,
 * ending with a ranked list of files and functions. All interfaces run this
 * same loop with the same prompt template; only the tools differ.
 */
import { isReponavError, ReponavError } from '../../errors.js';
import type { ChatMessage, ChatModel, ChatResponse } from '../../llm/index.js';
import { correctiveMessage } from '../../llm/index.js';
import { silentLogger, type Logger } from '../../logger.js';
import { estimateTokens } from '../../budget/index.js';
import { callTool, type ToolContext, type ToolRegistry } from '../../tools/index.js';
import { RepeatGuard, repeatRefusal, toolCallKey } from '../ask/index.js';
import type { SafeShell } from '../../sandbox/index.js';
import { parseAction, parseCorrectedAnswer } from './action-protocol.js';
import type { AgentInterface } from './agent-interfaces.js';
import { checkAnswerAgainstRepository, type DefinedNames } from './answer-check.js';
import { emptyAnswer, normalizePath, salvageLocations, toRankedAnswer, type AnswerInput, type RankedAnswer } from './answer-format.js';
import { buildSystemPrompt, buildTaskMessage } from './system-prompt.js';
import { interfaceToolSpecs, withoutHiddenArguments } from './tool-specs.js';
import { computeStats, recentlyInspected, type AnswerSource, type StopReason, type Trajectory, type TrajectoryStep } from './trajectory.js';
import { countOf } from '../../plural.js';

/** Default step budget (model calls per run). */
export const DEFAULT_MAX_STEPS = 30;
/** Default token budget per run (input + output over all calls). */
export const DEFAULT_MAX_TOKENS = 500_000;
/** Identical format errors (or empty replies) in a row after which the run stops: the model is not going to fix it. */
export const MAX_REPEATED_FORMAT_ERRORS = 3;

/** Sent when an answer block was cut at the length limit (the one corrective message). */
export const TRUNCATED_ANSWER_MESSAGE =
  'Your answer was cut off at the length limit. Reply with only the answer JSON, shorter: your best few files and functions, no explanation.';

/** Sent after a reply cut at the length limit (once in a row; a second cut reply is read as it is). */
export const TRUNCATED_REPLY_MESSAGE =
  'Your reply was cut off at the length limit, so it was not used. Reply again, shorter: at most one sentence of thought, then exactly one action.';

/** Options of {@link runLocalizationAgent}. */
export interface LocalizationAgentOptions {
  model: ChatModel;
  issue: string;
  iface: AgentInterface;
  /** The shell bound to the repository view (every interface has it). */
  shell: SafeShell;
  /** Index tools; required when the interface has any. The registry must hold them. */
  tools?: { registry: ToolRegistry; context: ToolContext };
  /** Default {@link DEFAULT_MAX_STEPS}. */
  maxSteps?: number;
  /** Per-run token budget; default {@link DEFAULT_MAX_TOKENS}; null for none. */
  maxTokens?: number | null;
  /** Cap on each reply's length (sent as the request's maxTokens); default: not sent. */
  maxOutputTokens?: number;
  /** Default 0. */
  temperature?: number;
  /**
   * Wall-clock limit of the run in milliseconds, passed into every model and
   * tool call as an abort signal; the run ends with stop reason `deadline`.
   * Default: none.
   */
  deadlineMs?: number;
  /**
   * The folder the agent's view shows. When given, the answer's files and
   * names are checked against it and those that do not exist are dropped
   * (counted in `dropped`).
   */
  repoRoot?: string;
  /** Entries kept per answer level; default 50. */
  maxPredictions?: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Called after each step is complete (progress displays). */
  onStep?: (step: TrajectoryStep) => void;
}

/** Text of an observation for the model, without the budget footer. */
interface Observation {
  text: string;
  outputChars: number;
  isError: boolean;
  refused?: boolean;
  inspected?: string[];
  toolMs: number;
}

/**
 * Runs one localization. Never throws for model behaviour or model/network
 * failures: those end the run with a `stopReason` (and `error`) and whatever
 * answer it has. Throws BAD_INPUT only for a misconfiguration (index tools
 * missing for an interface that needs them, non-positive budgets).
 */
export async function runLocalizationAgent(options: LocalizationAgentOptions): Promise<Trajectory> {
  const { model, iface, shell } = options;
  const logger = options.logger ?? silentLogger;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxTokens = options.maxTokens === undefined ? DEFAULT_MAX_TOKENS : options.maxTokens;
  if (!(maxSteps >= 1) || (maxTokens !== null && !(maxTokens >= 1))) {
    throw new ReponavError('BAD_INPUT', `Agent budgets must be positive (maxSteps ${maxSteps}, maxTokens ${maxTokens}).`);
  }
  const specs = interfaceToolSpecs(iface, shell, options.tools?.registry);

  const started = performance.now();
  const startedAt = new Date().toISOString();
  const deadline = options.deadlineMs !== undefined ? AbortSignal.timeout(options.deadlineMs) : undefined;
  const signal = deadline && options.signal ? AbortSignal.any([options.signal, deadline]) : (deadline ?? options.signal);
  const run: LocalizationAgentOptions = { ...options, signal };
  const systemPrompt = buildSystemPrompt({ iface, toolSpecs: specs, maxSteps, maxTokens: maxTokens ?? undefined });
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: buildTaskMessage(options.issue) },
  ];
  const steps: TrajectoryStep[] = [];
  let usedTokens = 0;
  let lastInputTokens = 0;
  /** Estimated tokens of messages added since the last call (the next call's growth). */
  let addedTokens = messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0);
  let awaitingCorrection = false;
  let stopReason: StopReason | null = null;
  let error: string | undefined;
  let answer: AnswerInput | null = null;
  let answerSource: AnswerSource = 'none';
  const malformed: string[] = [];
  /** The last format error and how many times in a row it was given. */
  let repeated = { reason: '', count: 0 };
  let truncatedInARow = 0;
  const repeats = new RepeatGuard();

  while (stopReason === null) {
    if (signal?.aborted) {
      stopReason = deadline?.aborted ? 'deadline' : 'aborted';
      break;
    }
    // The reply to the one corrective message is part of answering, so it may exceed the step budget by one.
    if (steps.length >= maxSteps && !awaitingCorrection) {
      stopReason = 'step-budget';
      break;
    }
    // Stop before a call whose prompt alone would cross the budget, not after paying for it.
    if (maxTokens !== null && usedTokens + lastInputTokens + addedTokens > maxTokens) {
      stopReason = 'token-budget';
      break;
    }
    const callStarted = performance.now();
    let response: ChatResponse;
    try {
      response = await model.complete({
        messages: [...messages],
        temperature: options.temperature ?? 0,
        ...(options.maxOutputTokens !== undefined ? { maxTokens: options.maxOutputTokens } : {}),
        signal,
      });
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      if (isReponavError(caught, 'BUDGET_EXCEEDED')) stopReason = 'spend-budget';
      else if (deadline?.aborted) {
        stopReason = 'deadline';
        error = `the run's deadline of ${formatSeconds(options.deadlineMs!)} passed during a model call`;
      } else if (signal?.aborted || (isReponavError(caught) && caught.details?.aborted === true)) stopReason = 'aborted';
      else stopReason = 'llm-error';
      logger.warn(`agent stopped (${stopReason}) at step ${steps.length + 1}: ${error}`);
      break;
    }
    const { inputTokens, outputTokens, costUsd } = response.usage;
    usedTokens += inputTokens + outputTokens;
    lastInputTokens = inputTokens;
    const step: TrajectoryStep = {
      step: steps.length + 1,
      assistant: response.text,
      action: 'format-error',
      outputChars: 0,
      isError: false,
      usage: { inputTokens, outputTokens, costUsd },
      modelMs: performance.now() - callStarted,
      toolMs: 0,
      ...(response.finishReason ? { finishReason: response.finishReason } : {}),
      ...(response.outcome === 'cut' ? { cut: true } : {}),
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      ...(response.notes?.length ? { notes: response.notes } : {}),
    };
    steps.push(step);
    messages.push({ role: 'assistant', content: response.text });

    // A reply cut at the length limit is asked again once, shorter, before it is read at all:
    // its last action is probably cut too, and a cut name must not become an answer.
    if (response.outcome === 'cut' && truncatedInARow === 0 && !awaitingCorrection) {
      truncatedInARow = 1;
      step.action = 'truncated';
      step.isError = true;
      step.observation = TRUNCATED_REPLY_MESSAGE;
      messages.push({ role: 'user', content: TRUNCATED_REPLY_MESSAGE });
      addedTokens = estimateTokens(response.text) + estimateTokens(TRUNCATED_REPLY_MESSAGE) + 8;
      options.onStep?.(step);
      continue;
    }
    truncatedInARow = 0;

    let reply: string;
    if (awaitingCorrection) {
      // One corrective message only: this reply is the answer, or the run ends with what it has.
      const corrected = parseCorrectedAnswer(response.text);
      step.action = 'corrected-answer';
      if (corrected.ok) {
        answer = corrected.answer;
        answerSource = 'corrected';
        stopReason = 'answered';
      } else {
        step.isError = true;
        malformed.push(response.text);
        stopReason = 'malformed-answer';
      }
      options.onStep?.(step);
      break;
    }
    const action = parseAction(response.text);
    if (action.kind === 'answer') {
      step.action = 'answer';
      answer = action.answer;
      answerSource = 'answer';
      stopReason = 'answered';
      options.onStep?.(step);
      break;
    }
    if (action.kind === 'bad-answer') {
      step.action = 'bad-answer';
      step.isError = true;
      malformed.push(response.text);
      awaitingCorrection = true;
      // A cut answer is not "malformed JSON" to the model: it needs to be shorter, not different.
      reply = response.outcome === 'cut' ? TRUNCATED_ANSWER_MESSAGE : correctiveMessage(action.error).content;
    } else if (action.kind === 'format-error') {
      step.isError = true;
      reply = `Format error: ${action.reason}`;
      repeated = repeated.reason === action.reason ? { reason: action.reason, count: repeated.count + 1 } : { reason: action.reason, count: 1 };
      if (repeated.count >= MAX_REPEATED_FORMAT_ERRORS) {
        const empty = response.text.trim() === '';
        stopReason = empty ? 'empty-replies' : 'format-errors';
        error = `${repeated.count} ${empty ? 'empty replies' : 'identical format errors'} in a row: ${action.reason.split('. ')[0]}`;
        malformed.push(response.text);
        options.onStep?.(step);
        break;
      }
    } else {
      repeated = { reason: '', count: 0 };
      // Models capitalise tool names ("Search"); the tool is the same.
      if (action.kind === 'tool') action.tool = iface.tools.find((t) => t.toLowerCase() === action.tool.toLowerCase()) ?? action.tool;
      step.action = action.kind;
      step.tool = action.kind === 'bash' ? 'bash' : action.tool;
      step.args = action.kind === 'bash' ? { command: action.command } : withoutHiddenArguments(action.args);
      const seen = repeats.see(toolCallKey(step.tool, step.args));
      const observation = seen.refuse ? refusedRepeat(step.tool, seen.times) : await act(action, run);
      if (seen.refuse) step.repeated = seen.times;
      Object.assign(step, {
        outputChars: observation.outputChars,
        isError: observation.isError,
        toolMs: observation.toolMs,
        ...(observation.refused ? { refused: true } : {}),
        ...(observation.inspected?.length ? { inspected: observation.inspected } : {}),
      });
      reply = action.note ? `Note: ${action.note}\n\n${observation.text}` : observation.text;
    }
    if (!awaitingCorrection) reply += `\n\n${budgetFooter(steps.length, maxSteps, usedTokens, maxTokens, lastInputTokens)}`;
    step.observation = reply;
    messages.push({ role: 'user', content: reply });
    addedTokens = estimateTokens(response.text) + estimateTokens(reply) + 8;
    logger.debug(`agent step ${step.step}: ${step.tool ?? step.action} (${countOf(step.outputChars, 'char')}, ${Math.round(step.modelMs + step.toolMs)} ms)`);
    options.onStep?.(step);
  }

  if (stopReason === null && signal?.aborted) stopReason = deadline?.aborted ? 'deadline' : 'aborted';
  const limit = options.maxPredictions ?? 50;
  let ranked: RankedAnswer = emptyAnswer();
  if (answer) ranked = toRankedAnswer(answer, limit);
  else {
    const salvaged = salvageLocations(malformed.join('\n'), limit);
    const inspected = recentlyInspected(steps);
    if (salvaged.files.length > 0) {
      ranked = salvaged;
      answerSource = 'salvaged';
    } else if (inspected.length > 0) {
      ranked = { files: inspected.slice(0, limit), modules: [], functions: [] };
      answerSource = 'inspected';
    }
  }
  let dropped: string[] = [];
  if (options.repoRoot && answerSource !== 'none') {
    const checked = await checkAnswerAgainstRepository(ranked, options.repoRoot, options.tools ? indexDefinitions(options.tools.context) : undefined);
    ranked = checked.answer;
    dropped = checked.dropped;
    if (dropped.length > 0) logger.warn(`agent answer: dropped ${dropped.length} name${dropped.length === 1 ? '' : 's'} not found or not defined where named: ${dropped.slice(0, 5).join(', ')}`);
    // An answer whose every name was invented is no answer: it must not count as answered.
    if (dropped.length > 0 && isEmptyAnswer(ranked) && (answerSource === 'answer' || answerSource === 'corrected')) {
      stopReason = 'no-answer';
      answerSource = 'none';
      error = `every name the model answered (${dropped.length}) was dropped as not found or not defined where named`;
    }
  }
  const wallMs = performance.now() - started;
  return {
    version: 1,
    interface: iface.name,
    model: model.id,
    startedAt,
    issue: options.issue,
    systemPrompt,
    budgets: { maxSteps, maxTokens },
    steps,
    stopReason: stopReason ?? 'aborted',
    ...(error !== undefined ? { error } : {}),
    answer: ranked,
    answerSource,
    dropped: { count: dropped.length, names: dropped },
    stats: computeStats(steps, wallMs),
  };
}

/** The qualified names of the symbols the index defines in a file. */
function indexDefinitions(context: ToolContext): DefinedNames {
  return (path) => new Set(context.repositories.select().index.store.symbolsOf(path).map((s) => s.qualifiedName));
}

function isEmptyAnswer(answer: RankedAnswer): boolean {
  return answer.files.length === 0 && answer.modules.length === 0 && answer.functions.length === 0;
}

/** The observation of an action refused as a repeat: not run, nothing inspected. */
function refusedRepeat(tool: string, times: number): Observation {
  const text = repeatRefusal(tool === 'bash' ? 'the same bash command' : `${tool} with the same arguments`, times);
  return { text, outputChars: text.length, isError: true, refused: true, toolMs: 0 };
}

/** Runs a tool or shell action and words the observation. */
async function act(
  action: { kind: 'tool'; tool: string; args: unknown } | { kind: 'bash'; command: string },
  options: LocalizationAgentOptions,
): Promise<Observation> {
  const started = performance.now();
  if (action.kind === 'bash') {
    const result = await options.shell.run(action.command, { signal: options.signal });
    return {
      text: `Observation from bash:\n${result.output}`,
      outputChars: result.output.length,
      isError: result.refused !== null || result.timedOut,
      refused: result.refused !== null,
      inspected: result.inspected,
      toolMs: performance.now() - started,
    };
  }
  const tool = action.tool;
  if (!options.iface.tools.includes(tool) || !options.tools) {
    const text = `Error: there is no tool '${action.tool.slice(0, 80)}' here. Your tools are: ${options.iface.tools.join(', ')}.`;
    return { text, outputChars: text.length, isError: true, toolMs: 0 };
  }
  const context: ToolContext = { ...options.tools.context, signal: options.signal };
  const result = await callTool(options.tools.registry, tool, withoutHiddenArguments(action.args), context);
  const inspected: string[] = [];
  if (tool === 'list_symbols' && !result.isError) {
    const data = result.data as { path?: unknown } | undefined;
    const file = typeof data?.path === 'string' ? data.path : (action.args as { file?: unknown } | null)?.file;
    if (typeof file === 'string') inspected.push(normalizePath(file));
  }
  return {
    text: result.isError ? `Error from ${tool}: ${result.text}` : `Observation from ${tool}:\n${result.text}`,
    outputChars: result.text.length,
    isError: result.isError,
    inspected,
    toolMs: performance.now() - started,
  };
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The line after each observation: what is left, and a nudge to answer when little is. */
function budgetFooter(stepsDone: number, maxSteps: number, usedTokens: number, maxTokens: number | null, lastInput: number): string {
  const left = maxSteps - stepsDone;
  const parts = [`[Step ${stepsDone} of ${maxSteps} done; ${left} left.`];
  if (maxTokens !== null) parts.push(`Tokens used: ${usedTokens} of ${maxTokens}.`);
  let footer = `${parts.join(' ')}]`;
  if (left <= 1) footer += '\nThis is your last step: reply with your ```answer block now.';
  else if (maxTokens !== null && usedTokens + 2 * (lastInput + 2000) > maxTokens) footer += '\nThe token budget is nearly used up: reply with your ```answer block now.';
  return footer;
}
