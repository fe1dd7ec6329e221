/**
 * Paths as text output and messages show them: a control character (a newline
 * in a file name) would split an output line or an error sentence, so such a
 * path is quoted and C-escaped as git's core.quotePath does. Lives in index/,
 * the lowest stage whose messages name paths, so every later stage shares it.
 */

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

/** A path inside a message sentence: `'src/a.py'`, or {@link displayPath}'s double-quoted escape when it holds a control character. */
export function quotedPath(path: string): string {
  return CONTROL_CHARACTERS.test(path) ? displayPath(path) : `'${path}'`;
}
