/**
 * The listwise reranking prompt, RankGPT / SweRank style: the issue, then
 * each candidate of one window under a numeric identifier `[1]`…`[n]` with its
 * path, qualified name and body cut to a token budget, then the instruction
 * to answer with the identifiers in order (`[2] > [1] > [3]`). Pure: the same
 * candidates and settings give the same messages.
 */
import type { ChatMessage } from '../../llm/index.js';
import { countOf } from '../../plural.js';

/** One function offered to the reranker. */
export interface RerankCandidate {
  /** `path:qualifiedName`, as the predictions name it. */
  id: string;
  path: string;
  qualifiedName: string;
  /** 1-based, inclusive; null when the symbol was not found in the index. */
  startLine: number | null;
  endLine: number | null;
  /** The function's source text (whole; the prompt cuts it to its budget). */
  body: string;
}

/** What a prompt is cut to, in o200k tokens. */
export interface PromptBudgets {
  /** Tokens of each candidate's body (whole lines; a marker says what was cut). */
  bodyTokens: number;
  /** Tokens of the issue text. */
  issueTokens: number;
}

/** Counts o200k tokens of a text (llm's `loadTokenCounter`). */
export type TokenCounter = (text: string) => number;

const SYSTEM =
  'You are RankLLM, an expert software engineer who ranks code by how relevant it is to a software issue. ' +
  'You answer only with a ranking of identifiers.';

/**
 * The two messages of one window's request. `candidates` are the window's,
 * in the order the model sees them (identifier i is `candidates[i - 1]`).
 */
export function buildRerankMessages(issue: string, candidates: readonly RerankCandidate[], budgets: PromptBudgets, count: TokenCounter): ChatMessage[] {
  const n = candidates.length;
  const parts: string[] = [
    `I will give you ${countOf(n, 'code function')}, each marked with a numeric identifier in brackets, [1] to [${n}]. ` +
      'Rank them by how likely each is to be where the following GitHub issue must be fixed.',
    '',
    '<issue>',
    cutToTokens(issue.trim(), budgets.issueTokens, count, 'issue'),
    '</issue>',
    '',
  ];
  candidates.forEach((c, i) => {
    const span = c.startLine !== null && c.endLine !== null ? ` (lines ${c.startLine}-${c.endLine})` : '';
    parts.push(`[${i + 1}] ${c.path}:${c.qualifiedName}${span}`, '```', cutToTokens(c.body.replace(/\s+$/, ''), budgets.bodyTokens, count, 'body'), '```', '');
  });
  parts.push(
    `Rank the ${countOf(n, 'function')} above by relevance to the issue, most relevant first. ` +
      `Answer with ${n === 1 ? 'the identifier' : `all ${n} identifiers`} in descending order of relevance, in the form [2] > [1] > [3]. ` +
      'Only respond with the ranking: no explanation, no other words.',
  );
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n') },
  ];
}

/** The corrective turn after a reply that named no candidate. */
export function noRankingMessage(n: number): string {
  return `Your reply did not contain a ranking. Answer only with the identifiers [1] to [${n}] in descending order of relevance, for example [2] > [1] > [3]; nothing else.`;
}

/** The corrective turn after a reply cut at the length limit. */
export function cutReplyMessage(n: number): string {
  return `Your reply was cut off at the length limit. Answer again, shorter: only the identifiers [1] to [${n}] in descending order, for example [2] > [1] > [3]; no explanation.`;
}

/**
 * `text` cut to at most `budget` tokens at a line boundary, with one line
 * saying how many lines were left out (the marker's own tokens are paid for
 * from the budget). A text within the budget comes back unchanged; a first
 * line longer than the whole budget is cut by characters.
 */
export function cutToTokens(text: string, budget: number, count: TokenCounter, what: 'body' | 'issue'): string {
  if (count(text) <= budget) return text;
  const lines = text.split('\n');
  const marker = (left: number) => `… (${left} more line${left === 1 ? '' : 's'} of the ${what} not shown)`;
  const room = budget - count(marker(lines.length));
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = count(`${line}\n`);
    if (used + cost > room) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length === 0) {
    // One very long first line (minified code, a pasted log): keep as much of its start as fits.
    const first = lines[0]!;
    const tail = marker(lines.length - 1);
    let end = Math.floor(first.length * (room / Math.max(1, count(first))));
    while (end > 0 && count(`${first.slice(0, end)}\n${tail}`) > budget) end = Math.floor(end * 0.9);
    return end > 0 ? `${first.slice(0, end)}\n${tail}` : tail;
  }
  return [...kept, marker(lines.length - kept.length)].join('\n');
}
