/**
 * A scripted LLM endpoint for tests, speaking both the OpenAI Chat Completions
 * and the Anthropic Messages wire formats on 127.0.0.1 (built on
 * fake-openai-server.ts). Replies are written in the shapes real endpoints
 * produce — native tool calls, `reasoning_content` / `reasoning` beside an
 * empty content, Anthropic thinking blocks, inline `<think>` drafts, cut
 * replies (`length` / `max_tokens`), replies without `usage`, HTTP errors with
 * `Retry-After`, hangs — and the endpoint can refuse parameters the way
 * o-series models do (`max_tokens`, `temperature`) and, like Anthropic, refuse
 * an empty turn. Drive the real client through it with {@link ScriptedLlmServer.model}.
 *
 * Small API: `startScriptedLlmServer({ rejects })`, then `push(...replies)`
 * (consumed in order, either route) and/or `setDefault(reply | fn)`; the
 * `styles` helpers build the reply texts real models write.
 */
import { createChatModel } from '../../src/llm/model-config.js';
import type { ChatModel } from '../../src/llm/chat-model.js';
import { startFakeOpenAIServer, type FakeReply, type FakeServer, type RecordedRequest } from './fake-openai-server.js';

/** The two wire formats. */
export type WireProvider = 'openai' | 'anthropic';

/** One scripted reply, provider-neutral; shaped for the route the request came in on. */
export interface StyledReply {
  /** The answer text: the message `content` / the text block. Default ''. */
  text?: string;
  /** Reasoning sent beside the text: a `reasoning_content`/`reasoning` field (OpenAI route) or a `thinking` block (Anthropic). */
  reasoning?: string;
  /** Which OpenAI-route field carries `reasoning`: DeepSeek/vLLM `reasoning_content` (default) or OpenRouter/Ollama `reasoning`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Native tool calls: OpenAI `tool_calls` (content null, finish_reason `tool_calls`), Anthropic `tool_use` blocks (stop_reason `tool_use`). */
  toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
  /** Ended at the output limit: finish_reason `length` / stop_reason `max_tokens`. */
  cut?: boolean;
  /** A finish/stop reason sent verbatim (overrides `cut` and the defaults). */
  finishReason?: string;
  /** Token counts to report; default: about 4 characters a token. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Send no `usage` object at all (llama.cpp, some proxies). */
  noUsage?: boolean;
  /** An HTTP error instead of a reply, in the route's error shape. */
  status?: number;
  /** With `status`: a `Retry-After` header, in seconds. */
  retryAfterSeconds?: number;
  /** Wait this long before answering: past the client's timeout, a hang. */
  delayMs?: number;
  /** OpenAI's `refusal` field (content null). */
  refusal?: string;
  /** Send no finish/stop reason at all (the field is null). */
  noFinishReason?: boolean;
  /** Anthropic: a `redacted_thinking` block before the text. */
  redactedThinking?: boolean;
  /** Tool arguments sent as given: a string that is not JSON (OpenAI) or a JSON string as the `input` (Anthropic). */
  rawToolArgs?: string;
  /** The transport misbehaves after a 200: headers then a stall, a reset mid-body, an HTML page, an event stream. */
  transport?: 'stall' | 'reset' | 'html' | 'sse';
}

/** A reply, or a function computing one from the request. */
export type ScriptedStep = StyledReply | ((request: ScriptedRequest) => StyledReply);

/** A request as the script sees it. */
export interface ScriptedRequest {
  provider: WireProvider;
  body: any;
  /** System prompt and every message, joined (for assertions). */
  prompt: string;
  raw: RecordedRequest;
}

/** Request parameters an endpoint may refuse with HTTP 400. */
export type RefusedParameter = 'max_tokens' | 'temperature';

/** Options of {@link startScriptedLlmServer}. */
export interface ScriptedLlmServerOptions {
  /**
   * Parameters the endpoint refuses with a 400 in the provider's words, as
   * o-series / gpt-5 endpoints refuse `max_tokens` ("use max_completion_tokens")
   * and any `temperature` but the default 1.
   */
  rejects?: RefusedParameter[];
  /** Replies used in order before the default. */
  replies?: ScriptedStep[];
  /** Used when the queue is empty. Default: `{ text: 'ok' }`. */
  default?: ScriptedStep;
}

