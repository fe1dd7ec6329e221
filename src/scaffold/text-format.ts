/**
 * Small formatting rules shared by the text renderers, kept in one place so the
 * interfaces compared in the ablations differ in structure only, never in how
 * a span, a score or a list is spelled.
 */

/** `[L12-30]`; a one-line symbol is `[L12]`. */
export function formatSpan(startLine: number, endLine: number): string {
  return startLine === endLine ? `[L${startLine}]` : `[L${startLine}-${endLine}]`;
}

/** Scores with three decimals: enough to separate BM25 and cosine scores, stable across platforms. */
export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(3) : String(score);
}

/** `a, b, c (+2 more)` with at most `cap` names shown (cap ≤ 0 shows only the count). */
export function formatNameList(names: readonly string[], cap: number): string {
  const shown = names.slice(0, Math.max(0, cap));
  const rest = names.length - shown.length;
  const more = rest > 0 ? `(+${rest} more)` : '';
  return [shown.join(', '), more].filter(Boolean).join(' ');
}

/** The directory part of a repository path; `.` for top-level files. */
export function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '.' : path.slice(0, slash);
}

/** A repository path as text output shows it (see index/sources/display-path.ts, where it lives so index messages share it). */
export { displayPath } from '../index/index.js';
