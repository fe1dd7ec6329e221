/**
 * One model call for one role, recorded. JSON roles are parsed and validated
 * with zod; a reply that does not parse gets exactly one corrective retry
 * (the model sees its own reply and what was wrong with it), and a second
 * failure is returned as a failure for the caller to handle — a bad reply
 * never crashes the search. Budget exhaustion and aborts end the search
 * instead (as {@link SearchStop}).
 */
import type * as z from '../../zod-mini.js';
import { isReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ChatMessage, ChatModel, ChatResponse } from '../../llm/index.js';
import { correctiveMessage, jsonObjectSpans, parseJsonReply } from '../../llm/index.js';
import { cleanAnswerText } from './answer-text.js';
import { SearchStop, type RunBudget } from './run-budget.js';
import type { RoleCallRecord, RoleName } from './trace-types.js';

/** What role calls share within one answer. */
export interface RoleRuntime {
  model: ChatModel;
  budget: RunBudget;
  /** Every call is appended here (the trace's roleCalls). */
  records: RoleCallRecord[];
  logger: Logger;
  /**
   * Set by the first model call that failed after the client's own retries
   * (outage, HTTP error, timeout): the run then stops with `llm-error`, since
   * nothing written after it could be told apart from an answer.
   */
  llmFailure?: string;
  /** Replies with any text in them (an endpoint that only ever replies empty is an outage too). */
  nonEmptyReplies?: number;
}

/** One role call. */
export interface RoleRequest {
  role: RoleName;
  nodeId: number | null;
  iteration: number;
  messages: ChatMessage[];
  temperature: number;
  maxTokens?: number;
}

/** Tokens a role call spent (all attempts). */
export interface RoleTokens {
  input: number;
  output: number;
}

/** Result of a role call: the value (and, for JSON roles, the reply text it was read from), or why there is none; tokens either way. */
export type RoleReply<T> = { ok: true; value: T; tokens: RoleTokens; raw?: string } | { ok: false; error: string; tokens: RoleTokens };

/** Sent after an empty reply to a JSON role. */
export const EMPTY_JSON_REPLY = 'Your reply was empty. Reply with the JSON object the instructions ask for, and nothing else.';

/** Sent after a JSON role's reply that called tools, where none can be called. */
export const NO_TOOLS_JSON = 'No tool can be called here, so your reply was not used. Reply with the JSON object the instructions ask for, and nothing else.';

/** Sent after a reply cut at the length limit. */
export const SHORTER_REPLY = 'Your reply was cut off at the length limit, so it could not be used. Reply again, shorter.';

/**
 * Calls a JSON role: validate with `schema`, one corrective retry on a bad
 * reply (a reply cut at the length limit is asked again shorter instead of
 * being told its JSON is malformed). When a reply holds several JSON objects
 * the first valid one is used and the record says so. `readToolCalls` is
 * given by the roles whose actions may come as native tool calls (the
 * planner, the ReAct loop): it rewrites the reply (its calls rendered as JSON
 * lines) before it is parsed. Without it a reply that calls tools is not
 * used, whatever its text holds (the model waits for tool results, its JSON
 * is no verdict), and is asked once more without tools. Throws SearchStop on
 * budget exhaustion or abort, and SearchStop('llm-error') when the call
 * itself failed (after the client's own retries; `rt.llmFailure` says why).
 */
export async function callJsonRole<S extends z.ZodMiniType>(rt: RoleRuntime, req: RoleRequest, schema: S, readToolCalls?: (text: string) => string): Promise<RoleReply<z.output<S>>> {
  const tokens: RoleTokens = { input: 0, output: 0 };
  let messages = req.messages;
  let lastError = '';
  for (const attempt of [1, 2] as const) {
    const response = { value: await send(rt, req, messages, 'json', attempt, tokens) };
    const record = rt.records[rt.records.length - 1]!;
    // Tool calls the role does not read: the reply is not used, whatever its text holds.
    const unread = readToolCalls ? [] : (response.value.toolCalls ?? []);
    const parsed = unread.length > 0 ? null : parseJsonReply(readToolCalls ? readToolCalls(response.value.text) : response.value.text, schema);
    const truncated = response.value.outcome === 'cut';
    // A cut reply is never read, even when what is left parses: its last value may be cut too.
    if (parsed?.ok && !truncated) {
      const objects = [...jsonObjectSpans(response.value.text)].length;
      if (objects > 1) record.note = [record.note, `the reply held ${objects} JSON objects; the first valid one was used`].filter(Boolean).join('; ');
      return { ok: true, value: parsed.value, tokens, raw: response.value.text };
    }
    record.ok = false;
    const empty = !truncated && response.value.text.trim() === '';
    let correction: ChatMessage;
    if (!parsed) {
      record.error = `the reply called tools instead of the JSON object (${unread.map((c) => c.name).join(', ')})`;
      correction = { role: 'user', content: NO_TOOLS_JSON };
    } else if (truncated) {
      record.error = `cut off at the length limit${parsed.ok ? '' : ` (${parsed.error.message})`}`;
      correction = { role: 'user', content: SHORTER_REPLY };
    } else if (empty) {
      record.error = 'empty reply';
      correction = { role: 'user', content: EMPTY_JSON_REPLY };
    } else {
      record.error = parsed.ok ? '' : parsed.error.message;
      correction = parsed.ok ? { role: 'user', content: EMPTY_JSON_REPLY } : correctiveMessage(parsed.error);
    }
    lastError = record.error;
    rt.logger.debug(`ask: ${req.role} reply unusable (attempt ${attempt}): ${record.error}`);
    messages = [...req.messages, { role: 'assistant', content: response.value.text }, correction];
  }
  return { ok: false, error: lastError, tokens };
}

