/**
 * Embeddings from any server speaking OpenAI's `POST /v1/embeddings`: OpenAI
 * itself, Ollama (`http://127.0.0.1:11434/v1`), vLLM, LM Studio, LiteLLM, TEI…
 * Plain `fetch` rather than the openai SDK so retries, timeouts and error
 * messages follow one policy we control (the SDK's own retries would stack
 * with ours and its errors may echo request headers).
 */
import { ReponavError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import {
  LlmTransportError,
  parseRetryAfter,
  redactSecrets,
  resolveRetryPolicy,
  withRetry,
  type RetryPolicy,
} from '../../llm/index.js';
import { checkVectors, truncateForEmbedding, type Embedder } from './embedder.js';
import { countOf } from '../../plural.js';

/** Texts per request unless configured: OpenAI accepts 2048, but smaller requests retry cheaply and stay under token caps. */
export const DEFAULT_EMBED_BATCH_SIZE = 64;
/** Characters per text unless configured: ~2–4k tokens of code, within every common model's window; 64 of them stay under OpenAI's 300k-token request cap. */
export const DEFAULT_EMBED_MAX_CHARS = 8000;
/** Per-request timeout unless configured. */
export const DEFAULT_EMBED_TIMEOUT_MS = 60_000;
/** Used when neither config nor environment names a server. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Used only against api.openai.com when no model is named; any other server must be told the model. */
export const DEFAULT_OPENAI_EMBED_MODEL = 'text-embedding-3-small';

/** Configuration; every field falls back to the environment or a default. */
export interface OpenAIEmbedderConfig {
  /** Server base URL ending in `/v1`. Env `REPONAV_EMBED_BASE_URL`; default api.openai.com. */
  baseUrl?: string;
  /** Model name as the server knows it. Env `REPONAV_EMBED_MODEL`. */
  model?: string;
  /** Bearer key. Env `REPONAV_EMBED_API_KEY`; `OPENAI_API_KEY` is used only for api.openai.com. */
  apiKey?: string;
  /** Ask for shortened vectors (OpenAI text-embedding-3 models); omitted from the request when unset. */
  dimensions?: number;
  batchSize?: number;
  maxInputChars?: number;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  /** Where env fallbacks are read (tests pass a fixed record). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Injectable transport (tests); default global `fetch`. */
  fetch?: typeof fetch;
  /** Injectable jitter source for deterministic backoff in tests. */
  random?: () => number;
}

/** The configuration after env fallbacks and defaults; `apiKey` never leaves this module in messages. */
export interface ResolvedOpenAIEmbedderConfig {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  dimensions: number | undefined;
  batchSize: number;
  maxInputChars: number;
  timeoutMs: number;
  retry: RetryPolicy;
}

/**
 * Applies env fallbacks and defaults, and rejects unusable settings early with
 * `ReponavError('EMBEDDER_ERROR')`: a malformed base URL, no model for a
 * non-OpenAI server, no key for api.openai.com, non-positive sizes.
 */
export function resolveOpenAIEmbedderConfig(config: OpenAIEmbedderConfig = {}): ResolvedOpenAIEmbedderConfig {
  const env = config.env ?? process.env;
  const rawBase = nonEmpty(config.baseUrl) ?? nonEmpty(env.REPONAV_EMBED_BASE_URL) ?? OPENAI_BASE_URL;
  let url: URL;
  try {
    url = new URL(rawBase);
  } catch {
    throw new ReponavError('EMBEDDER_ERROR', `Embedding base URL '${displayUrl(rawBase)}' is not a URL; use e.g. http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ReponavError('EMBEDDER_ERROR', `Embedding base URL must be http(s), got ${url.protocol}`);
  }
  const baseUrl = rawBase.replace(/\/+$/, '');
  const official = url.hostname === 'api.openai.com';
  const model = nonEmpty(config.model) ?? nonEmpty(env.REPONAV_EMBED_MODEL) ?? (official ? DEFAULT_OPENAI_EMBED_MODEL : undefined);
  if (!model) {
    throw new ReponavError(
      'EMBEDDER_ERROR',
      `No embedding model named for ${displayUrl(baseUrl)}; pass --embed-model or set REPONAV_EMBED_MODEL (for Ollama e.g. nomic-embed-text).`,
    );
  }
  // OPENAI_API_KEY is only ever sent to OpenAI: forwarding it to an arbitrary
  // base URL would leak it to whoever runs that server.
  const apiKey = nonEmpty(config.apiKey) ?? nonEmpty(env.REPONAV_EMBED_API_KEY) ?? (official ? nonEmpty(env.OPENAI_API_KEY) : undefined);
  if (official && !apiKey) {
    throw new ReponavError('EMBEDDER_ERROR', 'Embedding with api.openai.com needs a key: set REPONAV_EMBED_API_KEY or OPENAI_API_KEY.');
  }
  const positive = (name: string, value: number | undefined, fallback: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < 1) throw new ReponavError('EMBEDDER_ERROR', `Embedder ${name} must be a positive integer, got ${v}.`);
    return v;
  };
  return {
    baseUrl,
    model,
    apiKey,
    dimensions: config.dimensions === undefined ? undefined : positive('dimensions', config.dimensions, 1),
    batchSize: positive('batchSize', config.batchSize, DEFAULT_EMBED_BATCH_SIZE),
    maxInputChars: positive('maxInputChars', config.maxInputChars, DEFAULT_EMBED_MAX_CHARS),
    timeoutMs: positive('timeoutMs', config.timeoutMs, DEFAULT_EMBED_TIMEOUT_MS),
    retry: resolveRetryPolicy(config.retry),
  };
}

/**
 * An {@link Embedder} over an OpenAI-compatible embeddings endpoint. Splits
 * input into batches of `batchSize` sent one after another, truncates each
 * text to `maxInputChars`, retries 408/409/429/5xx, timeouts and connection
 * errors with jittered exponential backoff (honouring `Retry-After`), and
 * fails with `ReponavError('EMBEDDER_ERROR')` naming the HTTP status, model
 * and base URL — never the key. Its id is `openai-compatible:<model>`.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  private knownDimension: number | null;
  private readonly config: ResolvedOpenAIEmbedderConfig;
  private readonly logger: Logger;
  private readonly fetchImpl: typeof fetch;
  private readonly random: (() => number) | undefined;
  /** Base URL safe for messages (no credentials, no query string). */
  private readonly shownUrl: string;

  constructor(config: OpenAIEmbedderConfig = {}) {
    this.config = resolveOpenAIEmbedderConfig(config);
    this.id = `openai-compatible:${this.config.model}`;
    this.knownDimension = this.config.dimensions ?? null;
    this.logger = config.logger ?? silentLogger;
    this.fetchImpl = config.fetch ?? fetch;
    this.random = config.random;
    this.shownUrl = displayUrl(this.config.baseUrl);
  }

  get dimension(): number | null {
    return this.knownDimension;
  }

  /** See {@link Embedder.embed}. */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.config.batchSize) {
      const batch = texts.slice(start, start + this.config.batchSize).map((t) => truncateForEmbedding(t, this.config.maxInputChars));
      const vectors = await this.withRetries(() => this.request(batch, signal), signal);
      const dimension = checkVectors(vectors, batch.length, `Embedding server ${this.shownUrl}`);
      if (this.knownDimension === null) this.knownDimension = dimension;
      else if (dimension !== this.knownDimension) {
        throw new ReponavError(
          'EMBEDDER_ERROR',
          `Embedding model ${this.config.model} at ${this.shownUrl} returned ${dimension}-dimensional vectors after ${this.knownDimension}-dimensional ones; the server changed models mid-run.`,
        );
      }
      out.push(...vectors);
    }
    return out;
  }

  /** One HTTP attempt; failures become `LlmTransportError`s for the retry policy. */
  private async request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body: Record<string, unknown> = { model: this.config.model, input, encoding_format: 'float' };
    if (this.config.dimensions !== undefined) body.dimensions = this.config.dimensions;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(`${this.config.baseUrl}/embeddings`, { method: 'POST', headers, body: JSON.stringify(body), signal: combined });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw new LlmTransportError('aborted', 'aborted by caller');
      if (timeout.aborted) throw new LlmTransportError('timeout', `no answer within ${this.config.timeoutMs} ms`);
      throw new LlmTransportError('connection', this.redact(describeCause(error)), { cause: error });
    }
    if (!response.ok) {
      throw new LlmTransportError('http', this.redact(errorMessageOf(text) ?? response.statusText), {
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers),
      });
    }
    return parseEmbeddings(text, input.length);
  }

  /** The LLM layer's retry loop, with embedding-specific messages. */
  private withRetries<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return withRetry(attempt, this.config.retry, {
      modelId: this.config.model,
      baseUrl: this.shownUrl,
      signal,
      logger: this.logger,
      random: this.random,
      label: `embedding ${this.config.model}`,
      failure: (error, attempts, why) => this.failure(error, attempts, why),
      aborted: (attempts) => this.aborted(attempts),
    });
  }

  private failure(error: LlmTransportError, attempts: number, why: string): ReponavError {
    const message =
      `Embedding request to ${this.config.model} at ${this.shownUrl} failed (${statusOf(error)}; ${why}): ` +
      `${error.message.slice(0, 300)}. ${hint(error, this.shownUrl)}`;
    return new ReponavError('EMBEDDER_ERROR', message, {
      status: error.status,
      kind: error.kind,
      model: this.config.model,
      baseUrl: this.shownUrl,
      attempts,
    });
  }

  private aborted(attempts: number): ReponavError {
    return new ReponavError('EMBEDDER_ERROR', `Embedding request to ${this.config.model} at ${this.shownUrl} aborted by caller.`, {
      aborted: true,
      attempts,
    });
  }

  private redact(text: string): string {
    return redactSecrets(text, [this.config.apiKey]);
  }
}

/** Parses `{data: [{index, embedding}]}` with float arrays or base64 float32 strings, ordered by `index`. */
function parseEmbeddings(text: string, expected: number): Float32Array[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LlmTransportError('bad-response', `answer is not JSON: ${text.slice(0, 120)}`);
  }
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data)) throw new LlmTransportError('bad-response', 'answer has no `data` array of embeddings');
  // Filled, not sparse: `some` below must see every slot.
  const slots: (Float32Array | undefined)[] = Array.from({ length: expected }, () => undefined);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= expected || slots[index]) {
      throw new LlmTransportError('bad-response', `answer has a bad or repeated embedding index ${String(item?.index)}`);
    }
    slots[index] = toVector(item?.embedding);
  });
  if (slots.some((s) => s === undefined)) throw new LlmTransportError('bad-response', `answer has ${countOf(data.length, 'embedding')} for ${countOf(expected, 'input')}`);
  return slots as Float32Array[];
}

function toVector(embedding: unknown): Float32Array {
  if (Array.isArray(embedding) && embedding.every((x) => typeof x === 'number')) return Float32Array.from(embedding as number[]);
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    if (bytes.length % 4 !== 0) throw new LlmTransportError('bad-response', 'base64 embedding is not a float32 array');
    // Copy: the Buffer may be a view into a shared pool with an unaligned offset.
    const copy = new Uint8Array(bytes);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  throw new LlmTransportError('bad-response', 'an embedding is neither a number array nor base64');
}

function errorMessageOf(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (typeof json.error?.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.trim() ? text.trim().slice(0, 300) : undefined;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const base = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${base} (${cause.code})` : cause?.message ? `${base} (${cause.message})` : base;
}

function statusOf(error: LlmTransportError): string {
  return error.status !== undefined ? `HTTP ${error.status}` : error.kind;
}

/** What the user should do next. */
function hint(error: LlmTransportError, baseUrl: string): string {
  if (error.kind === 'timeout') return 'The server did not answer in time; raise the timeout or lower the batch size.';
  if (error.kind === 'connection') return `Could not reach ${baseUrl}; check --embed-base-url and that the server is running (Ollama: \`ollama serve\`).`;
  if (error.kind === 'bad-response') return 'The answer is not an OpenAI-compatible embeddings response; check that the base URL ends in /v1.';
  switch (error.status) {
    case 401:
      return 'Authentication failed; check REPONAV_EMBED_API_KEY (or OPENAI_API_KEY for api.openai.com).';
    case 403:
      return 'The key may not use this model or endpoint.';
    case 404:
      return 'Model or endpoint not found; check --embed-model (Ollama: `ollama pull <model>` first) and that the base URL ends in /v1.';
    case 400:
    case 413:
      return 'The server rejected the input; lower the batch size or the maximum characters per text, or drop the dimensions option.';
    case 429:
      return 'Rate limited; wait, lower the batch size, or raise the retry limits.';
    default:
      return (error.status ?? 0) >= 500 ? 'The server kept failing; try again later.' : 'Check the embedder configuration.';
  }
}

/** Origin and path only: a URL's userinfo or query string may carry credentials. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return raw.replace(/\/\/[^/@]*@/, '//').replace(/\?.*$/, '');
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() ? value.trim() : undefined;
}
