import { isRefusalText } from './refusal-text.js';

/**
 * How a reply ended, in one closed set every caller switches on. A reply is
 * an answer only when the provider positively says the model finished
 * normally: whatever stop reason is not recognised is not a success (fail
 * closed). The providers classify each reply here; a reply whose outcome is
 * neither `complete` nor `cut` never reaches a caller as text: it becomes an
 * `LLM_ERROR` whose message names the outcome and the provider's raw value.
 */

/**
 * - `complete`: a documented normal stop (`stop`, `tool_calls`, `function_call`,
 *   `end_turn`, `tool_use`, `stop_sequence`) with something in the reply.
 * - `cut`: stopped at the output or context limit (`length`, `max_tokens`,
 *   `model_context_window_exceeded`); callers ask again, shorter.
 * - `refused`: the model declined (OpenAI's `refusal` field, Anthropic's `refusal` stop,
 *   or a refusal written as plain text under a normal stop: refusal-text.ts).
 * - `filtered`: a provider's content filter withheld the reply (`content_filter`).
 * - `paused`: Anthropic's `pause_turn` (a long turn the client must continue).
 * - `empty`: a normal stop with nothing in the reply.
 * - `unknown`: no stop reason, or one no provider documents as normal.
 */
export type ReplyOutcome = 'complete' | 'cut' | 'refused' | 'filtered' | 'paused' | 'empty' | 'unknown';

/** The outcomes a caller receives as a response; every other outcome is an error. */
export type UsableOutcome = Extract<ReplyOutcome, 'complete' | 'cut'>;

const NORMAL_STOPS = new Set(['stop', 'tool_calls', 'function_call', 'end_turn', 'tool_use', 'stop_sequence']);
const CUT_STOPS = new Set(['length', 'max_tokens', 'model_context_window_exceeded']);

/** What a classification reads off one reply. */
export interface ReplyFacts {
  /** The provider's stop reason, verbatim (null when the reply carried none). */
  finishReason: string | null | undefined;
  /** True when the reply holds an answer (text or tool calls) once reasoning is set aside. */
  hasContent: boolean;
  /** OpenAI's `refusal` field, when the reply carried one. */
  refusal?: string | null;
  /**
   * The reply's text (without reasoning or tool calls): a plain-text
   * refusal under a normal stop is `refused`, not `complete` (refusal-text.ts).
   */
  text?: string;
}

/**
 * The outcome of one reply. Stop reasons are compared case-insensitively
 * (`LENGTH`, `End_Turn`); a refusal field wins over any stop reason.
 */
export function classifyReply(facts: ReplyFacts): ReplyOutcome {
  if (typeof facts.refusal === 'string' && facts.refusal.trim() !== '') return 'refused';
  const reason = typeof facts.finishReason === 'string' ? facts.finishReason.trim().toLowerCase() : '';
  if (reason === 'refusal') return 'refused';
  if (reason === 'content_filter') return 'filtered';
  if (reason === 'pause_turn') return 'paused';
  if (CUT_STOPS.has(reason)) return 'cut';
  if (NORMAL_STOPS.has(reason)) {
    if (!facts.hasContent) return 'empty';
    return facts.text !== undefined && isRefusalText(facts.text) ? 'refused' : 'complete';
  }
  return 'unknown';
}

/** True when a provider's stop reason means the reply was cut at a length limit (any casing). */
export function isCutReason(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && CUT_STOPS.has(reason.trim().toLowerCase());
}

/**
 * One sentence saying why a reply of `outcome` is not an answer, naming the
 * provider's raw stop reason; '' for the usable outcomes. `text`, the reply's
 * answer text, is quoted (shortened, on one line) for a refusal written as text.
 */
export function outcomeSentence(outcome: ReplyOutcome, finishReason: string | null | undefined, text?: string): string {
  const raw = finishReason === null || finishReason === undefined || finishReason === '' ? 'no finish reason' : `finish reason ${JSON.stringify(finishReason)}`;
  switch (outcome) {
    case 'complete':
    case 'cut':
      return '';
    case 'refused': {
      const said = text !== undefined && isRefusalText(text) ? `: ${JSON.stringify(shorten(text))}` : '';
      return `the model refused to answer (${raw})${said}, so its reply is not an answer`;
    }
    case 'filtered':
      return `the provider's content filter withheld the reply (${raw}), so it is not an answer`;
    case 'paused':
      return `the model paused its turn (${raw}) and did not finish after being asked to continue`;
    case 'empty':
      return `the model stopped (${raw}) with nothing in its reply`;
    case 'unknown':
      return `the reply ended with ${raw}, which is not a documented normal stop, so it is not taken as finished`;
  }
}

/** `text` on one line, at most 80 characters. */
function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
