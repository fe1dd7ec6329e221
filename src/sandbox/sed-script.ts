/**
 * A checker for sed scripts: sed is allowed for printing line ranges
 * (`sed -n '10,40p' file`), but its `w`, `W`, `r`, `R` and `e` commands and
 * the `w`/`e` flags of `s` read or write other files or run commands. The
 * script is parsed just far enough to find every command letter, and only
 * commands that print, move or edit the pattern space are accepted.
 */

/** Commands that only print or change the pattern space; `a`/`i`/`c` print text. */
const SIMPLE = new Set(['p', 'P', '=', 'l', 'n', 'N', 'd', 'D', 'g', 'G', 'h', 'H', 'x', 'z', 'F', 'q', 'Q']);
const LABELLED = new Set(['b', 't', 'T', ':']);
const TEXT = new Set(['a', 'i', 'c']);
const DANGEROUS: Record<string, string> = {
  w: 'writes a file',
  W: 'writes a file',
  r: 'reads another file',
  R: 'reads another file',
  e: 'runs a command',
};

class SedRefusal extends Error {}

/**
 * Null when `script` only prints or edits the stream; otherwise why it is
 * refused. Conservative: syntax it does not understand is refused too.
 */
export function sedScriptProblem(script: string): string | null {
  try {
    check(script);
    return null;
  } catch (error) {
    if (error instanceof SedRefusal) return error.message;
    throw error;
  }
}

function check(script: string): void {
  let i = 0;
  const fail = (why: string): never => {
    throw new SedRefusal(`sed script '${script.length > 80 ? `${script.slice(0, 80)}…` : script}' is not allowed: ${why}`);
  };
  const skip = (pattern: RegExp): void => {
    while (i < script.length && pattern.test(script[i]!)) i++;
  };
  /** Reads a delimited part (regex or replacement) ending at `delim`; returns after the delimiter. */
  const delimited = (delim: string): void => {
    while (i < script.length && script[i] !== delim) {
      if (script[i] === '\n') fail('a regular expression spans lines');
      i += script[i] === '\\' ? 2 : 1;
    }
    if (i >= script.length) fail('an unterminated regular expression or replacement');
    i++;
  };
  const address = (second: boolean): boolean => {
    const ch = script[i];
    if (ch === undefined) return false;
    if (/[0-9]/.test(ch)) {
      skip(/[0-9]/);
      if (script[i] === '~') {
        i++;
        skip(/[0-9]/);
      }
      return true;
    }
    if (ch === '$') {
      i++;
      return true;
    }
    if (second && (ch === '+' || ch === '~')) {
      i++;
      skip(/[0-9]/);
      return true;
    }
    if (ch === '/' || ch === '\\') {
      const delim = ch === '/' ? '/' : script[i + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') fail('a malformed address');
      i += ch === '/' ? 1 : 2;
      delimited(delim);
      skip(/[IM]/);
      return true;
    }
    return false;
  };

  while (i < script.length) {
    skip(/[\s;]/);
    if (i >= script.length) break;
    if (script[i] === '#') {
      skip(/[^\n]/);
      continue;
    }
    if (script[i] === '}') {
      i++;
      continue;
    }
    if (address(false)) {
      skip(/[ \t]/);
      if (script[i] === ',') {
        i++;
        skip(/[ \t]/);
        if (!address(true)) fail('a malformed address range');
      }
    }
    skip(/[ \t]/);
    if (script[i] === '!') {
      i++;
      skip(/[ \t]/);
    }
    const command = script[i++];
    if (command === undefined) fail('an address without a command');
    if (command === '{') continue;
    if (DANGEROUS[command] !== undefined) fail(`the '${command}' command ${DANGEROUS[command]}`);
    if (SIMPLE.has(command)) {
      skip(/[ \t0-9]/);
      continue;
    }
    if (LABELLED.has(command) || TEXT.has(command) || command === 'v') {
      skip(/[^;\n]/);
      continue;
    }
    if (command === 's' || command === 'y') {
      const delim = script[i];
      if (delim === undefined || delim === '\n' || delim === '\\') fail(`a malformed '${command}' command`);
      i++;
      delimited(delim);
      delimited(delim);
      if (command === 's') {
        const flagsStart = i;
        skip(/[A-Za-z0-9]/);
        const flags = script.slice(flagsStart, i);
        if (/[we]/.test(flags)) fail(`the '${/w/.test(flags) ? 'w' : 'e'}' flag of 's' ${/w/.test(flags) ? 'writes a file' : 'runs a command'}`);
        if (/[^gpiImM0-9]/.test(flags)) fail(`unknown 's' flags '${flags}'`);
      }
      continue;
    }
    fail(`the '${command}' command is not supported here; print ranges with sed -n 'START,ENDp' FILE`);
  }
}
