/**
 * The one small interface every LLM consumer in reponav talks to. Providers,
 * budget metering, recording and replay are all `ChatModel`s, so they compose
 * by wrapping and callers never learn which backend answered.
 */
import type { UsableOutcome } from './reply-outcome.js';

/**
 * One chat turn. Only plain text: reponav never sends images or tool schemas.
 * Providers never send an empty assistant turn (Anthropic rejects one): an
 * assistant turn with no text is sent as a placeholder.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * A single completion request.
 *
 * - `temperature` defaults to 0 so runs are as repeatable as the backend allows.
 * - `responseFormat: 'json'` asks the backend for a JSON object (native JSON mode
 *   where available, an instruction otherwise); callers must still validate the
 *   reply, e.g. with `parseJsonReply`. OpenAI's JSON mode rejects requests whose
 *   messages never mention "JSON", so say so in the prompt.
 * - `signal` aborts the request and any pending retry wait.
 */
export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  responseFormat?: 'text' | 'json';
  stop?: string[];
  signal?: AbortSignal;
}

/** Token usage of one call. `costUsd` is null when the model has no known price. */
export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /**
   * `local` when the reply carried no usage and the client counted the tokens
   * itself (o200k_base, see local-tokens.ts), so budgets keep holding; absent
   * when the endpoint reported them.
   */
  counted?: 'local';
}

/**
 * The answer to one request. `model` is the model name the backend reports
 * (it may be a dated snapshot of the requested one); `latencyMs` is the wall
 * time of the whole `complete()` call including retries and backoff.
 *
 * - `text` is what parsers read: the reply without inline reasoning blocks
 *   (`<think>…</think>` and kin), or the endpoint's separate reasoning field
 *   when the content was empty (reply-text.ts). Never empty unless `cut`:
 *   a reply with nothing in it is a failed call (`LLM_ERROR`, cause `empty-reply`).
 * - `reasoning` is the reasoning that preceded it, for traces only.
 * - `outcome` is how the reply ended (reply-outcome.ts): `complete` (the
 *   model said it finished normally) or `cut` (it stopped at the length
 *   limit; ask again, shorter). Every other outcome (refused, filtered,
 *   paused, empty, unknown stop) is an `LLM_ERROR`, never a response.
 *   `cut` is `outcome === 'cut'`; `finishReason` is the provider's word, for traces.
 * - `notes` say what the client did beyond sending the request (a request
 *   profile learned from the endpoint, tokens counted locally), for traces.
 */
export interface ChatResponse {
  text: string;
  reasoning?: string;
  usage: ChatUsage;
  model: string;
  latencyMs: number;
  finishReason: string | null;
  outcome: UsableOutcome;
  cut: boolean;
  /**
   * The native tool calls the reply carried (OpenAI `tool_calls`, Anthropic
   * `tool_use` blocks), in order; absent when it carried none. `text` holds
   * them too, one `{"name": …, "arguments": …}` line each after the reply's
   * own text, for the roles that read actions from text; a role that wants
   * prose (an answer writer) reads this field to tell a request for tools from an answer.
   */
  toolCalls?: NativeToolCall[];
  notes?: string[];
}

/** One native tool call of a reply: the tool's name and its arguments (parsed when they were JSON). */
export interface NativeToolCall {
  name: string;
  args: unknown;
}

/**
 * A chat model. `id` is `provider:model` (e.g. `openai:gpt-4o-mini`) and is
 * stable for the life of the object. `complete` resolves with the reply or
 * rejects with a `ReponavError` (`LLM_ERROR`, or `BUDGET_EXCEEDED` when metered).
 */
export interface ChatModel {
  readonly id: string;
  complete(req: ChatRequest): Promise<ChatResponse>;
  /**
   * What a call of this size would cost in USD, or null when the model has
   * no known price. Optional: wrappers pass it through; budget meters use it
   * to refuse a call that would cross a USD ceiling before it is made.
   */
  estimateCostUsd?(usage: { inputTokens: number; outputTokens: number }): number | null;
}
