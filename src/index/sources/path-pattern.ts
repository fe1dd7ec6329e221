import { createRequire } from 'node:module';
import type picomatch from 'picomatch';
import { ReponavError } from '../../errors.js';

/** Longest accepted pattern: long patterns are a denial-of-service vector, not a use case. */
export const MAX_PATTERN_LENGTH = 256;

/**
 * Most `*` wildcards in one path segment. picomatch compiles a glob to a
 * JavaScript regular expression, which backtracks: a segment with k stars can
 * cost about L^k steps on an L-character name (measured with picomatch 4:
 * `*a*a*a*b` against 200 `a`s took 1.5 s, `*a*a*b` against 255 took 55 ms).
 * File names are at most 255 characters, so three keep the worst case in
 * milliseconds; patterns people and agents write (`*test*.py`) use one or two.
 */
export const MAX_STARS_PER_SEGMENT = 3;

/**
 * picomatch options: dotfiles match like any file (`*.yml` finds
 * `.github/ci.yml`); no extglobs (`+(a|aa)` would compile to a backtracking
 * group) and no `!` negation, so those characters are literal.
 */
const OPTIONS: picomatch.PicomatchOptions = { dot: true, noextglob: true, nonegate: true };

/** picomatch, required on first use: a command without a file pattern never loads it. */
let picomatchModule: typeof picomatch | undefined;
function loadPicomatch(): typeof picomatch {
  return (picomatchModule ??= createRequire(import.meta.url)('picomatch') as typeof picomatch);
}

/**
 * Compiles a glob in the standard (picomatch) dialect into a predicate over
 * repository-relative paths (`/`-separated): `*` and `?` within a name, `**`
 * across folders, braces (`*.{py,pyi}`), classes (`[a-c]*.py`, `[^a-c]*`).
 *
 * - A pattern matches a path when it matches the path or a folder above it:
 *   `src/flask`, `src/flask/` and `tests` select everything under them.
 * - It may start at any folder: `*.py` finds Python files at any depth and
 *   `flask/app.py` matches `src/flask/app.py` (an agent that leaves out a
 *   prefix is forgiven); a leading `/` anchors it at the repository root.
 * - A leading `./` is ignored; an empty pattern matches everything.
 *
 * picomatch matches one name at a time (each segment its own small regex);
 * `**` and the folder rules are a dynamic programme over pattern × path
 * segments, so no pattern backtracks across the whole path (a single regex for
 * `**\/` repeated 80 times did not finish).
 *
 * Throws `ReponavError('BAD_INPUT')` for a pattern longer than
 * {@link MAX_PATTERN_LENGTH}, with more than {@link MAX_STARS_PER_SEGMENT}
 * stars in one segment, or with a `/` inside braces.
 */
export function compilePathPattern(pattern: string): (path: string) => boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ReponavError('BAD_INPUT', `file_pattern is ${pattern.length} characters; the limit is ${MAX_PATTERN_LENGTH}.`);
  }
  let text = pattern.trim().replace(/^(\.\/)+/, '');
  const anchored = text.startsWith('/');
  text = text.replace(/^\/+/, '').replace(/\/+$/, '');
  if (!text) return () => true;
  const segments = splitSegments(text).filter((segment, i, all) => !(segment === '**' && all[i - 1] === '**'));
  const matchers = segments.map((segment) => {
    if (segment === '**') return null;
    const stars = segment.split('*').length - 1;
    if (stars > MAX_STARS_PER_SEGMENT) {
      throw new ReponavError(
        'BAD_INPUT',
        `file_pattern segment '${segment}' has ${stars} '*' wildcards; the limit is ${MAX_STARS_PER_SEGMENT} per segment (more make matching slow).`,
      );
    }
    return loadPicomatch()(segment, OPTIONS);
  });
  return (path) => matchSegments(matchers, path.split('/'), anchored);
}

/** Splits at `/` outside braces; a `/` inside braces is refused (it would need matching across segments). */
function splitSegments(pattern: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      current += c + (pattern[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === '/') {
      if (depth > 0) throw new ReponavError('BAD_INPUT', `file_pattern '${pattern}' has a '/' inside braces; use braces within one folder or file name.`);
      if (current) segments.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  if (current) segments.push(current);
  return segments;
}

/**
 * Whether the pattern segments (null = `**`) match `names[start..k)` for some
 * start (0 only when anchored) and some end k ≥ 1 (a folder above the file or
 * the file itself). reach[j]: the segments so far can end just before names[j].
 */
function matchSegments(matchers: Array<((name: string) => boolean) | null>, names: string[], anchored: boolean): boolean {
  let reach = new Uint8Array(names.length + 1);
  if (anchored) reach[0] = 1;
  else reach.fill(1, 0, names.length);
  for (const matcher of matchers) {
    const next = new Uint8Array(names.length + 1);
    if (matcher === null) {
      // `**`: zero or more whole names.
      let open = false;
      for (let j = 0; j <= names.length; j++) {
        if (reach[j]) open = true;
        if (open) next[j] = 1;
      }
    } else {
      for (let j = 0; j < names.length; j++) if (reach[j] && matcher(names[j])) next[j + 1] = 1;
    }
    reach = next;
  }
  return reach.some((reached, end) => reached === 1 && end >= 1);
}
