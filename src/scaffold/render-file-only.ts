/**
 * The File-only interface of the RQ2 comparison: the ranked file list and
 * nothing inside the files, to measure what the scaffold's symbol blocks add.
 */
import type { RetrievalResult } from '../retrieve/index.js';
import { countEvidence, sortFiles } from './hit-evidence.js';
import { displayPath, formatScore } from './text-format.js';
import { DEFAULT_BUDGET_TOKENS, fitUnits, truncationLine } from '../budget/index.js';
import { countOf } from '../plural.js';

export interface FileListOptions {
  /** Files shown. Default 5, the scaffold's parseTop, so both list the same files. */
  topFiles?: number;
  /** Default 1500. */
  budgetTokens?: number;
}

/** `[FILES] n of m candidate files` — the first line of the file-only and inline interfaces. */
export function fileListHeader(shown: number, total: number): string {
  return `[FILES] ${shown} of ${countOf(total, 'candidate file')}`;
}

/** `1. path (score: 3.142, evidence: 7)`. */
export function fileListEntry(rank: number, path: string, score: number, evidence: number): string {
  return `${rank}. ${displayPath(path)} (score: ${formatScore(score)}, evidence: ${evidence})`;
}

/**
 * Renders the top files (sorted by score, ties by path) one per line with
 * score and evidence (hits among the raw hits). Budgeted as a ranked prefix.
 */
export function renderFileOnly(result: RetrievalResult, options: FileListOptions = {}): string {
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const ranked = sortFiles(result.files);
  const files = ranked.slice(0, Math.max(0, options.topFiles ?? 5));
  if (files.length === 0) return 'No candidate files were retrieved for this query.';
  const units = [
    [fileListHeader(files.length, ranked.length)],
    ...files.map((f, i) => [fileListEntry(i + 1, f.path, f.score, countEvidence(result, f.path))]),
  ];
  const cut = (count: number) => truncationLine([{ count, singular: 'file', plural: 'files' }], budget);
  const fit = fitUnits(units, budget, 'stop', cut(files.length));
  if (!fit.truncated) return fit.lines.join('\n');
  const filesLeftOut = fit.keptUnits.slice(1).filter((k) => !k).length;
  return [...fit.lines, cut(filesLeftOut)].join('\n');
}
