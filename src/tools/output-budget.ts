/**
 * Budgets for tool outputs. Every tool answer is cut to its budget (o200k
 * tokens as budget/token-budget.ts estimates them, as in the scaffold layer)
 * and says what was left out, so an agent can always tell a short answer from
 * a cut one.
 */
import { estimateTokens, fitUnits, lineCost, truncationLine, type CutCount } from '../budget/index.js';
import type { ToolBudgets } from './tool-types.js';
import { countOf } from '../plural.js';

/** Smallest budget a call may ask for: below it no answer fits with its truncation note. */
export const MIN_BUDGET_TOKENS = 100;

/** Default cap on any budget, including per-call requests. */
export const DEFAULT_MAX_BUDGET_TOKENS = 20_000;

/** Characters of one source line shown before it is clipped (minified code is one huge line). */
export const MAX_LINE_CHARS = 400;

/**
 * The budget of one call: the per-call request, else the server's per-tool
 * value, else the server default, else the tool's own default; then clamped to
 * [MIN_BUDGET_TOKENS, maxTokens].
 */
export function resolveBudget(toolName: string, toolDefault: number, requested: number | undefined, budgets: ToolBudgets = {}): number {
  const max = Math.max(MIN_BUDGET_TOKENS, budgets.maxTokens ?? DEFAULT_MAX_BUDGET_TOKENS);
  const chosen = requested ?? budgets.perTool?.[toolName] ?? budgets.defaultTokens ?? toolDefault;
  return Math.min(max, Math.max(MIN_BUDGET_TOKENS, Math.floor(chosen)));
}

/** `line` itself, or its first `max` characters and a note of how many were clipped. */
export function clipLine(line: string, max = MAX_LINE_CHARS): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)} … [+${countOf(line.length - max, 'char')}]`;
}

/** `  12 | text` lines for consecutive source lines starting at `firstLine`, numbers right-aligned to `width`. */
export function numberLines(lines: readonly string[], firstLine: number, width: number, marked?: ReadonlySet<number>): string[] {
  return lines.map((text, i) => {
    const number = firstLine + i;
    const mark = marked ? (marked.has(number) ? '> ' : '  ') : '';
    return `${mark}${String(number).padStart(width)} | ${clipLine(text.trimEnd())}`.trimEnd();
  });
}

/**
 * The last safety net: a text over budget is cut at a line boundary (or inside
 * a single huge line) and ends with a `[TRUNCATED]` line giving the characters
 * left out. Renderers budget properly; this catches what they cannot foresee.
 */
export function enforceBudget(text: string, budgetTokens: number): string {
  if (estimateTokens(text) <= budgetTokens) return text;
  const note = (left: number) => `[TRUNCATED] ${countOf(left, 'character')} left out to stay within ${budgetTokens} tokens`;
  const room = Math.max(0, budgetTokens - lineCost(note(text.length)));
  // The longest prefix within room (the estimate grows with the prefix; the check below makes sure).
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, middle)) <= room) low = middle;
    else high = middle - 1;
  }
  let cut = text.slice(0, low);
  const newline = cut.lastIndexOf('\n');
  if (newline > low / 2) cut = cut.slice(0, newline);
  while (cut.length > 0 && estimateTokens(`${cut}\n${note(text.length - cut.length)}`) > budgetTokens) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return `${cut}\n${note(text.length - cut.length)}`;
}

/** What a list of blocks calls one block in its truncation line. */
export interface BlockNoun {
  singular: string;
  plural: string;
}

/**
 * Renders `head` and then whole `blocks` in order while they fit `budgetTokens`
 * (prefix semantics: a later block never appears without an earlier one). When
 * blocks are cut, one `[TRUNCATED]` line counts the items they held (`counts[i]`
 * items for block i, default 1) plus `alreadyLeftOut` (items the caller dropped
 * before rendering, e.g. beyond a result limit). `footer` lines (hints) are kept
 * when everything fits.
 */
export function renderBlocks(
  head: readonly string[],
  blocks: readonly (readonly string[])[],
  budgetTokens: number,
  noun: BlockNoun,
  options: { alreadyLeftOut?: number; footer?: readonly string[]; counts?: readonly number[] } = {},
): string {
  const alreadyLeftOut = options.alreadyLeftOut ?? 0;
  const footer = options.footer ?? [];
  const countOf = (i: number) => options.counts?.[i] ?? 1;
  const cut = (count: number): string => truncationLine([{ count, ...noun } satisfies CutCount], budgetTokens);
  const whole = [...head, ...blocks.flat(), ...footer].join('\n');
  if (estimateTokens(whole) <= budgetTokens) return whole;
  let all = alreadyLeftOut;
  blocks.forEach((_, i) => (all += countOf(i)));
  const fit = fitUnits([head, ...blocks], budgetTokens, 'stop', cut(all));
  let leftOut = alreadyLeftOut;
  fit.keptUnits.slice(1).forEach((kept, i) => {
    if (!kept) leftOut += countOf(i);
  });
  return [...fit.lines, cut(leftOut)].join('\n');
}