/** Why a free-text reply could not be used (besides transport failures): cut, empty, or a request for tools instead of an answer. */
export type TextFailure = 'truncated' | 'empty' | 'tool-call';

/** Sent after an answer writer's reply that called tools: none can be run here. */
export const NO_TOOLS_NOW = 'No tool can be called here, so your reply was not used. Write the answer now, in prose, from the evidence above.';

/** What the record and the model are told about an unusable free-text reply, by failure. */
const TEXT_FAILURES: Record<TextFailure, { record: string; final: string; correction: string }> = {
  truncated: { record: 'cut off at the length limit', final: 'the answer was cut off at the length limit twice', correction: `${SHORTER_REPLY} Keep every citation, drop detail.` },
  empty: { record: 'empty reply', final: 'the model replied with nothing twice', correction: 'Your reply was empty. Write the answer now.' },
  'tool-call': { record: 'the reply called tools instead of writing the answer', final: 'the model called tools instead of writing the answer twice', correction: NO_TOOLS_NOW },
};

/**
 * Calls a free-text role (the answer writers). A reply cut at the length
 * limit, empty, or calling native tools (text beside the calls included:
 * the model has not finished its answer, it waits for tool results) is
 * asked once more (shorter, again, or without tools); a second such reply is
 * a failure with `failure` set — a cut answer or a tool call is never
 * returned as if it were an answer. The text is cleaned of wrapping (fence,
 * preamble; see answer-text.ts). Same budget and error handling as JSON roles.
 */
export async function callTextRole(rt: RoleRuntime, req: RoleRequest): Promise<RoleReply<string> & { failure?: TextFailure }> {
  const tokens: RoleTokens = { input: 0, output: 0 };
  let messages = req.messages;
  let failure: TextFailure = 'empty';
  for (const attempt of [1, 2] as const) {
    const response = { value: await send(rt, req, messages, 'text', attempt, tokens) };
    const text = cleanAnswerText(response.value.text);
    const truncated = response.value.outcome === 'cut';
    const calls = response.value.toolCalls ?? [];
    if (text !== '' && !truncated && calls.length === 0) return { ok: true, value: text, tokens };
    const record = rt.records[rt.records.length - 1]!;
    record.ok = false;
    failure = truncated ? 'truncated' : calls.length > 0 ? 'tool-call' : 'empty';
    record.error = failure === 'tool-call' ? `${TEXT_FAILURES[failure].record} (${calls.map((c) => c.name).join(', ')})` : TEXT_FAILURES[failure].record;
    rt.logger.debug(`ask: ${req.role} reply unusable (attempt ${attempt}): ${record.error}`);
    messages = [...req.messages, { role: 'assistant', content: response.value.text }, { role: 'user', content: TEXT_FAILURES[failure].correction }];
  }
  return { ok: false, error: TEXT_FAILURES[failure].final, tokens, failure };
}

async function send(
  rt: RoleRuntime,
  req: RoleRequest,
  messages: ChatMessage[],
  format: 'json' | 'text',
  attempt: 1 | 2,
  tokens: RoleTokens,
): Promise<ChatResponse> {
  const stop = rt.budget.hardStop();
  if (stop) throw new SearchStop(stop);
  const base = { role: req.role, nodeId: req.nodeId, iteration: req.iteration, attempt, temperature: req.temperature };
  const started = Date.now();
  try {
    const response = await rt.model.complete({
      messages,
      temperature: req.temperature,
      responseFormat: format,
      ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}),
      signal: rt.budget.callSignal(),
    });
    tokens.input += response.usage.inputTokens;
    tokens.output += response.usage.outputTokens;
    if (response.text.trim() !== '') rt.nonEmptyReplies = (rt.nonEmptyReplies ?? 0) + 1;
    rt.records.push({
      ...base,
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      costUsd: response.usage.costUsd,
      latencyMs: response.latencyMs,
      ok: true,
      ...(response.outcome === 'cut' ? { cut: true } : {}),
      ...(response.notes?.length ? { note: response.notes.join('; ') } : {}),
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      ...(response.usage.counted === 'local' ? { tokensCounted: 'local' as const } : {}),
    });
    return response;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    rt.records.push({ ...base, inputTokens: 0, outputTokens: 0, costUsd: null, latencyMs: Date.now() - started, ok: false, error: message });
    if (isReponavError(error, 'BUDGET_EXCEEDED')) {
      throw new SearchStop(error.details?.limit === 'cost' ? 'budget-cost' : 'budget-tokens');
    }
    // An abort is the deadline or the caller; either way the run is over.
    const stop = rt.budget.hardStop();
    if (stop) throw new SearchStop(stop);
    rt.logger.warn(`ask: ${req.role} call failed: ${message}`);
    // A call that failed after the client's retries is an outage: end the run, never answer around it.
    rt.llmFailure ??= message;
    throw new SearchStop('llm-error');
  }
}
