/**
 * ChatModel over the Anthropic Messages API with plain `fetch`. The API surface
 * reponav needs (text in, text out, token usage) is small enough that a
 * hand-written client beats another SDK dependency, and it runs unchanged
 * against the fake server in tests. (The official `@anthropic-ai/sdk` would
 * also be a second provider SDK to make optional; its own retries would be
 * switched off for `withRetry` anyway.)
 */
import { silentLogger, type Logger } from '../logger.js';
import { countOf } from '../plural.js';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import { DEFAULT_PRICES, costOf, type PriceTable } from './pricing.js';
import { isEventStream, learningProfile, readReply, requireUsable, saysStreamOnly, sendableTurns, streamOnlyFailure, toChatResponse, type ReadReply, type WireReply } from './provider-reply.js';
import type { UsableOutcome } from './reply-outcome.js';
import { initialRequestProfile, type RequestProfile } from './request-profile.js';
import { DEFAULT_TIMEOUT_MS } from './openai-compatible-model.js';
import {
  LlmTransportError,
  parseRetryAfter,
  redactSecrets,
  resolveRetryPolicy,
  withRetry,
  type RetryPolicy,
} from './retry.js';

/** Wire version pinned so response shapes cannot change under us. */
export const ANTHROPIC_API_VERSION = '2023-06-01';
/** Default API root; the client appends `/v1/messages`. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** Options for {@link createAnthropicModel}. */
export interface AnthropicModelOptions {
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  apiKey: string;
  /** API root without `/v1`. Default {@link ANTHROPIC_DEFAULT_BASE_URL}. */
  baseUrl?: string;
  /** Per-attempt timeout. Default `DEFAULT_TIMEOUT_MS` (60 s; see openai-compatible-model.ts). */
  timeoutMs?: number;
  /** `max_tokens` when the request has none (the API requires one). Default 4096. */
  defaultMaxTokens?: number;
  retry?: Partial<RetryPolicy>;
  prices?: PriceTable;
  logger?: Logger;
  fetch?: typeof fetch;
  /** False to never send `temperature`; otherwise sent until the endpoint refuses it (then omitted for the run). */
  sendTemperature?: boolean;
}

/** How many times a `pause_turn` reply is continued before the call fails. */
export const MAX_PAUSE_CONTINUATIONS = 3;

interface AnthropicReply {
  model?: string;
  content?: Array<{ type: string; text?: string; thinking?: string; name?: string; input?: unknown }>;
  stop_reason?: string | null;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  };
}

// The Messages API has no JSON mode; an explicit system instruction is the
// portable way to ask for one (assistant prefill is rejected by newer models).
const JSON_INSTRUCTION = 'Respond with a single JSON object and nothing else: no prose, no code fences.';

/**
 * Create a ChatModel for the Anthropic Messages API (`id` = `anthropic:<model>`).
 * System messages are joined into the top-level `system` field and consecutive
 * same-role turns are merged, since the API requires alternating roles.
 * Failures reject with `ReponavError('LLM_ERROR')` after retrying transient ones.
 */