/** A running scripted endpoint. */
export interface ScriptedLlmServer {
  /** `http://127.0.0.1:port/v1`, for OpenAI-compatible clients. */
  openaiBaseUrl: string;
  /** `http://127.0.0.1:port`, for Anthropic clients (they append `/v1/messages`). */
  anthropicBaseUrl: string;
  /** Every request received (including refused ones), in order. */
  requests: ScriptedRequest[];
  /** Requests refused with a 400 by `rejects` or the empty-turn rule. */
  refused: ScriptedRequest[];
  push(...replies: ScriptedStep[]): void;
  setDefault(reply: ScriptedStep): void;
  /** A ChatModel of the real client for `provider`, pointed here (no retries unless given). */
  model(provider: WireProvider, options?: { model?: string; maxRetries?: number; timeoutMs?: number; retryBaseDelayMs?: number }): ChatModel;
  /** The underlying fake server. */
  fake: FakeServer;
  close(): Promise<void>;
}

/** Start a scripted endpoint on 127.0.0.1 (OS-assigned port). */
export async function startScriptedLlmServer(options: ScriptedLlmServerOptions = {}): Promise<ScriptedLlmServer> {
  const queue: ScriptedStep[] = [...(options.replies ?? [])];
  let fallback: ScriptedStep = options.default ?? { text: 'ok' };
  const rejects = new Set(options.rejects ?? []);
  const requests: ScriptedRequest[] = [];
  const refused: ScriptedRequest[] = [];
  let counter = 0;
  const fake = await startFakeOpenAIServer({
    handler: (body, raw) => {
      const provider: WireProvider = raw.route === 'messages' ? 'anthropic' : 'openai';
      const request: ScriptedRequest = { provider, body, prompt: promptOf(body), raw };
      requests.push(request);
      const refusal = refusalOf(provider, body, rejects);
      if (refusal) {
        refused.push(request);
        return refusal;
      }
      const step = queue.shift() ?? fallback;
      const reply = typeof step === 'function' ? step(request) : step;
      counter += 1;
      return shape(provider, body, reply, counter);
    },
  });
  return {
    openaiBaseUrl: fake.openaiBaseUrl,
    anthropicBaseUrl: fake.url,
    requests,
    refused,
    push: (...replies) => void queue.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    model: (provider, o = {}) =>
      createChatModel(
        {
          model: `${provider === 'anthropic' ? 'anthropic' : 'openai-compatible'}:${o.model ?? 'scripted-model'}`,
          baseUrl: provider === 'anthropic' ? fake.url : fake.openaiBaseUrl,
          apiKey: 'test-key',
          maxRetries: o.maxRetries ?? 0,
          ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
          ...(o.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: o.retryBaseDelayMs } : {}),
        },
        { env: {} },
      ),
    fake,
    close: () => fake.close(),
  };
}

/** Reply texts in the styles real models write. */
export const styles = {
  /** JSON in a ```json fence. */
  fenced: (json: unknown, lang = 'json'): string => `\`\`\`${lang}\n${JSON.stringify(json, null, 2)}\n\`\`\``,
  /** A sentence of prose before and after bare JSON. */
  prose: (json: unknown): string => `Let me think about this step.\n${JSON.stringify(json)}\nI hope this is what you need.`,
  /** LangChain ReAct lines: `Thought:`, `Action:`, `Action Input:`. */
  actionLine: (action: string, input: unknown): string =>
    `Thought: I should use ${action}.\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`,
  /** An inline reasoning block (`think`, `thinking` or `reasoning`) holding a draft, then the real reply. */
  think: (draft: string, reply: string, tag: 'think' | 'thinking' | 'reasoning' = 'think'): string => `<${tag}>\n${draft}\n</${tag}>\n\n${reply}`,
  /** A reasoning block whose opening tag the chat template put in the prompt: only `</think>` appears. */
  openedByTemplate: (draft: string, reply: string): string => `${draft}\n</think>\n\n${reply}`,
};

/** Ready-made replies for the failure shapes of real endpoints. */
export const replies = {
  text: (text: string, extra: StyledReply = {}): StyledReply => ({ text, ...extra }),
  /** Cut at the output limit. */
  cut: (text: string): StyledReply => ({ text, cut: true }),
  empty: (): StyledReply => ({ text: '' }),
  /** DeepSeek / vLLM / Qwen servers: empty content, the text in `reasoning_content` (or `reasoning`). */
  reasoningOnly: (text: string, field: 'reasoning_content' | 'reasoning' = 'reasoning_content'): StyledReply => ({ text: '', reasoning: text, reasoningField: field }),
  toolCall: (name: string, args: Record<string, unknown>): StyledReply => ({ toolCalls: [{ name, args }] }),
  noUsage: (text: string): StyledReply => ({ text, noUsage: true }),
  status: (status: number, retryAfterSeconds?: number): StyledReply => ({ status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) }),
  /** Answers only after `ms`: past the client's timeout. */
  hang: (ms: number): StyledReply => ({ text: 'too late', delayMs: ms }),
  /** A rate limit with `Retry-After: 1`, then `n` server errors. */
  outage: (n = 3): StyledReply[] => [{ status: 429, retryAfterSeconds: 1 }, ...Array.from({ length: n }, () => ({ status: 500 }))],
};

