/**
 * What both providers do alike around the wire call: read the reply (answer
 * text, reasoning, cut), refuse an empty one, count tokens the endpoint did
 * not report, keep the request profile learned from a refusal, and never
 * send an empty turn. One place, so the two providers cannot drift apart.
 */
import { isReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ChatMessage, ChatResponse, NativeToolCall } from './chat-model.js';
import { countCallTokens, LOCAL_COUNT_NOTE, LOCAL_TOKEN_ENCODING } from './local-tokens.js';
import { costOf, type PriceTable } from './pricing.js';
import { isRefusalText } from './refusal-text.js';
import { classifyReply, outcomeSentence, type ReplyOutcome, type UsableOutcome } from './reply-outcome.js';
import { splitReasoning } from './reply-text.js';
import { learnFromRefusal, type RequestProfile } from './request-profile.js';
import { LlmTransportError } from './retry.js';

/** Stands in for an empty turn: Anthropic rejects empty content, and an empty turn tells the model nothing. */
export const EMPTY_TURN_PLACEHOLDER = '(empty reply)';

/** `messages` with every empty non-system turn replaced by {@link EMPTY_TURN_PLACEHOLDER}. */
export function sendableTurns(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => (m.role !== 'system' && m.content.trim() === '' ? { role: m.role, content: EMPTY_TURN_PLACEHOLDER } : m));
}

/** What a provider read off the wire for one reply, before it is classified. */
export interface WireReply {
  /** The answer text (OpenAI `content`, Anthropic text blocks). */
  content: string;
  /** Reasoning sent beside it (`reasoning_content` / `reasoning`, Anthropic thinking blocks). */
  reasoning: string;
  /**
   * True when an empty content may be answered by the reasoning field
   * (OpenAI-compatible servers that put the whole reply in `reasoning_content`);
   * false for Anthropic, whose thinking blocks are never the reply.
   */
  reasoningMayAnswer: boolean;
  toolCalls: ReadonlyArray<{ name: string; args: unknown }>;
  finishReason: string | null;
  /** OpenAI's `refusal` field. */
  refusal?: string | null;
}

/** A reply read off the wire and classified, before usage is settled. */
export interface ReadReply {
  text: string;
  reasoning: string;
  outcome: ReplyOutcome;
  finishReason: string | null;
  notes: string[];
  /** The native tool calls, when the reply carried any. */
  toolCalls?: NativeToolCall[];
  /** True when the reply's text (tool calls aside) is a refusal written as text (refusal-text.ts), whatever the stop. */
  writtenRefusal?: true;
}

/** Said in the trace when the reasoning field was read as the answer. */
export const REASONING_AS_ANSWER_NOTE = 'the reply\'s content was empty; its reasoning field was read as the answer';

/**
 * Reads and classifies one reply: the content without reasoning blocks,
 * followed by native tool calls rendered as `{"name": …, "arguments": …}`
 * lines (the text protocols read that shape). The separate reasoning field
 * is read as the answer only for a `complete` reply whose content is empty
 * and only where the provider allows it, and the notes say so.
 */
export function readReply(wire: WireReply): ReadReply {
  const calls = wire.toolCalls.map((c) => JSON.stringify({ name: c.name, arguments: c.args })).join('\n');
  const inline = splitReasoning(wire.content);
  const text = [inline.text, calls].filter(Boolean).join('\n');
  const separate = wire.reasoning.trim();
  const reasoning = [separate, inline.reasoning].filter(Boolean).join('\n\n');
  const facts = { finishReason: wire.finishReason, refusal: wire.refusal ?? null };
  // The text is judged on its own: tool calls beside a refusal do not make it an answer.
  const outcome = classifyReply({ ...facts, hasContent: text !== '', text: inline.text });
  const refusal = isRefusalText(inline.text) ? { writtenRefusal: true as const } : {};
  if (outcome === 'empty' && wire.reasoningMayAnswer && separate !== '') {
    const fromField = splitReasoning(separate).text;
    if (fromField !== '' && classifyReply({ ...facts, hasContent: true, text: fromField }) === 'complete') {
      return { text: fromField, reasoning, outcome: 'complete', finishReason: wire.finishReason, notes: [REASONING_AS_ANSWER_NOTE] };
    }
  }
  const toolCalls = wire.toolCalls.length > 0 ? { toolCalls: wire.toolCalls.map((c) => ({ name: c.name, args: c.args })) } : {};
  return { text, reasoning, outcome, finishReason: wire.finishReason, notes: [], ...toolCalls, ...refusal };
}

/**
 * Throws unless `reply` may reach a caller: an `empty` reply is a retryable
 * `empty-reply` failure (asked once more), and a `refused`, `filtered`,
 * `paused` or `unknown` one a non-retryable `incomplete` failure whose
 * message says, in one sentence, why it is not an answer.
 */
