/**
 * ChatModel over the OpenAI Chat Completions API via the official `openai`
 * package. The same wire format is served by OpenAI, OpenRouter, vLLM, Ollama
 * and the llama.cpp server, so one client covers hosted and local models.
 * The SDK's own retries are off: `withRetry` owns retry policy for all providers.
 *
 * `openai` is an OPTIONAL peer dependency (20 MB that search, MCP and the
 * library never use): creating a model checks that it resolves (so a command
 * fails at once, before indexing or searching, saying how to install it), and
 * the module itself is imported on the first request. Only types are imported
 * statically.
 */
import { createRequire } from 'node:module';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { ReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import { DEFAULT_PRICES, costOf, type PriceTable } from './pricing.js';
import { isEventStream, learningProfile, readReply, requireUsable, saysStreamOnly, sendableTurns, streamOnlyFailure, toChatResponse, type ReadReply } from './provider-reply.js';
import type { UsableOutcome } from './reply-outcome.js';
import { initialRequestProfile, type RequestProfile, type RequestProfileOverrides } from './request-profile.js';
import {
  LlmTransportError,
  parseRetryAfter,
  redactSecrets,
  resolveRetryPolicy,
  withRetry,
  type RetryPolicy,
} from './retry.js';

/** Options for {@link createOpenAICompatibleModel}. */
export interface OpenAICompatibleModelOptions {
  /** Model name as the server knows it, e.g. `gpt-4o-mini` or `qwen2.5-coder:7b`. */
  model: string;
  /** API root including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Bearer key. Keyless local servers accept any placeholder. */
  apiKey: string;
  /** Label for the `id` prefix (`openai`, `ollama`, `openrouter`, …). Default `openai`. */
  providerLabel?: string;
  /** Per-attempt timeout. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  prices?: PriceTable;
  logger?: Logger;
  /** Extra headers, e.g. OpenRouter's `HTTP-Referer`. */
  defaultHeaders?: Record<string, string>;
  /** Custom fetch (proxies, instrumentation). Defaults to global fetch. */
  fetch?: typeof fetch;
  /** Request parameters the endpoint accepts; default from the model family (request-profile.ts), corrected from its 400s. */
  requestProfile?: RequestProfileOverrides;
  /** Module loader for the `openai` package; tests replace it to simulate a missing install. Default: dynamic `import()`. */
  importModule?: (specifier: string) => Promise<unknown>;
}

/** The optional package, named once so the message and the import agree. */
export const OPENAI_PACKAGE = 'openai';

type OpenAIModule = typeof import('openai');
type OpenAIClient = InstanceType<OpenAIModule['default']>;

/**
 * Default per-attempt timeout: generous because local models can be slow,
 * but with the default two attempts for timeouts a call that never answers
 * costs at most about two minutes (a run's deadline cuts it shorter).
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Create a ChatModel for an OpenAI-compatible endpoint. `id` is
 * `${providerLabel}:${model}`. Failures reject with `ReponavError('LLM_ERROR')`
 * after retrying transient ones (see `withRetry`); the API key never appears
 * in messages or logs.
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ChatModel {
  const logger = options.logger ?? silentLogger;
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const prices = options.prices ?? DEFAULT_PRICES;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const id = `${options.providerLabel ?? 'openai'}:${options.model}`;
  if (!options.importModule) assertSdkResolves();
  const importModule = options.importModule ?? ((specifier: string) => import(specifier));
  let loading: Promise<{ sdk: OpenAIModule; client: OpenAIClient }> | undefined;
  const load = () =>
    (loading ??= loadSdk(importModule).then((sdk) => ({ sdk, client: newClient(sdk) })).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const newClient = (sdk: OpenAIModule): OpenAIClient => new sdk.default({
    baseURL: baseUrl,
    // The SDK refuses an empty key; keyless local servers ignore whatever we send.
    apiKey: options.apiKey || 'no-key',
    maxRetries: 0,
    timeout: timeoutMs,
    defaultHeaders: options.defaultHeaders,
    fetch: options.fetch,
    // The SDK logs to console by default; stdout belongs to the MCP transport.
    logger: sdkLogger(logger, options.apiKey),
  });

  const profile = learningProfile(initialRequestProfile(options.model, options.requestProfile), 'openai-compatible', id, logger);

  async function attempt(sdk: OpenAIModule, client: OpenAIClient, req: ChatRequest, p: RequestProfile): Promise<{ completion: ChatCompletion; reply: ReadReply & { outcome: UsableOutcome } }> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: options.model,
      messages: sendableTurns(req.messages).map((m) => ({ role: m.role === 'system' ? p.systemRole : m.role, content: m.content })),
    };
    if (p.sendTemperature) body.temperature = req.temperature ?? 0;
    if (req.maxTokens !== undefined) body[p.maxTokensField] = req.maxTokens;
    if (req.responseFormat === 'json') body.response_format = { type: 'json_object' };
    if (req.stop && req.stop.length > 0) body.stop = req.stop;
    // The SDK adds an abort listener to the signal it is given and never
    // removes it: on a run-wide signal that leaks one listener per call
    // (MaxListenersExceededWarning after 10). It gets a per-call signal instead,
    // which also carries this attempt's timeout: the SDK's own timer stops once
    // the headers arrive, and a body that stalls after them must time out too.
    const link = linkedSignal(req.signal, timeoutMs);
    try {
      const completion = await client.chat.completions.create(body, { signal: link.signal });
      // Some servers answer 200 with an error object, an event stream or an empty body.
      if (typeof completion === 'string' && isEventStream(completion)) throw streamOnlyFailure();
      if (!completion || !Array.isArray(completion.choices) || completion.choices.length === 0) {
        throw new LlmTransportError('bad-response', `response has no choices: ${snippet(completion)}`);
      }
      const choice = completion.choices[0]!;
      const message = (choice.message ?? {}) as { content?: string | null; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown; refusal?: unknown };
      const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '';
      const read = readReply({
        content: typeof message.content === 'string' ? message.content : '',
        reasoning,
        reasoningMayAnswer: true,
        toolCalls: toolCallsOf(message.tool_calls),
        finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
        refusal: typeof message.refusal === 'string' ? message.refusal : null,
      });
      return { completion, reply: requireUsable(read) };
    } catch (error) {
      if (link.timedOut() && !req.signal?.aborted) throw new LlmTransportError('timeout', 'request timed out');
      throw translate(sdk, error, options.apiKey);
    } finally {
      link.release();
    }
  }

  return {
    id,
    estimateCostUsd: (usage) => costOf(options.model, usage, prices),
    async complete(req: ChatRequest): Promise<ChatResponse> {
      const started = performance.now();
      // Outside withRetry: a missing package is not transient.
      const { sdk, client } = await load();
      return profile.run(async (p) => {
        const { completion, reply } = await withRetry(() => attempt(sdk, client, req, p), policy, {
          modelId: id,
          baseUrl,
          timeoutMs,
          signal: req.signal,
          logger,
        });
        const usage = completion.usage;
        const reported = usage ? { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } : null;
        return toChatResponse(reply, reported, completion.model || options.model, { requestedModel: options.model, prices, messages: req.messages, started, logger, id });
      });
    },
  };
}

/** Native tool calls (`tool_calls[].function`), arguments parsed when they are JSON. */
function toolCallsOf(raw: unknown): Array<{ name: string; args: unknown }> {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((call: { function?: { name?: unknown; arguments?: unknown } }) => {
    const name = call?.function?.name;
    if (typeof name !== 'string') return [];
    const text = call.function?.arguments;
    let args: unknown = text ?? {};
    if (typeof text === 'string') {
      try {
        args = JSON.parse(text);
      } catch {
        args = text;
      }
    }
    return [{ name, args }];
  });
}

/**
 * A per-call signal following `parent` and aborting after `timeoutMs`;
 * `release` removes its listener on `parent` and its timer (an unreleased
 * timer would keep the process alive).
 */
function linkedSignal(parent: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; timedOut: () => boolean; release: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('request timed out'));
  }, timeoutMs);
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}

