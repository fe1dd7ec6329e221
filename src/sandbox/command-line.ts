/**
 * Parses an agent's command line into argv arrays without a shell interpreter.
 * Only what a read-only exploration needs is understood — words, quotes,
 * backslash escapes, a `|` pipeline, `2>/dev/null` and `2>&1` — and anything
 * that would need a shell to mean something (`;`, `&&`, `$(…)`, `$VAR`,
 * backticks, subshells, other redirections) is refused with a reason the
 * model can act on, instead of being silently misread.
 */

/** One word after quote removal. */
export interface ShellWord {
  /** The literal text (quotes removed, escapes applied). */
  text: string;
  /**
   * A glob pattern (backslash escapes mark literal characters) when the word
   * holds an unquoted `*`, `?` or `[`; null when the word is never expanded.
   */
  glob: string | null;
}

/** What happens to a stage's stderr. */
export type StderrMode = 'show' | 'discard' | 'merge';

/** One program of a pipeline. */
export interface CommandStage {
  words: ShellWord[];
  /** `show` (default: appended to the observation), `discard` (`2>/dev/null`), `merge` (`2>&1`). */
  stderr: StderrMode;
}

/** Result of {@link parseCommandLine}: never throws for bad input. */
export type ParsedCommandLine = { ok: true; stages: CommandStage[] } | { ok: false; reason: string };

const GLOB_CHARS = new Set(['*', '?', '[']);
/** Characters that start a parameter, arithmetic or command substitution after `$`. */
const SUBSTITUTION_START = /[A-Za-z0-9_{(@*#?$!-]/;

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

/**
 * Splits `line` into pipeline stages of words. Bash semantics for what is
 * accepted: single quotes are literal; in double quotes `\` escapes only
 * `"`, `\`, `$`, `` ` `` and newline; an unquoted `#` at the start of a word
 * begins a comment; a backslash-newline joins lines. Refused: `;`, `&`,
 * `&&`, `||`, `(`, `)`, `<`, `>` (except `2>/dev/null` and `2>&1`),
 * `$VAR`/`${…}`/`$(…)`/`$'…'`, backticks, newlines and unterminated quotes.
 */
export function parseCommandLine(line: string): ParsedCommandLine {
  try {
    return { ok: true, stages: parse(line.trim()) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

function parse(line: string): CommandStage[] {
  if (line === '') refuse('the command is empty');
  const stages: CommandStage[] = [];
  let stage: CommandStage = { words: [], stderr: 'show' };
  let text = '';
  let glob = '';
  let hasGlob = false;
  let inWord = false;

  const literal = (ch: string): void => {
    text += ch;
    glob += GLOB_CHARS.has(ch) || ch === '\\' || ch === ']' ? `\\${ch}` : ch;
    inWord = true;
  };
  const endWord = (): void => {
    if (inWord) stage.words.push({ text, glob: hasGlob ? glob : null });
    text = '';
    glob = '';
    hasGlob = false;
    inWord = false;
  };
  const endStage = (): void => {
    endWord();
    if (stage.words.length === 0) refuse('a pipeline has an empty command around `|`');
    stages.push(stage);
    stage = { words: [], stderr: 'show' };
  };

  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    const next = line[i + 1];
    if (ch === ' ' || ch === '\t') {
      endWord();
      i++;
    } else if (ch === '\\') {
      if (next === undefined) refuse('the command ends with a lone backslash');
      // Backslash-newline is a line continuation, as in bash.
      if (next !== '\n') literal(next);
      i += 2;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) refuse('a single quote is not closed');
      for (const c of line.slice(i + 1, end)) literal(c);
      inWord = true; // '' is an empty word
      i = end + 1;
    } else if (ch === '"') {
      i = readDoubleQuoted(line, i + 1, literal);
      inWord = true;
    } else if (ch === '$') {
      if (next === "'" || next === '"') refuse("`$'…'` and `$\"…\"` quoting is not supported; use plain quotes");
      if (next !== undefined && SUBSTITUTION_START.test(next)) {
        refuse('variables and command substitution (`$…`) are not supported; write the value literally');
      }
      literal('$');
      i++;
    } else if (ch === '`') {
      refuse('command substitution with backticks is not supported');
    } else if (ch === '|') {
      if (next === '|') refuse('`||` is not supported: run one command (or one `a | b` pipeline) per action');
      if (next === '&') refuse('`|&` is not supported; use `2>&1 |`');
      endStage();
      i++;
    } else if (ch === ';' || ch === '&') {
      refuse(`\`${ch === '&' && next === '&' ? '&&' : ch}\` is not supported: run one command (or one \`a | b\` pipeline) per action`);
    } else if (ch === '\n' || ch === '\r') {
      refuse('the command spans several lines: run one command (or one `a | b` pipeline) per action');
    } else if (ch === '(' || ch === ')') {
      refuse('subshells and grouping with parentheses are not supported; quote the character if it is part of an argument');
    } else if (ch === '>' || ch === '<') {
      i = readRedirection(line, i, { text, inWord, hasGlob }, stage);
      text = '';
      glob = '';
      inWord = false;
    } else if (ch === '#' && !inWord) {
      break; // a comment runs to the end of the line
    } else {
      if (GLOB_CHARS.has(ch) || ch === ']') {
        // Unquoted: these keep their pattern meaning (a lone `]` is literal to the matcher).
        text += ch;
        glob += ch;
        hasGlob ||= ch !== ']';
        inWord = true;
      } else literal(ch);
      i++;
    }
  }
  endStage();
  return stages;
}

/** Reads a double-quoted string starting after its `"`; returns the index after the closing quote. */
function readDoubleQuoted(line: string, start: number, literal: (ch: string) => void): number {
  let i = start;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '"') return i + 1;
    if (ch === '\\') {
      const next = line[i + 1];
      if (next === undefined) break;
      if (next === '"' || next === '\\' || next === '$' || next === '`') literal(next);
      else if (next !== '\n') {
        literal('\\');
        literal(next);
      }
      i += 2;
      continue;
    }
    if (ch === '`') refuse('command substitution with backticks is not supported');
    if (ch === '$' && line[i + 1] !== undefined && SUBSTITUTION_START.test(line[i + 1]!)) {
      refuse('variables and command substitution (`$…`) are not supported, also inside double quotes; write the value literally or use single quotes');
    }
    literal(ch);
    i++;
  }
  refuse('a double quote is not closed');
}

/**
 * Accepts only the two redirections that write nothing: `2>/dev/null` and
 * `2>&1` (the `2` must be a bare word just before `>`). Returns the index
 * after the redirection target.
 */
function readRedirection(
  line: string,
  at: number,
  word: { text: string; inWord: boolean; hasGlob: boolean },
  stage: CommandStage,
): number {
  const denied = (): never =>
    refuse('redirections (`>`, `>>`, `<`) are not allowed: the shell is read-only and the output comes back to you anyway');
  if (line[at] !== '>' || !word.inWord || word.text !== '2' || word.hasGlob || line[at - 1] !== '2') denied();
  let i = at + 1;
  if (line[i] === '&') {
    if (line[i + 1] !== '1') denied();
    i += 2;
    stage.stderr = 'merge';
  } else {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (!line.startsWith('/dev/null', i)) denied();
    i += '/dev/null'.length;
    stage.stderr = 'discard';
  }
  if (i < line.length && !/[\s|]/.test(line[i]!)) denied();
  return i;
}
