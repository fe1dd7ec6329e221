/**
 * The SWE-QA judge: one or more models compare a candidate answer with the
 * reference on correctness, completeness, relevance, clarity and reasoning
 * (1–20 each, total 100), answering JSON only. Replies are parsed robustly
 * (judge-parser.ts); a reply cut at the length limit is never parsed, and it,
 * a reply the judge did not finish (refused, filtered, no stop reason), a
 * reply in another scale or an unusable one gets one retry; the final
 * scores are the mean over the judges that produced usable scores.
 */
import { llmFailureCause, type ChatMessage, type ChatModel, type ChatResponse } from '../../llm/index.js';
import { isReponavError } from '../../errors.js';
import { JUDGE_DIMENSIONS, parseJudgeReply, type DimensionScores } from './judge-parser.js';

/** The judge prompt's system message (tagged like the ask roles, so transcripts show who spoke). */
export const JUDGE_SYSTEM = `[role: judge]
You are a strict evaluator of answers to questions about a software repository.
You compare a candidate answer with a reference answer written by experts who read the code.
Score each criterion from 1 (worst) to 20 (best):
- correctness: the candidate's statements about the code agree with the reference; wrong names, files or behaviour cost heavily.
- completeness: the candidate covers the key points of the reference.
- relevance: the candidate stays on the question; padding and digressions cost.
- clarity: the candidate is easy to follow and precise.
- reasoning: the candidate explains how and why, with a coherent line of argument.
The total is the sum of the five (at most 100).
Reply with JSON only, no other text:
{"correctness": n, "completeness": n, "relevance": n, "clarity": n, "reasoning": n, "total": n}`;

/** The judge messages for one answer. */
export function judgeMessages(question: string, reference: string, candidate: string): ChatMessage[] {
  return [
    { role: 'system', content: JUDGE_SYSTEM },
    { role: 'user', content: `Question:\n${question}\n\nReference answer:\n${reference}\n\nCandidate answer:\n${candidate}` },
  ];
}

/** One judge's verdict. */
export interface JudgeVerdict {
  judge: string;
  ok: boolean;
  scores: DimensionScores | null;
  total: number | null;
  flags: string[];
  error?: string;
  /** Calls made (1, or 2 after a corrective retry). */
  attempts: number;
}

/** All judges' verdicts and their mean. */
export interface JudgeResult {
  verdicts: JudgeVerdict[];
  /** Mean per dimension over usable verdicts; null when none was usable. */
  scores: DimensionScores | null;
  total: number | null;
}

/**
 * Scores `candidate` with every judge (in parallel). A judge whose reply
 * cannot be parsed twice, or whose call fails, is left out of the mean and
 * reported with its error. Budget exhaustion (`BUDGET_EXCEEDED`) is rethrown:
 * the run's spend cap must stop the run.
 */
export async function judgeAnswer(judges: readonly ChatModel[], input: { question: string; reference: string; candidate: string }): Promise<JudgeResult> {
  const verdicts = await Promise.all(judges.map((judge) => judgeOnce(judge, input)));
  const usable = verdicts.filter((v) => v.ok);
  if (usable.length === 0) return { verdicts, scores: null, total: null };
  const scores = {} as DimensionScores;
  for (const d of JUDGE_DIMENSIONS) scores[d] = round(usable.reduce((s, v) => s + v.scores![d], 0) / usable.length);
  return { verdicts, scores, total: round(usable.reduce((s, v) => s + v.total!, 0) / usable.length) };
}

/** Output-token limit of a judge call, and of the one re-ask (a longer limit, for a reply that was cut or unusable). */
export const JUDGE_MAX_TOKENS = { first: 300, retry: 800 } as const;

/**
 * One judge: a reply cut at the length limit or calling tools is never
 * parsed (a fragment such as `"reasoning": 1` of a cut `14` would be scored;
 * a tool call is not a verdict), and it or an unusable reply is asked once
 * more with a longer limit; a second failure
 * leaves the verdict unusable (`ok: false`).
 */
async function judgeOnce(judge: ChatModel, input: { question: string; reference: string; candidate: string }): Promise<JudgeVerdict> {
  const base = judgeMessages(input.question, input.reference, input.candidate);
  let messages = base;
  let lastError = '';
  let flags: string[] = [];
  const errors: string[] = [];
  for (const attempt of [1, 2]) {
    let reply: ChatResponse;
    try {
      reply = await judge.complete({ messages, temperature: 0, responseFormat: 'json', maxTokens: attempt === 1 ? JUDGE_MAX_TOKENS.first : JUDGE_MAX_TOKENS.retry });
    } catch (error) {
      if (isReponavError(error, 'BUDGET_EXCEEDED')) throw error;
      const message = error instanceof Error ? error.message : String(error);
      // A reply the judge did not finish (refused, filtered, no stop reason) is asked afresh once, like a cut one.
      if (llmFailureCause(error) === 'incomplete-reply' && attempt === 1) {
        lastError = message;
        errors.push(message);
        flags = [];
        messages = base;
        continue;
      }
      return { judge: judge.id, ok: false, scores: null, total: null, flags, error: message, attempts: attempt };
    }
    const text = reply.text;
    // A judge has no tools: a reply that calls one has not given its verdict, whatever JSON it holds.
    if ((reply.toolCalls ?? []).length > 0) {
      lastError = `the reply called tools (${reply.toolCalls!.map((c) => c.name).join(', ')}) instead of scoring`;
      errors.push(lastError);
      flags = [];
      messages = base;
      continue;
    }
    // One notion of a cut reply across providers (the client's `cut`): never scored, even when what is left parses.
    if (reply.outcome === 'cut') {
      lastError = 'the reply was cut off at the length limit';
      errors.push(lastError);
      flags = [];
      // Asked afresh with room to finish: the cut fragment is not shown back, nothing is read from it.
      messages = base;
      continue;
    }
    const parsed = parseJudgeReply(text);
    if (parsed.ok) return { judge: judge.id, ok: true, scores: parsed.scores, total: parsed.total, flags: parsed.flags, attempts: attempt };
    lastError = parsed.error;
    errors.push(lastError);
    flags = parsed.flags;
    messages = [
      ...base,
      { role: 'assistant', content: text },
      { role: 'user', content: `Your reply could not be used (${parsed.error}). Reply again with only the JSON object: {"correctness": n, "completeness": n, "relevance": n, "clarity": n, "reasoning": n, "total": n}, each n a whole number from 1 to 20 (not a fraction, not out of 10 or 100).` },
    ];
  }
  const error = errors.length === 2 && errors[0] === errors[1] ? `${lastError} (twice)` : errors.join('; then ');
  return { judge: judge.id, ok: false, scores: null, total: null, flags, error, attempts: 2 };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
