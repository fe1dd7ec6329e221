// Command-line parsing shared by the bench scripts: node:util's parseArgs in strict mode, so an
// unknown flag or a flag without its value is refused (exit 2) instead of silently starting a
// benchmark that can run for many minutes, and `--help` prints the usage and exits 0.
import { parseArgs } from 'node:util';

/**
 * Parses process.argv for a bench script.
 * @param {object} spec
 * @param {string} spec.usage  the usage text printed by --help and after an error
 * @param {Record<string, {type: 'string'|'boolean', default?: string|boolean, multiple?: boolean}>} [spec.options]
 * @param {number} [spec.minPositionals] fewest positional arguments (default 0)
 * @param {number} [spec.maxPositionals] most positional arguments (default 0)
 * @param {string[]} [spec.argv] the arguments (default process.argv.slice(2))
 * @returns {{values: Record<string, any>, positionals: string[]}}
 */
export function parseBenchArgs({ usage, options = {}, minPositionals = 0, maxPositionals = 0, argv = process.argv.slice(2) }) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    fail(usage, reason(error));
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  const n = parsed.positionals.length;
  if (n < minPositionals) fail(usage, minPositionals === 1 ? 'missing the required argument' : `expected at least ${minPositionals} arguments, got ${n}`);
  if (n > maxPositionals) fail(usage, `unexpected argument ${JSON.stringify(parsed.positionals[maxPositionals])}`);
  return parsed;
}

/** A whole number from a flag's value, or exit 2 naming the flag. */
export function wholeNumber(usage, name, value) {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(String(value))) fail(usage, `--${name} takes a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** node:util's messages run long; the first sentence names the problem. */
function reason(error) {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  return unknown ? `unknown option ${unknown[1]}` : message.split('. ')[0];
}

function fail(usage, message) {
  process.stderr.write(`${message}\n\n${usage.trim()}\n`);
  process.exit(2);
}