function promptOf(body: any): string {
  const messages: Array<{ content: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
  return [typeof body?.system === 'string' ? body.system : '', ...messages.map((m) => flatten(m.content))].filter(Boolean).join('\n');
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('');
  return '';
}

/** The 400 a real endpoint answers for a refused parameter or an empty turn; undefined when the request is acceptable. */
function refusalOf(provider: WireProvider, body: any, rejects: ReadonlySet<RefusedParameter>): FakeReply | undefined {
  if (provider === 'openai') {
    if (rejects.has('max_tokens') && body?.max_tokens !== undefined) {
      return openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
    }
    if (rejects.has('temperature') && body?.temperature !== undefined && body.temperature !== 1) {
      return openaiError(400, `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
    }
    return undefined;
  }
  const messages: Array<{ content: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
  const empty = messages.findIndex((m) => flatten(m.content).trim() === '');
  if (empty >= 0) return anthropicError(400, `messages.${empty}: all messages must have non-empty content except for the optional final assistant message`);
  if (rejects.has('temperature') && body?.temperature !== undefined) {
    return anthropicError(400, 'temperature: This model does not support the temperature parameter.');
  }
  return undefined;
}

function openaiError(status: number, message: string, param: string, code: string): FakeReply {
  return { status, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

function anthropicError(status: number, message: string): FakeReply {
  return { status, body: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function shape(provider: WireProvider, body: any, reply: StyledReply, n: number): FakeReply {
  const shaped = shapeBody(provider, body, reply, n);
  switch (reply.transport) {
    case undefined:
      return shaped;
    case 'stall':
    case 'reset':
      return { ...shaped, midBody: reply.transport };
    case 'html':
      return { delayMs: reply.delayMs, rawBody: '<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>', headers: { 'content-type': 'text/html' } };
    case 'sse':
      return { delayMs: reply.delayMs, rawBody: `data: ${JSON.stringify(shaped.body)}\n\ndata: [DONE]\n\n`, headers: { 'content-type': 'text/event-stream' } };
  }
}

function shapeBody(provider: WireProvider, body: any, reply: StyledReply, n: number): FakeReply {
  const delayMs = reply.delayMs;
  if (reply.status !== undefined && reply.status >= 400) {
    const headers = reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : undefined;
    return { status: reply.status, delayMs, ...(headers ? { headers } : {}) };
  }
  const text = reply.text ?? '';
  const model = typeof body?.model === 'string' ? body.model : 'scripted-model';
  const calls = reply.toolCalls ?? [];
  const outputTokens = reply.usage?.outputTokens ?? approxTokens(text + (reply.reasoning ?? '') + JSON.stringify(calls));
  const inputTokens = reply.usage?.inputTokens ?? approxTokens(promptOf(body));
  if (provider === 'anthropic') {
    const content: unknown[] = [];
    if (reply.reasoning !== undefined) content.push({ type: 'thinking', thinking: reply.reasoning, signature: 'c2lnbmF0dXJl' });
    if (reply.redactedThinking) content.push({ type: 'redacted_thinking', data: 'RW5jcnlwdGVk' });
    if (text !== '' || calls.length === 0) content.push({ type: 'text', text });
    calls.forEach((c, i) => content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: c.name, input: reply.rawToolArgs ?? c.args }));
    const stop = reply.noFinishReason ? null : reply.finishReason ?? (reply.cut ? 'max_tokens' : calls.length > 0 ? 'tool_use' : 'end_turn');
    return {
      delayMs,
      body: {
        id: `msg_scripted_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        ...(reply.noUsage ? {} : { usage: { input_tokens: inputTokens, output_tokens: outputTokens } }),
      },
    };
  }
  const message: Record<string, unknown> = { role: 'assistant', content: (calls.length > 0 || reply.refusal !== undefined) && text === '' ? null : text, refusal: reply.refusal ?? null };
  if (reply.reasoning !== undefined) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((c, i) => ({ id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: reply.rawToolArgs ?? JSON.stringify(c.args) } }));
  }
  const finish = reply.noFinishReason ? null : reply.finishReason ?? (reply.cut ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop');
  return {
    delayMs,
    body: {
      id: `chatcmpl-scripted-${n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      ...(reply.noUsage ? {} : { usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens } }),
    },
  };
}