/** Throws the install message when the `openai` package cannot be resolved from this module. */
function assertSdkResolves(): void {
  try {
    createRequire(import.meta.url).resolve(OPENAI_PACKAGE);
  } catch (error) {
    throw sdkLoadError(error);
  }
}

/** Imports the optional `openai` package; a failure becomes {@link sdkLoadError}'s message. */
async function loadSdk(importModule: (specifier: string) => Promise<unknown>): Promise<OpenAIModule> {
  try {
    return (await importModule(OPENAI_PACKAGE)) as OpenAIModule;
  } catch (error) {
    throw sdkLoadError(error);
  }
}

/**
 * `ReponavError('LLM_ERROR')` naming the install command when the package is
 * absent, and the loader's own explanation when it is present but broken.
 */
function sdkLoadError(error: unknown): ReponavError {
  const code = (error as { code?: string })?.code;
  const message = error instanceof Error ? error.message : String(error);
  const namesPackage = message.includes(`'${OPENAI_PACKAGE}'`) || message.includes(`"${OPENAI_PACKAGE}"`);
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /could not resolve|cannot find (package|module)/i.test(message);
  if (!(namesPackage && notFound)) return new ReponavError('LLM_ERROR', `The ${OPENAI_PACKAGE} package is installed but failed to load (${message}).`);
  return new ReponavError(
    'LLM_ERROR',
    `OpenAI-compatible models (openai:, ollama:, REPONAV_LLM_BASE_URL) need the optional package ${OPENAI_PACKAGE}, which is not installed: ` +
      `run \`npm install ${OPENAI_PACKAGE}@6\` next to reponav (\`npm install -g ${OPENAI_PACKAGE}@6\` for a global install). anthropic: models need no extra package.`,
    { missingPackage: OPENAI_PACKAGE },
  );
}

