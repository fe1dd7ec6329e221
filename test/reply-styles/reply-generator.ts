/**
 * The reply generator: replies built from independent dimensions (stop
 * reason, content, reasoning, tool calls, usage, transport), each rendered in
 * both wire formats by the scripted endpoint, and an oracle written from the
 * providers' documentation (not from reponav's code) saying which replies a
 * model finished. Seeded (mulberry32), so a failing combination is named by
 * its seed and index.
 */
import { mulberry32 } from '../helpers/mulberry32.js';
import { APOLOGETIC_OPENINGS, generatedRefusal } from '../helpers/refusals.js';
import type { StyledReply, WireProvider } from '../helpers/scripted-llm-server.js';

/** How the reply says it ended. */
export type StopDimension = 'normal' | 'cut' | 'filter' | 'refusal' | 'pause' | 'unknown' | 'missing';
/**
 * What the answer text is. `refusal` is a provider-signalled refusal (OpenAI's field, Anthropic's stop);
 * `refusal-text` a refusal written as plain text under whatever stop reason the combination has (in
 * English phrasings or another language); `apologetic` the whole reply opened by an apology ("Sorry
 * for the confusion: …"), which is still an answer.
 */
export type ContentDimension = 'empty' | 'whole' | 'cut-mid-word' | 'refusal' | 'refusal-text' | 'apologetic' | 'other-language' | 'huge';
export type ThinkingDimension = 'none' | 'draft' | 'real';
export type ToolDimension = 'none' | 'one' | 'parallel' | 'bad-json' | 'string-input';
export type UsageDimension = 'present' | 'absent' | 'zero';
export type TransportDimension = 'ok' | '429' | '500' | '529' | 'html' | 'reset' | 'stall';

/** One generated combination. */
export interface Combination {
  provider: WireProvider;
  stop: StopDimension;
  /** The stop reason as sent (cased oddly sometimes); null when missing. */
  stopWord: string | null;
  content: ContentDimension;
  /** The refusal of `refusal-text`, or the opening of `apologetic`. */
  phrase?: string;
  thinking: ThinkingDimension;
  tools: ToolDimension;
  usage: UsageDimension;
  transport: TransportDimension;
}

/** The texts one role writes: what a finished reply says, a draft, what the endpoint answers afterwards. */
export interface RoleTexts {
  whole: string;
  draft: string;
  cut: string;
  otherLanguage: string;
  /** The reply every later request gets (a complete reply). */
  fallback: string;
}

const STOP_WORDS: Record<WireProvider, Record<Exclude<StopDimension, 'missing'>, string[]>> = {
  openai: {
    normal: ['stop', 'tool_calls', 'function_call'],
    cut: ['length', 'model_context_window_exceeded'],
    filter: ['content_filter'],
    refusal: ['refusal'],
    pause: ['pause_turn'],
    unknown: ['eos', 'finished', 'error', 'recitation'],
  },
  anthropic: {
    normal: ['end_turn', 'tool_use', 'stop_sequence'],
    cut: ['max_tokens', 'model_context_window_exceeded'],
    filter: ['content_filter'],
    refusal: ['refusal'],
    pause: ['pause_turn'],
    unknown: ['eos', 'done', 'safety'],
  },
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** `items` with weights: `[[item, weight], …]`. */
function weighted<T>(random: () => number, items: ReadonlyArray<readonly [T, number]>): T {
  const total = items.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1]![0];
}

