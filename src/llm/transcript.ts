/**
 * JSONL transcripts of model traffic, and offline replay from them. Recording
 * makes agent/eval runs auditable; replay makes them reproducible and free
 * (CI, regression tests, demos) without network access or API keys.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ReponavError, isReponavError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import { classifyReply, outcomeSentence } from './reply-outcome.js';

/** Bumped if the line format ever changes incompatibly. */
export const TRANSCRIPT_VERSION = 1;

/**
 * One line of a transcript: the request (minus its AbortSignal), its hash, and
 * either the response or the error it ended with.
 */
export interface TranscriptEntry {
  v: number;
  hash: string;
  at: string;
  modelId: string;
  request: {
    messages: ChatMessage[];
    temperature: number;
    responseFormat: 'text' | 'json';
    maxTokens?: number;
    stop?: string[];
  };
  response?: ChatResponse;
  error?: { code?: string; message: string };
}

/**
 * Stable 16-hex-digit hash identifying a request for replay: SHA-256 over the
 * messages (role + content only), temperature (default 0) and response format
 * (default 'text'). Other fields (maxTokens, stop, signal) do not change it.
 */
export function requestHash(req: Pick<ChatRequest, 'messages' | 'temperature' | 'responseFormat'>): string {
  // Built as arrays so key order can never perturb the hash.
  const canonical = JSON.stringify([
    req.messages.map((m) => [m.role, m.content]),
    req.temperature ?? 0,
    req.responseFormat ?? 'text',
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/**
 * Wrap `model` so every call appends one `TranscriptEntry` line to `file`
 * (parent directories are created). Failed calls are recorded with their error
 * and the error is rethrown. Writes are serialized so concurrent calls never
 * interleave lines; a write failure is logged, never fails the call.
 */
export function withRecording(model: ChatModel, file: string, options: { logger?: Logger } = {}): ChatModel {
  const logger = options.logger ?? silentLogger;
  let queue: Promise<void> = mkdir(dirname(file), { recursive: true }).then(() => undefined);

  const write = (entry: TranscriptEntry): Promise<void> => {
    queue = queue
      .then(() => appendFile(file, `${JSON.stringify(entry)}\n`, 'utf8'))
      .catch((error: unknown) => {
        logger.warn(`Could not write LLM transcript ${file}: ${error instanceof Error ? error.message : String(error)}`);
      });
    return queue;
  };

  return {
    id: model.id,
    ...(model.estimateCostUsd ? { estimateCostUsd: model.estimateCostUsd.bind(model) } : {}),
    async complete(req: ChatRequest): Promise<ChatResponse> {
      const base = {
        v: TRANSCRIPT_VERSION,
        hash: requestHash(req),
        at: new Date().toISOString(),
        modelId: model.id,
        request: toRecordedRequest(req),
      };
      try {
        const response = await model.complete(req);
        await write({ ...base, response });
        return response;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await write({ ...base, error: { code: isReponavError(error) ? error.code : undefined, message } });
        throw error;
      }
    },
  };
}

function toRecordedRequest(req: ChatRequest): TranscriptEntry['request'] {
  const recorded: TranscriptEntry['request'] = {
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: req.temperature ?? 0,
    responseFormat: req.responseFormat ?? 'text',
  };
  if (req.maxTokens !== undefined) recorded.maxTokens = req.maxTokens;
  if (req.stop !== undefined) recorded.stop = [...req.stop];
  return recorded;
}

/**
 * Read and validate a transcript. Throws `ReponavError('LLM_ERROR')` naming the
 * file (and line) when it is missing or malformed.
 */
export async function readTranscript(file: string): Promise<TranscriptEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : String(error);
    throw new ReponavError('LLM_ERROR', `Cannot read LLM transcript ${file}: ${reason}. Record one first with a transcriptPath on a live model.`, { file });
  }
  const entries: TranscriptEntry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: TranscriptEntry;
    try {
      entry = JSON.parse(line) as TranscriptEntry;
    } catch {
      throw new ReponavError('LLM_ERROR', `LLM transcript ${file} line ${index + 1} is not valid JSON`, { file, line: index + 1 });
    }
    if (typeof entry?.hash !== 'string' || (entry.response === undefined && entry.error === undefined)) {
      throw new ReponavError('LLM_ERROR', `LLM transcript ${file} line ${index + 1} is not a transcript entry`, { file, line: index + 1 });
    }
    if (entry.v !== TRANSCRIPT_VERSION) {
      throw new ReponavError('LLM_ERROR', `LLM transcript ${file} line ${index + 1} has version ${String(entry.v)}, expected ${TRANSCRIPT_VERSION}`, { file });
    }
    entries.push(entry);
  });
  return entries;
}

/** Options for {@link createReplayModel}. */
export interface ReplayModelOptions {
  /** Model label for the id (`replay:<model>`). Default: the file's base name. */
  model?: string;
}

/**
 * A ChatModel that answers from a recorded transcript, offline. Requests are
 * matched by `requestHash`; when the same request was recorded several times,
 * successive calls get the recorded answers in order and then keep repeating
 * the last one. Responses are returned exactly as recorded (usage, cost and
 * latency included). Recorded errors are never replayed. A request with no
 * recording rejects with `ReponavError('LLM_ERROR')` naming its hash.
 * The file is read on first use.
 */
export function createReplayModel(file: string, options: ReplayModelOptions = {}): ChatModel {
  const id = `replay:${options.model ?? basename(file).replace(/\.jsonl$/, '')}`;
  let loaded: Promise<Map<string, ChatResponse[]>> | undefined;
  const served = new Map<string, number>();

  const load = async () => {
    const byHash = new Map<string, ChatResponse[]>();
    for (const entry of await readTranscript(file)) {
      if (!entry.response) continue;
      const list = byHash.get(entry.hash) ?? [];
      list.push(entry.response);
      byHash.set(entry.hash, list);
    }
    return byHash;
  };

  return {
    id,
    async complete(req: ChatRequest): Promise<ChatResponse> {
      if (req.signal?.aborted) throw new ReponavError('LLM_ERROR', `LLM request to ${id} aborted by caller`, { aborted: true });
      loaded ??= load();
      // A failed load is not cached: the caller may fix the file and retry.
      const byHash = await loaded.catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      const hash = requestHash(req);
      const answers = byHash.get(hash);
      if (!answers || answers.length === 0) {
        throw new ReponavError(
          'LLM_ERROR',
          `Replay miss: no recorded response for request ${hash} in ${file} (${byHash.size} distinct requests recorded). ` +
            'The prompt, temperature or response format changed since recording; re-record the transcript with a live model.',
          { hash, file },
        );
      }
      const index = served.get(hash) ?? 0;
      served.set(hash, index + 1);
      const answer = structuredClone(answers[Math.min(index, answers.length - 1)]!);
      // Recorded replies are classified again: transcripts recorded before outcomes existed carry only the finish reason.
      const outcome = classifyReply({ finishReason: answer.finishReason, hasContent: answer.text.trim() !== '', text: answer.text });
      switch (outcome) {
        case 'complete':
        case 'cut':
          return { ...answer, outcome, cut: outcome === 'cut' };
        case 'refused':
        case 'filtered':
        case 'paused':
        case 'empty':
        case 'unknown':
          throw new ReponavError('LLM_ERROR', `Replayed reply ${hash} in ${file} is not an answer: ${outcomeSentence(outcome, answer.finishReason, answer.text)}.`, { hash, file, cause: 'incomplete-reply', outcome });
      }
    },
  };
}
