import { ReponavError } from '../errors.js';

/** Longest accepted pattern: long patterns are a denial-of-service vector, not a use case. */
export const MAX_PATTERN_LENGTH = 256;

/**
 * Compiles a glob (`src/**\/*.py`, `*.ts`, `tests/`) into a path predicate.
 * `*` matches within a segment, `**` across segments, `?` one character; a
 * pattern without `/` matches the basename anywhere; a trailing `/` matches a
 * folder prefix. Matching is a dynamic programme over pattern × path
 * (O(|pattern|·|path|), both capped), never a backtracking regex, so no pattern
 * can hang the caller.
 */
export function compilePathPattern(pattern: string): (path: string) => boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ReponavError('BAD_INPUT', `file_pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}.`);
  }
  const trimmed = pattern.trim().replace(/^\.\//, '');
  if (!trimmed) return () => true;
  if (trimmed.endsWith('/')) return (path) => path.startsWith(trimmed) || path.includes('/' + trimmed);
  if (!trimmed.includes('/')) {
    const tokens = tokenize(trimmed);
    return (path) => matchTokens(tokens, path.slice(path.lastIndexOf('/') + 1));
  }
  const tokens = tokenize('**/' + trimmed);
  return (path) => matchTokens(tokens, path);
}

type GlobToken = { kind: 'any' | 'star' | 'one' } | { kind: 'char'; char: string };

function tokenize(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      // `**/` also matches zero folders.
      if (pattern[i + 1] === '/') i++;
      if (tokens[tokens.length - 1]?.kind !== 'any') tokens.push({ kind: 'any' });
    } else if (c === '*') {
      const last = tokens[tokens.length - 1]?.kind;
      if (last !== 'star' && last !== 'any') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

function matchTokens(tokens: GlobToken[], text: string): boolean {
  // reachable[j]: the tokens so far can consume exactly text[0, j).
  let reachable = new Uint8Array(text.length + 1);
  reachable[0] = 1;
  for (const token of tokens) {
    const next = new Uint8Array(text.length + 1);
    if (token.kind === 'any' || token.kind === 'star') {
      let open = false;
      for (let j = 0; j <= text.length; j++) {
        if (reachable[j]) open = true;
        if (open) next[j] = 1;
        if (token.kind === 'star' && j < text.length && text[j] === '/') open = false;
      }
    } else {
      for (let j = 0; j < text.length; j++) {
        if (!reachable[j]) continue;
        const c = text[j];
        if (token.kind === 'one' ? c !== '/' : token.kind === 'char' && c === token.char) next[j + 1] = 1;
      }
    }
    reachable = next;
  }
  return reachable[text.length] === 1;
}
