/**
 * Pathname expansion for unquoted `*`, `?` and `[…]`, done by us because no
 * shell runs the command. Bash's defaults: a pattern matches within one path
 * segment, a leading `.` must be matched explicitly, results are sorted, and
 * a pattern matching nothing stays as written. Directories outside the view
 * are never listed, so expansion cannot reveal names beyond it.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Most paths one word may expand to; beyond it the word is refused by the caller. */
export const MAX_GLOB_MATCHES = 2000;

/** A pattern segment: a literal name, or a matcher. */
type Segment = { literal: string } | { regex: RegExp; dotExplicit: boolean };

/**
 * Expands `pattern` (glob syntax with backslash escapes, as in
 * `ShellWord.glob`) relative to `cwd`, listing only directories inside
 * `viewRoot`. Returns the sorted matches as written relative to `cwd` (or
 * absolute when the pattern is), or null when nothing matches. Throws a plain
 * Error when more than {@link MAX_GLOB_MATCHES} paths match.
 */
export function expandGlob(pattern: string, cwd: string, viewRoot: string): string[] | null {
  const absolute = pattern.startsWith('/');
  const segments = splitSegments(pattern).filter((s, i) => s !== '' || i === 0);
  if (absolute) segments.shift();
  let current: Array<{ shown: string; fsPath: string }> = [{ shown: absolute ? '/' : '', fsPath: absolute ? '/' : cwd }];
  for (const raw of segments) {
    const segment = compileSegment(raw);
    const next: typeof current = [];
    for (const entry of current) {
      if ('literal' in segment) {
        next.push({ shown: joinShown(entry.shown, segment.literal), fsPath: join(entry.fsPath, segment.literal) });
        continue;
      }
      if (!inside(viewRoot, entry.fsPath)) continue;
      let names: string[];
      try {
        names = readdirSync(entry.fsPath);
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.startsWith('.') && !segment.dotExplicit) continue;
        if (!segment.regex.test(name)) continue;
        next.push({ shown: joinShown(entry.shown, name), fsPath: join(entry.fsPath, name) });
        if (next.length > MAX_GLOB_MATCHES) throw new Error(`the pattern '${pattern}' matches more than ${MAX_GLOB_MATCHES} paths; narrow it`);
      }
    }
    current = next;
    if (current.length === 0) return null;
  }
  // A pattern ending in literal segments only matches paths that exist.
  const existing = current.filter((entry) => exists(entry.fsPath));
  if (existing.length === 0) return null;
  return existing.map((entry) => entry.shown).sort();
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function joinShown(base: string, name: string): string {
  if (base === '') return name;
  return base.endsWith('/') ? base + name : `${base}/${name}`;
}

/** True when the real location of `path` (symlinks resolved) is inside `root`. */
function inside(root: string, path: string): boolean {
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch {
    return false;
  }
  const rel = relative(root, real);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Splits on `/` that is not escaped. */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      current += ch + pattern[++i];
    } else if (ch === '/') {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** One segment as a literal name (no unescaped glob characters) or an anchored regex. */
function compileSegment(segment: string): Segment {
  let source = '';
  let literal = '';
  let isGlob = false;
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (ch === '\\' && i + 1 < segment.length) {
      const next = segment[++i]!;
      source += escapeRegex(next);
      literal += next;
    } else if (ch === '*') {
      source += '.*';
      isGlob = true;
    } else if (ch === '?') {
      source += '.';
      isGlob = true;
    } else if (ch === '[') {
      const end = classEnd(segment, i);
      if (end < 0) {
        source += '\\[';
        literal += '[';
        continue;
      }
      source += classRegex(segment.slice(i + 1, end));
      isGlob = true;
      i = end;
    } else {
      source += escapeRegex(ch);
      literal += ch;
    }
  }
  if (!isGlob) return { literal };
  return { regex: new RegExp(`^${source}$`, 's'), dotExplicit: segment.startsWith('.') || segment.startsWith('\\.') };
}

/** Index of the `]` closing a class opened at `start`, or -1. A `]` right after `[`, `[!` or `[^` is literal. */
function classEnd(segment: string, start: number): number {
  let i = start + 1;
  if (segment[i] === '!' || segment[i] === '^') i++;
  if (segment[i] === ']') i++;
  for (; i < segment.length; i++) {
    if (segment[i] === '\\') i++;
    else if (segment[i] === ']') return i;
  }
  return -1;
}

/** A bracket expression's body (between `[` and `]`) as a regex class; ranges (`a-z`) keep their meaning. */
function classRegex(body: string): string {
  let out = '[';
  let i = 0;
  if (body[0] === '!' || body[0] === '^') {
    out += '^';
    i = 1;
  }
  for (; i < body.length; i++) {
    let ch = body[i]!;
    if (ch === '\\' && i + 1 < body.length) ch = body[++i]!;
    else if (ch === '-') {
      out += '-';
      continue;
    }
    out += /[\\\][[^-]/.test(ch) ? `\\${ch}` : ch;
  }
  return `${out}]`;
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