/** Map an SDK error onto the provider-neutral transport error. */
function translate(sdk: OpenAIModule, error: unknown, apiKey: string): unknown {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
  if (error instanceof LlmTransportError) return error;
  // Order matters: the timeout and abort classes are subclasses of APIError.
  if (error instanceof APIUserAbortError) return new LlmTransportError('aborted', 'aborted');
  if (error instanceof APIConnectionTimeoutError) return new LlmTransportError('timeout', 'request timed out');
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${causeMessage(error.cause)}` : '';
    return new LlmTransportError('connection', redactSecrets(`${error.message}${cause}`, [apiKey]), { cause: error });
  }
  if (error instanceof APIError && error.status !== undefined) {
    const headers = error.headers;
    const shouldRetry = headers?.get('x-should-retry');
    const said = serverMessage(error);
    if (error.status === 400 && saysStreamOnly(said)) return streamOnlyFailure(redactSecrets(said, [apiKey]), 400);
    return new LlmTransportError('http', redactSecrets(said, [apiKey]), {
      status: error.status,
      retryAfterMs: parseRetryAfter(headers ?? undefined),
      shouldRetry: shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : undefined,
    });
  }
  // A connection reset while the body was read surfaces from fetch's body stream, not as an APIConnectionError.
  if (error instanceof TypeError && /terminated|ECONNRESET|other side closed|socket/i.test(causeMessage(error))) {
    return new LlmTransportError('connection', redactSecrets(`connection lost while reading the reply: ${causeMessage(error)}`, [apiKey]), { cause: error });
  }
  if (error instanceof SyntaxError) {
    // An event stream under a JSON content type fails the SDK's JSON.parse; its message quotes the body's start.
    if (/"\s*(?:data|event):/.test(error.message)) return streamOnlyFailure();
    return new LlmTransportError('bad-response', `response is not valid JSON: ${error.message}`);
  }
  return error;
}

/** The server's own explanation, without the SDK's "400 " status prefix. */
function serverMessage(error: InstanceType<OpenAIModule['APIError']>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s*/, '') || 'no error message';
}

function causeMessage(cause: Error): string {
  const code = (cause as { code?: unknown }).code;
  const inner = cause.cause instanceof Error ? causeMessage(cause.cause) : '';
  return [cause.message, typeof code === 'string' ? code : '', inner].filter(Boolean).join(' / ');
}

function snippet(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Route the SDK's logger into ours, flattening extra arguments and scrubbing the key. */
function sdkLogger(logger: Logger, apiKey: string) {
  const fmt = (message: string, rest: unknown[]) =>
    redactSecrets([`openai sdk: ${message}`, ...rest.map((r) => (typeof r === 'string' ? r : safeJson(r)))].join(' '), [apiKey]);
  return {
    error: (message: string, ...rest: unknown[]) => logger.error(fmt(message, rest)),
    warn: (message: string, ...rest: unknown[]) => logger.warn(fmt(message, rest)),
    info: (message: string, ...rest: unknown[]) => logger.info(fmt(message, rest)),
    debug: (message: string, ...rest: unknown[]) => logger.debug(fmt(message, rest)),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
