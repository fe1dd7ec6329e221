/**
 * A scriptable fake LLM server for tests: OpenAI Chat Completions, Anthropic
 * Messages and OpenAI Embeddings on 127.0.0.1 (random port). Tests drive the
 * real client code against it: script replies (queue or handler), inject
 * status codes, delays and dropped connections, then assert on `requests`.
 *
 * Unscripted requests get deterministic defaults, so suites that only need
 * "some model" or embeddings can start it with no setup.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which API a request hit; null for unknown paths (answered 404). */
export type FakeRoute = 'chat' | 'messages' | 'embeddings';

/**
 * One scripted reply. With no `body`, a success is shaped for the route from
 * `content`/`usage`/`finishReason`/`model`, and an error status gets the
 * route's error shape. `drop` destroys the socket (a connection reset);
 * `delayMs` waits before answering (or dropping).
 */
export interface FakeReply {
  content?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  finishReason?: string;
  model?: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  delayMs?: number;
  drop?: boolean;
  /** Send the status, headers and half the body, then stall (never finish) or reset the connection. */
  midBody?: 'stall' | 'reset';
}

/** A queued reply, optionally reserved for one route so parallel traffic cannot steal it. */
export interface QueuedReply extends FakeReply {
  route?: FakeRoute;
}

/** What the server received, recorded before it answers. */
export interface RecordedRequest {
  method: string;
  path: string;
  route: FakeRoute | null;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: any;
  /** `Date.now()` at arrival, for asserting backoff gaps. */
  receivedAt: number;
}

/** Computes a reply from the request body (`(body) => reply` with the full request as a bonus). */
export type FakeHandler = (body: any, request: RecordedRequest) => FakeReply | Promise<FakeReply>;

/** `hash`: vector from a hash of the whole text; `bag-of-words`: sum of per-word hash vectors, so texts sharing words are similar. */
export type FakeEmbeddingMode = 'hash' | 'bag-of-words';

/** Options for {@link startFakeOpenAIServer}. */
export interface FakeServerOptions {
  /** Replies consumed in order before the handler/defaults are used. */
  replies?: QueuedReply[];
  handler?: FakeHandler;
  /** Default embedding size when the request has no `dimensions`. Default 16. */
  embeddingDimension?: number;
  embeddingMode?: FakeEmbeddingMode;
}

/** A running fake server. `url` has no trailing slash and no `/v1`. */
export interface FakeServer {
  url: string;
  /** `${url}/v1`, the baseURL for OpenAI-style clients. */
  openaiBaseUrl: string;
  requests: RecordedRequest[];
  enqueue(...replies: QueuedReply[]): void;
  setHandler(handler: FakeHandler | undefined): void;
  close(): Promise<void>;
}

/**
 * Start a fake server on 127.0.0.1 with an OS-assigned port. Reply selection
 * per request: first queued reply whose `route` matches (or is unset), else
 * the handler, else the route default (a deterministic echo or embedding).
 */