export function requireUsable(reply: ReadReply): ReadReply & { outcome: UsableOutcome } {
  const outcome = reply.outcome;
  switch (outcome) {
    case 'complete':
    case 'cut':
      return { ...reply, outcome };
    case 'empty':
      throw new LlmTransportError('empty-reply', `the reply was empty (finish reason ${reply.finishReason ?? 'none'}${reply.reasoning ? ', reasoning only' : ''})`);
    case 'refused':
    case 'filtered':
    case 'paused':
    case 'unknown':
      throw new LlmTransportError('incomplete', outcomeSentence(outcome, reply.finishReason, reply.text), { outcome });
  }
}

/** Why a stream-only endpoint's call failed: exactly that it requires streaming. */
export const STREAM_ONLY = 'the endpoint requires streaming (stream=true) and does not serve whole replies';

/** True when a reply body is a server-sent event stream (`data:` / `event:` lines) instead of one JSON document. */
export function isEventStream(body: string): boolean {
  return /^\s*(?:data|event):/.test(body);
}

/** True when an endpoint's refusal (HTTP 400) says it serves only streamed replies ("only supports stream=true", "stream must be true"). */
export function saysStreamOnly(message: string): boolean {
  return /\bstream/i.test(message) && /\b(?:only|must|requires?|required)\b/i.test(message);
}

/** The failure of a call to an endpoint that requires streaming; `said` is the endpoint's own words (a 400's message). */
export function streamOnlyFailure(said?: string, status?: number): LlmTransportError {
  return new LlmTransportError('stream-only', said ? `${STREAM_ONLY} (it said: ${said})` : STREAM_ONLY, status !== undefined ? { status } : {});
}

/** Said in the trace when reported usage was not believed. */
export const IMPLAUSIBLE_USAGE_NOTE = `the endpoint reported 0 output tokens for a non-empty reply; tokens counted locally (${LOCAL_TOKEN_ENCODING})`;

/** Collaborators of {@link toChatResponse}. */
export interface ResponseContext {
  requestedModel: string;
  prices: PriceTable;
  messages: readonly ChatMessage[];
  started: number;
  logger: Logger;
  id: string;
}

/** The ChatResponse of a read reply; tokens counted locally when `reported` is null. */
export async function toChatResponse(reply: ReadReply & { outcome: UsableOutcome }, reported: { inputTokens: number; outputTokens: number } | null, model: string, ctx: ResponseContext): Promise<ChatResponse> {
  const notes: string[] = [...reply.notes];
  // Usage that says a non-empty reply cost nothing is not believed: budgets would never trip.
  const implausible = reported !== null && reported.outputTokens <= 0 && (reply.text !== '' || reply.reasoning !== '');
  let tokens = implausible ? null : reported;
  if (!tokens) {
    tokens = await countCallTokens(ctx.messages, reply.reasoning ? `${reply.reasoning}\n${reply.text}` : reply.text);
    const note = implausible ? IMPLAUSIBLE_USAGE_NOTE : LOCAL_COUNT_NOTE;
    notes.push(note);
    ctx.logger.debug(`LLM ${ctx.id}: ${note}`);
  }
  return {
    text: reply.text,
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    usage: {
      ...tokens,
      costUsd: costOf(ctx.requestedModel, tokens, ctx.prices) ?? costOf(model, tokens, ctx.prices),
      ...(tokens === reported ? {} : { counted: 'local' as const }),
    },
    model,
    latencyMs: Math.round(performance.now() - ctx.started),
    finishReason: reply.finishReason,
    outcome: reply.outcome,
    cut: reply.outcome === 'cut',
    ...(reply.toolCalls && reply.toolCalls.length > 0 ? { toolCalls: reply.toolCalls } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * A request profile that learns: `call` runs with the current profile; when
 * it fails with an HTTP 400 whose message names a parameter the profile can
 * drop or rename, the profile is corrected, kept for every later call, the
 * call is made again, and the response's notes say what changed. Each
 * parameter is corrected at most once, so this retries at most twice.
 */
export function learningProfile(initial: RequestProfile, provider: 'openai-compatible' | 'anthropic', id: string, logger: Logger) {
  let profile = initial;
  return {
    get current(): RequestProfile {
      return profile;
    },
    async run(call: (profile: RequestProfile) => Promise<ChatResponse>): Promise<ChatResponse> {
      const notes: string[] = [];
      for (;;) {
        try {
          const response = await call(profile);
          return notes.length > 0 ? { ...response, notes: [...notes, ...(response.notes ?? [])] } : response;
        } catch (error) {
          const refused = isReponavError(error, 'LLM_ERROR') && error.details?.status === 400;
          const learned = refused ? learnFromRefusal(profile, error.message, provider) : null;
          if (!learned) throw error;
          profile = learned.profile;
          const note = `the endpoint refused the request (HTTP 400); ${learned.change} from now on`;
          notes.push(note);
          logger.warn(`LLM ${id}: ${note}`);
        }
      }
    },
  };
}
