/**
 * What both providers do alike around the wire call: read the reply (answer
 * text, reasoning, cut), refuse an empty one, count tokens the endpoint did
 * not report, keep the request profile learned from a refusal, and never
 * send an empty turn. One place, so the two providers cannot drift apart.
 */
import { isReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ChatMessage, ChatResponse } from './chat-model.js';
import { countCallTokens, LOCAL_COUNT_NOTE } from './local-tokens.js';
import { costOf, type PriceTable } from './pricing.js';
import { isCutReason, replyText } from './reply-text.js';
import { learnFromRefusal, type RequestProfile } from './request-profile.js';
import { LlmTransportError } from './retry.js';

/** Stands in for an empty turn: Anthropic rejects empty content, and an empty turn tells the model nothing. */
export const EMPTY_TURN_PLACEHOLDER = '(empty reply)';

/** `messages` with every empty non-system turn replaced by {@link EMPTY_TURN_PLACEHOLDER}. */
export function sendableTurns(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => (m.role !== 'system' && m.content.trim() === '' ? { role: m.role, content: EMPTY_TURN_PLACEHOLDER } : m));
}

/** A reply read off the wire, before usage is settled. */
export interface ReadReply {
  text: string;
  reasoning: string;
  cut: boolean;
  finishReason: string | null;
}

/**
 * Reads one reply: the content without reasoning blocks, else native tool
 * calls rendered as `{"name": …, "arguments": …}` lines (the text protocols
 * read that shape), else the separate reasoning field. Throws a retryable
 * `empty-reply` transport failure when nothing is left and the reply was
 * not cut (a cut empty reply is the caller's to ask again, shorter).
 */
export function readReply(content: string, reasoningField: string, toolCalls: ReadonlyArray<{ name: string; args: unknown }>, finishReason: string | null): ReadReply {
  const calls = toolCalls.map((c) => JSON.stringify({ name: c.name, arguments: c.args })).join('\n');
  const split = replyText(content.trim() === '' && calls ? calls : content, reasoningField);
  const cut = isCutReason(finishReason);
  if (split.text === '' && !cut) {
    throw new LlmTransportError('empty-reply', `the reply was empty (finish reason ${finishReason ?? 'none'}${split.reasoning ? ', reasoning only' : ''})`);
  }
  return { text: split.text, reasoning: split.reasoning, cut, finishReason };
}

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
export async function toChatResponse(reply: ReadReply, reported: { inputTokens: number; outputTokens: number } | null, model: string, ctx: ResponseContext): Promise<ChatResponse> {
  const notes: string[] = [];
  let tokens = reported;
  if (!tokens) {
    tokens = await countCallTokens(ctx.messages, reply.reasoning ? `${reply.reasoning}\n${reply.text}` : reply.text);
    notes.push(LOCAL_COUNT_NOTE);
    ctx.logger.debug(`LLM ${ctx.id}: ${LOCAL_COUNT_NOTE}`);
  }
  return {
    text: reply.text,
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    usage: {
      ...tokens,
      costUsd: costOf(ctx.requestedModel, tokens, ctx.prices) ?? costOf(model, tokens, ctx.prices),
      ...(reported ? {} : { counted: 'local' as const }),
    },
    model,
    latencyMs: Math.round(performance.now() - ctx.started),
    finishReason: reply.finishReason,
    cut: reply.cut,
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