export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const queue: QueuedReply[] = [...(options.replies ?? [])];
  let handler = options.handler;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) send(res, 500, { error: { message: `fake server bug: ${String(error)}` } });
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routeOf(req.method ?? 'GET', path);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : (v ?? '');
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep raw text: the test may want to see what was sent
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, route, headers, body, receivedAt: Date.now() };
    requests.push(recorded);

    if (req.method === 'GET' && path === '/v1/models') return send(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }] });
    if (route === null) return send(res, 404, { error: { message: `fake server: no route for ${req.method} ${path}`, type: 'not_found' } });

    const index = queue.findIndex((r) => r.route === undefined || r.route === route);
    const reply: FakeReply = index >= 0 ? queue.splice(index, 1)[0]! : handler ? await handler(body, recorded) : {};
    if (reply.delayMs) await delay(reply.delayMs);
    if (res.destroyed) return; // the client gave up (timeout/abort) while we waited
    if (reply.drop) {
      req.socket.destroy();
      return;
    }
    const status = reply.status ?? 200;
    if (reply.midBody) return partial(req, res, status, reply.rawBody ?? JSON.stringify(reply.body ?? {}), reply.midBody);
    if (reply.rawBody !== undefined) return send(res, status, reply.rawBody, reply.headers);
    if (reply.body !== undefined) return send(res, status, reply.body, reply.headers);
    if (status >= 400) return send(res, status, errorBody(route, status), reply.headers);
    counter += 1;
    const shaped =
      route === 'embeddings'
        ? embeddingsBody(body, options.embeddingDimension ?? 16, options.embeddingMode ?? 'hash')
        : completionBody(route, body, reply, counter);
    return send(res, status, shaped, reply.headers);
  }

  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setHandler: (next) => void (handler = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Alias matching the `start()` wording in the test plan. */
export { startFakeOpenAIServer as start };

function routeOf(method: string, path: string): FakeRoute | null {
  if (method !== 'POST') return null;
  const p = path.replace(/\/+$/, '');
  if (p === '/v1/chat/completions') return 'chat';
  if (p === '/v1/messages') return 'messages';
  if (p === '/v1/embeddings') return 'embeddings';
  return null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** Headers and the first half of `text`, then a stall (the socket stays open until the client leaves) or a reset. */
function partial(req: IncomingMessage, res: ServerResponse, status: number, text: string, mode: 'stall' | 'reset'): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  if (mode === 'reset') setTimeout(() => req.socket.destroy(), 5);
}

function errorBody(route: FakeRoute, status: number): unknown {
  const message = `fake ${status} error`;
  if (route === 'messages') return { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null, param: null } };
}

/** Rough token estimate (4 chars/token) so default usage looks plausible. */
function approxTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function completionBody(route: 'chat' | 'messages', body: any, reply: FakeReply, n: number): unknown {
  const messages: Array<{ role: string; content: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
  const prompt = [typeof body?.system === 'string' ? body.system : '', ...messages.map((m) => flatten(m.content))].join('\n');
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const content = reply.content ?? `fake reply to: ${flatten(lastUser?.content).slice(0, 80)}`;
  const inputTokens = reply.usage?.inputTokens ?? approxTokens(prompt);
  const outputTokens = reply.usage?.outputTokens ?? approxTokens(content);
  const model = reply.model ?? (typeof body?.model === 'string' ? body.model : 'fake-model');
  if (route === 'messages') {
    return {
      id: `msg_fake_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: content }],
      stop_reason: reply.finishReason ?? 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    };
  }
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
    usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  };
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('');
  return '';
}

function embeddingsBody(body: any, defaultDimension: number, mode: FakeEmbeddingMode): unknown {
  const raw: unknown[] = Array.isArray(body?.input) ? body.input : [body?.input ?? ''];
  const inputs = raw.map((i) => (typeof i === 'string' ? i : JSON.stringify(i)));
  const dimension = Number.isInteger(body?.dimensions) && body.dimensions > 0 ? body.dimensions : defaultDimension;
  const base64 = body?.encoding_format === 'base64';
  const tokens = inputs.reduce((sum, text) => sum + approxTokens(text), 0);
  return {
    object: 'list',
    model: typeof body?.model === 'string' ? body.model : 'fake-embedding',
    data: inputs.map((text, index) => {
      const vector = fakeEmbedding(text, dimension, mode);
      // The openai SDK asks for base64 (little-endian float32) unless told otherwise.
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    }),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/**
 * The vector the fake server returns for `text`: unit length, deterministic
 * across runs and machines. Exported so tests can compute expected values.
 */
export function fakeEmbedding(text: string, dimension = 16, mode: FakeEmbeddingMode = 'hash'): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const units = mode === 'hash' ? [text] : words(text);
  for (const unit of units) {
    const v = hashVector(unit, dimension);
    for (let i = 0; i < dimension; i++) vector[i]! += v[i]!;
  }
  const norm = Math.hypot(...vector);
  // Float32 rounding keeps JSON and base64 answers identical.
  return vector.map((x) => Math.fround(norm === 0 ? 0 : x / norm));
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function hashVector(text: string, dimension: number): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < dimension; block++) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 4 <= digest.length && out.length < dimension; i += 4) {
      out.push(digest.readUInt32LE(i) / 0xffffffff * 2 - 1);
    }
  }
  return out;
}