export function createAnthropicModel(options: AnthropicModelOptions): ChatModel {
  const logger = options.logger ?? silentLogger;
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const prices = options.prices ?? DEFAULT_PRICES;
  const baseUrl = (options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const id = `anthropic:${options.model}`;

  const profile = learningProfile(
    { ...initialRequestProfile(options.model), maxTokensField: 'max_tokens', sendTemperature: options.sendTemperature ?? true },
    'anthropic',
    id,
    logger,
  );

  async function attempt(req: ChatRequest, p: RequestProfile): Promise<{ reply: AnthropicReply; read: ReadReply }> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${baseUrl}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': options.apiKey,
          'anthropic-version': ANTHROPIC_API_VERSION,
        },
        body: JSON.stringify(buildBody(options.model, req, options.defaultMaxTokens ?? 4096, p)),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (req.signal?.aborted) throw new LlmTransportError('aborted', 'aborted');
      if (timeout.aborted) throw new LlmTransportError('timeout', 'request timed out');
      const message = error instanceof Error ? describeFetchError(error) : String(error);
      throw new LlmTransportError('connection', redactSecrets(message, [options.apiKey]), { cause: error });
    }
    if (!response.ok) {
      const shouldRetry = response.headers.get('x-should-retry');
      const said = redactSecrets(errorMessage(text, response.statusText), [options.apiKey]);
      if (response.status === 400 && saysStreamOnly(said)) throw streamOnlyFailure(said, 400);
      throw new LlmTransportError('http', said, {
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers),
        shouldRetry: shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : undefined,
      });
    }
    let reply: AnthropicReply;
    try {
      reply = JSON.parse(text) as AnthropicReply;
    } catch {
      if (isEventStream(text)) throw streamOnlyFailure();
      throw new LlmTransportError('bad-response', `response is not JSON: ${text.slice(0, 200)}`);
    }
    if (!reply || !Array.isArray(reply.content)) {
      throw new LlmTransportError('bad-response', `response has no content blocks: ${text.slice(0, 200)}`);
    }
    return { reply, read: readReply(wireReply(reply)) };
  }

  /**
   * One call: a `pause_turn` reply is continued as Anthropic documents (its
   * content sent back as the assistant turn, asked again) up to
   * {@link MAX_PAUSE_CONTINUATIONS} times; the parts are joined.
   */
  async function attemptContinuing(req: ChatRequest, p: RequestProfile): Promise<{ reply: AnthropicReply; read: ReadReply & { outcome: UsableOutcome } }> {
    let messages = req.messages;
    const parts: ReadReply[] = [];
    for (let n = 0; ; n++) {
      const { reply, read } = await attempt({ ...req, messages }, p);
      parts.push(read);
      if (read.outcome !== 'paused' || n >= MAX_PAUSE_CONTINUATIONS) {
        const calls = parts.flatMap((x) => x.toolCalls ?? []);
        const joined = parts.length === 1 ? read : { ...read, text: parts.map((x) => x.text).filter(Boolean).join('\n'), reasoning: parts.map((x) => x.reasoning).filter(Boolean).join('\n\n'), notes: [...read.notes, `the model paused its turn ${countOf(parts.length - 1, 'time')}; continued as the API documents`], ...(calls.length > 0 ? { toolCalls: calls } : {}) };
        // The joined text decides emptiness: a paused part may hold the whole answer.
        let outcome = read.outcome === 'empty' && joined.text !== '' ? 'complete' : read.outcome;
        // A refusal in a paused part is still a refusal once the turn is continued.
        if (outcome === 'complete' && parts.some((x) => x.writtenRefusal)) outcome = 'refused';
        return { reply, read: requireUsable({ ...joined, outcome }) };
      }
      messages = [...messages, { role: 'assistant', content: read.text }];
    }
  }

  return {
    id,
    estimateCostUsd: (usage) => costOf(options.model, usage, prices),
    async complete(req: ChatRequest): Promise<ChatResponse> {
      const started = performance.now();
      return profile.run(async (p) => {
        const { reply, read } = await withRetry(() => attemptContinuing(req, p), policy, {
          modelId: id,
          baseUrl,
          timeoutMs,
          signal: req.signal,
          logger,
        });
        const usage = reply.usage;
        // Cache writes/reads are input too; counting them keeps budgets honest
        // (priced at the base rate, which over- rather than under-estimates reads).
        const reported = usage
          ? {
              inputTokens: (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
              outputTokens: usage.output_tokens ?? 0,
            }
          : null;
        return toChatResponse(read, reported, reply.model || options.model, { requestedModel: options.model, prices, messages: req.messages, started, logger, id });
      });
    },
  };
}

/**
 * The wire reply of a Messages response: text blocks are the answer;
 * `thinking` and `redacted_thinking` blocks are reasoning and never the answer;
 * `tool_use` inputs given as a JSON string are parsed.
 */
function wireReply(reply: AnthropicReply): WireReply {
  const blocks = reply.content ?? [];
  return {
    content: blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join(''),
    reasoning: blocks.filter((b) => b.type === 'thinking').map((b) => b.thinking ?? '').join('\n\n'),
    reasoningMayAnswer: false,
    toolCalls: blocks.filter((b) => b.type === 'tool_use' && typeof b.name === 'string').map((b) => ({ name: b.name!, args: parsedInput(b.input) })),
    finishReason: typeof reply.stop_reason === 'string' ? reply.stop_reason : null,
  };
}

/** A tool input as an object: some endpoints send it as a JSON string. */
function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** Translate the provider-neutral request into a Messages API body. */
function buildBody(model: string, req: ChatRequest, defaultMaxTokens: number, profile: RequestProfile): Record<string, unknown> {
  const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content);
  if (req.responseFormat === 'json') system.push(JSON_INSTRUCTION);
  const body: Record<string, unknown> = {
    model,
    max_tokens: req.maxTokens ?? defaultMaxTokens,
    messages: mergeTurns(sendableTurns(req.messages.filter((m) => m.role !== 'system'))),
  };
  if (profile.sendTemperature) body.temperature = req.temperature ?? 0;
  if (system.length > 0) body.system = system.join('\n\n');
  if (req.stop && req.stop.length > 0) body.stop_sequences = req.stop;
  return body;
}

function mergeTurns(messages: ChatMessage[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  const turns: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content += `\n\n${m.content}`;
    else turns.push({ role, content: m.content });
  }
  return turns;
}

/** `{"type":"error","error":{"type":"…","message":"…"}}` → "type: message". */
function errorMessage(text: string, statusText: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { type?: string; message?: string } };
    if (parsed.error?.message) return parsed.error.type ? `${parsed.error.type}: ${parsed.error.message}` : parsed.error.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim().slice(0, 300) || statusText || 'no error message';
}

/** Undici hides the useful part ("ECONNRESET") in `cause`. */
function describeFetchError(error: Error): string {
  const parts = [error.message];
  let cause: unknown = error.cause;
  while (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${cause.message} (${code})` : cause.message);
    cause = cause.cause;
  }
  return parts.join(': ');
}
