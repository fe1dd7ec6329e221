import { ReponavError } from '../errors.js';

/** Longest accepted pattern: long patterns are a denial-of-service vector, not a use case. */
export const MAX_PATTERN_LENGTH = 256;

/**
 * Compiles a glob (`src/**\/*.py`, `*.ts`, `tests/`) into a path predicate.
 * `*` matches within a segment, `**` across segments, `?` one character; a
 * pattern without `/` matches the basename anywhere; a trailing `/` matches a
 * folder prefix. Built from a linear regex (no nested quantifiers), so it cannot
 * backtrack catastrophically.
 */
export function compilePathPattern(pattern: string): (path: string) => boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ReponavError('BAD_INPUT', `file_pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}.`);
  }
  const trimmed = pattern.trim().replace(/^\.\//, '');
  if (!trimmed) return () => true;
  if (trimmed.endsWith('/')) return (path) => path.startsWith(trimmed) || path.includes('/' + trimmed);
  let source = '';
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (c === '*' && trimmed[i + 1] === '*') {
      source += '.*';
      i++;
      if (trimmed[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = trimmed.includes('/') ? new RegExp(`^(?:.*/)?${source}$`) : new RegExp(`(?:^|/)${source}$`);
  return (path) => regex.test(path);
}