function recase(word: string, random: () => number): string {
  const style = random();
  if (style < 0.6) return word;
  if (style < 0.8) return word.toUpperCase();
  return [...word].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** `n` combinations from `seed`. */
export function generateCombinations(seed: number, n: number): Combination[] {
  const random = mulberry32(seed);
  const out: Combination[] = [];
  for (let i = 0; i < n; i++) {
    const provider = pick(random, ['openai', 'anthropic'] as const);
    const stop = weighted<StopDimension>(random, [['normal', 4], ['cut', 1], ['filter', 1], ['refusal', 1], ['pause', 1], ['unknown', 1], ['missing', 1]]);
    const stopWord = stop === 'missing' ? null : recase(pick(random, STOP_WORDS[provider][stop]), random);
    const content = weighted<ContentDimension>(random, [['empty', 2], ['whole', 5], ['cut-mid-word', 2], ['refusal', 1], ['refusal-text', 2], ['apologetic', 1], ['other-language', 2], ['huge', 0.15]]);
    const phrase = content === 'refusal-text' ? generatedRefusal(random) : content === 'apologetic' ? pick(random, APOLOGETIC_OPENINGS) : undefined;
    out.push({
      provider,
      stop,
      stopWord,
      content,
      ...(phrase !== undefined ? { phrase } : {}),
      thinking: weighted<ThinkingDimension>(random, [['none', 3], ['draft', 2], ['real', 1]]),
      tools: weighted<ToolDimension>(random, [['none', 5], ['one', 1], ['parallel', 1], ['bad-json', 1], ['string-input', 1]]),
      usage: pick(random, ['present', 'absent', 'zero'] as const),
      transport: weighted<TransportDimension>(random, [['ok', 12], ['429', 1], ['500', 1], ['529', 1], ['html', 1], ['reset', 1], ['stall', 1]]),
    });
  }
  return out;
}

/** The scripted reply of a combination for a role. */
export function render(c: Combination, texts: RoleTexts): StyledReply {
  switch (c.transport) {
    case '429':
    case '500':
    case '529':
      return { status: Number(c.transport), retryAfterSeconds: 0 };
    case 'html':
      return { text: texts.whole, transport: 'html' };
    case 'reset':
    case 'stall':
      return { text: texts.whole, transport: c.transport, ...(c.stopWord === null ? { noFinishReason: true } : { finishReason: c.stopWord }) };
    case 'ok':
      break;
  }
  const text = contentText(c, texts);
  const reply: StyledReply = { text };
  if (c.content === 'refusal') {
    if (c.provider === 'openai') reply.refusal = text;
    else reply.finishReason = 'refusal';
  }
  if (reply.finishReason === undefined) {
    if (c.stopWord === null) reply.noFinishReason = true;
    else reply.finishReason = c.stopWord;
  }
  if (c.thinking !== 'none') reply.reasoning = c.thinking === 'draft' ? texts.draft : 'Let me think about where this happens before I answer.';
  if (c.tools !== 'none') {
    reply.toolCalls = c.tools === 'parallel' ? [{ name: 'search', args: { query: 'discount' } }, { name: 'search', args: { query: 'tax' } }] : [{ name: 'search', args: { query: 'discount' } }];
    if (c.tools === 'bad-json') reply.rawToolArgs = '{"query": "disc';
    if (c.tools === 'string-input') reply.rawToolArgs = '{"query": "discount"}';
  }
  if (c.usage === 'absent') reply.noUsage = true;
  if (c.usage === 'zero') reply.usage = { inputTokens: 0, outputTokens: 0 };
  return reply;
}

function contentText(c: Combination, texts: RoleTexts): string {
  switch (c.content) {
    case 'empty':
      return '';
    case 'whole':
      return texts.whole;
    case 'cut-mid-word':
      return texts.cut;
    case 'refusal':
      return "I'm sorry, but I can't help with that request.";
    case 'refusal-text':
      return c.phrase!;
    case 'apologetic':
      return `${c.phrase!}${texts.whole}`;
    case 'other-language':
      return texts.otherLanguage;
    case 'huge':
      return `${'Context. '.repeat(131_072)}\n${texts.whole}`;
  }
}

const NORMAL_STOPS = new Set(['stop', 'tool_calls', 'function_call', 'end_turn', 'tool_use', 'stop_sequence']);

/**
 * The oracle, from the providers' documentation: true when the model
 * finished this reply, so text from it may become a result. Anthropic's
 * `pause_turn` is continued by the client, and the continuation (the
 * fallback reply) finishes it.
 */
export function modelFinished(c: Combination): boolean {
  if (c.transport !== 'ok' || c.content === 'refusal' || c.content === 'refusal-text') return false;
  if (c.provider === 'anthropic' && c.stopWord?.toLowerCase() === 'pause_turn') return true;
  return c.stopWord !== null && NORMAL_STOPS.has(c.stopWord.toLowerCase());
}

/**
 * True when the reply is a refusal written as plain text under a documented
 * normal stop (tool calls beside it or not): the role must end with an error
 * (a refusal is an outcome, never an answer).
 */
export function isPlainRefusal(c: Combination): boolean {
  return c.transport === 'ok' && c.content === 'refusal-text' && c.stop === 'normal';
}

/**
 * True when the draft in the reasoning may be read as the answer: only an
 * OpenAI-compatible reply the model finished with an empty content and no
 * tool calls (the documented `reasoning_content` fallback). An Anthropic
 * thinking block never is.
 */
export function draftMayAnswer(c: Combination): boolean {
  return c.provider === 'openai' && modelFinished(c) && c.content === 'empty' && c.tools === 'none' && c.thinking === 'draft';
}

/** How a combination is named in a failure message. */
export function describeCombination(seed: number, index: number, role: string, c: Combination): string {
  return `seed ${seed}, combination ${index} (${role}): ${JSON.stringify(c)}`;
}
