/**
 * The flat Snippet Search baseline of the RQ2 comparison: the top-k chunk hits
 * with their code, no file structure. It reads the same hits as the scaffold so
 * that the interfaces differ only in presentation.
 */
import { mergeWithDocs, type RetrievalResult } from '../retrieve/index.js';
import { sortHits } from './hit-evidence.js';
import { displayPath, formatScore } from './text-format.js';
import { DEFAULT_BUDGET_TOKENS, estimateTokens, fitUnits, truncationLine } from '../budget/index.js';
import { countOf } from '../plural.js';

/** Source access for the snippet renderer: lines `start..end` (1-based, inclusive) of a repository file. */
export type ReadLines = (path: string, startLine: number, endLine: number) => string[];

export interface SnippetOptions {
  /** Returns the chunk's lines; may return fewer (file shorter) or throw (file gone). */
  readLines: ReadLines;
  /** Hits shown, best first. Default 10. */
  topK?: number;
  /** Code lines shown per hit before `… n more lines`. Default 30: a chunk can be a whole class. */
  maxLinesPerHit?: number;
  /** Default 1500 (the scaffold's), so the interfaces are compared at equal cost. */
  budgetTokens?: number;
  /** Documentation sections shown (the result's best docs): after the code hits, or among them when the result ranks docs on equal terms. Default 3. */
  maxDocs?: number;
}

/** Label of a file-remainder chunk, which has no symbol. */
export const FILE_CHUNK_LABEL = '<file>';

/** Code lines per hit tried, longest first, when the hits do not all fit whole. */
const SHORTER_HITS = [20, 12, 8, 5, 3, 1, 0];

/** Code lines per hit below which fewer hits are shown rather than shorter ones. */
const MIN_USEFUL_LINES = 3;

/**
 * Renders the top-k hits (sorted by score, ties by path/line/chunk id) as
 * `path:start-end symbol (score)` followed by the numbered code lines, and the
 * result's best documentation sections as `path:start-end § heading (doc,
 * score)` with their lines: after the hits, or merged into the top k when the
 * result ranks docs on equal terms. Under a budget the answer carries the most
 * that fits: every hit shortened (fewer code lines each, down to its header
 * alone) before any hit is left out, and then the fewest hits left out, in rank
 * order, reported on one final `[TRUNCATED]` line. The best hit is always shown
 * (its header cut to the budget if need be): never only the truncation line.
 */
export function renderSnippets(result: RetrievalResult, options: SnippetOptions): string {
  const topK = options.topK ?? 10;
  const maxLines = options.maxLinesPerHit ?? 30;
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const code = sortHits(result.hits);
  const docs = (result.docs ?? []).slice(0, Math.max(0, options.maxDocs ?? 3));
  const placement = result.docPlacement ?? 'below';
  // Below: the top-k code hits, then the docs; on equal terms: the top k of both merged by relative score.
  const merged = mergeWithDocs(placement === 'below' ? code.slice(0, Math.max(0, topK)) : code, docs, placement);
  const items = placement === 'below' ? merged : merged.slice(0, Math.max(0, topK));
  if (items.length === 0) return 'No chunks were retrieved for this query.';

  const unitsOf = (lineLimit: number) =>
    items.map((item) => {
      if ('doc' in item) {
        const doc = item.doc;
        const header = `${displayPath(doc.path)}:${doc.startLine}-${doc.endLine}${doc.section === null ? '' : ` § ${doc.section}`} (doc, ${formatScore(doc.score)})`;
        return [header, ...codeLines(options.readLines, doc.path, doc.startLine, doc.endLine, lineLimit)];
      }
      const hit = item.code;
      const header = `${displayPath(hit.path)}:${hit.startLine}-${hit.endLine} ${hit.symbol ?? FILE_CHUNK_LABEL} (${formatScore(hit.score)})`;
      return [header, ...codeLines(options.readLines, hit.path, hit.startLine, hit.endLine, lineLimit)];
    });
  const cut = (count: number) => truncationLine([{ count, singular: 'hit', plural: 'hits' }], budget);
  const render = (fit: { lines: string[]; keptUnits: boolean[]; truncated: boolean }) =>
    fit.truncated ? [...fit.lines, cut(fit.keptUnits.filter((k) => !k).length)].join('\n') : fit.lines.join('\n');

  // Shorter hits first: the longest per-hit length at which every hit fits. Below a few code lines a
  // hit says little, so from there on fewer hits (in rank order) are kept rather than shorter ones;
  // only when not one hit fits with a few lines is it cut to one line, then to its header.
  const limits = [maxLines, ...SHORTER_HITS.filter((limit) => limit < maxLines)];
  for (const limit of limits) {
    const fit = fitUnits(unitsOf(limit), budget, 'stop', cut(items.length));
    if (!fit.truncated) return render(fit);
    if (limit <= MIN_USEFUL_LINES && fit.keptUnits[0]) return render(fit);
  }
  // Not even the best hit's header fits beside the truncation line: that header alone, cut to the budget.
  return clipToBudget(unitsOf(0)[0][0], budget);
}

/** `text` cut (with `…`) to at most `budget` estimated tokens. */
function clipToBudget(text: string, budget: number): string {
  let shown = text;
  while (shown.length > 1 && estimateTokens(shown) > budget) shown = `${shown.slice(0, Math.floor(shown.length * 0.9) - 1)}…`;
  return shown;
}

function codeLines(readLines: ReadLines, path: string, start: number, end: number, maxLines: number): string[] {
  let lines: string[];
  try {
    lines = readLines(path, start, end);
  } catch (error) {
    return [`  (source unavailable: ${error instanceof Error ? error.message : String(error)})`];
  }
  if (lines.length === 0) return ['  (source unavailable)'];
  if (maxLines <= 0) return [`  … ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}`];
  const shown = lines.slice(0, Math.max(0, maxLines));
  const width = String(start + shown.length - 1).length;
  const out = shown.map((text, i) => `  ${String(start + i).padStart(width)} | ${text.trimEnd()}`);
  if (lines.length > shown.length) out.push(`  … ${countOf(lines.length - shown.length, 'more line', 'more lines')}`);
  return out;
}
