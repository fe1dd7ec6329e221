/**
 * The one set of option-value parsers every `reponav` command uses (commander
 * argParsers). A bad value throws commander's InvalidArgumentError, which
 * commander reports as one line (`error: option '--start <n>' argument 'abc'
 * is invalid: …`) and the entry point maps to exit code 2 (a usage error),
 * before the command does anything. Defaults given to commander are not
 * parsed, so they must already be values of the parsed type.
 */
import { InvalidArgumentError } from 'commander';

/** A commander argParser: the option's text in, its value out. */
export type OptionParser<T> = (value: string) => T;

/** Whole numbers from `min` to `max` (inclusive); `what` names the unit in the message. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER, what = 'whole number'): OptionParser<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `, at least ${min}` : ` from ${min} to ${max}`;
  return (value) => {
    const n = Number(value.trim());
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`Expected a ${what}${range}.`);
    }
    return n;
  };
}

/** A whole number of 1 or more (`--limit`, `--start`, `--iterations`). */
export const positiveInt: OptionParser<number> = wholeNumber(1);

/** A whole number of 0 or more. */
export const nonNegativeInt: OptionParser<number> = wholeNumber(0);

/** A token budget: a whole number of at least `min` tokens. */
export function tokenBudget(min = 1): OptionParser<number> {
  return wholeNumber(min, Number.MAX_SAFE_INTEGER, 'whole number of tokens');
}

/** A TCP port, 0 (any free port) to 65535. */
export const port: OptionParser<number> = wholeNumber(0, 65535, 'port number');

/** `--workers`: 0 (parse in this process) to 16 threads. */
export const workerCount: OptionParser<number> = wholeNumber(0, 16, 'worker count');

/** A finite decimal number of at least `min` (and more than `min` when `exclusive`). */
export function decimal(min: number, { exclusive = false, what = 'number' } = {}): OptionParser<number> {
  return (value) => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n) || n < min || (exclusive && n === min)) {
      throw new InvalidArgumentError(`Expected a ${what}, ${exclusive ? 'more than' : 'at least'} ${min}.`);
    }
    return n;
  };
}

/** A number of seconds, 0 or more (fractions allowed). */
export const seconds: OptionParser<number> = decimal(0, { what: 'number of seconds' });

const SIZE_SCALE = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as const;

/** Parses `1048576`, `512k`, `2m`, `1g` (an optional `i`/`b`/`ib` suffix) into bytes; null when it is not a size. */
export function sizeInBytes(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) return null;
  return Math.round(Number(match[1]) * SIZE_SCALE[match[2]!.toLowerCase() as keyof typeof SIZE_SCALE]);
}

/** A file size of at least one byte: `1048576`, `512k`, `2m`, `1g`. */
export const fileSize: OptionParser<number> = (value) => {
  const bytes = sizeInBytes(value);
  if (bytes === null || bytes < 1) throw new InvalidArgumentError('Expected a size in bytes or with a suffix, like 512k or 2m.');
  return bytes;
};

/** A comma-separated list with at least one item (`a, b,c` → `['a', 'b', 'c']`); `what` names one item. */
export function commaList(what: string): OptionParser<string[]> {
  return (value) => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (items.length === 0) throw new InvalidArgumentError(`Give at least one ${what}.`);
    return items;
  };
}

/** A repeatable option's accumulator: each occurrence appends its value. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
