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

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * A repository path as text output shows it: unchanged, unless it holds a
 * control character (a newline would split the output line), in which case it
 * is quoted and C-escaped as git's core.quotePath does: `"a\nb.py"`.
 */
export function displayPath(path: string): string {
  if (!CONTROL_CHARACTERS.test(path)) return path;
  const named: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
  // eslint-disable-next-line no-control-regex -- see CONTROL_CHARACTERS
  const escaped = path.replace(/["\\\u0000-\u001f\u007f]/g, (c) => named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `"${escaped}"`;
}
