/**
 * Old option spellings kept after a rename: one name per concept across
 * commands (`--budget-tokens` for an output budget, `--max-file-size` for the
 * largest file indexed), the former names still accepted but not shown in
 * `--help`.
 */
import { Option, type Command } from 'commander';
import type { OptionParser } from './option-parsers.js';

/**
 * Adds `flags` (e.g. `--budget <tokens>`) to `command` as a hidden alias of the
 * option `canonical` (e.g. `--budget-tokens <n>`): its value goes through the
 * same `parser` and lands under the canonical option's name, so the action
 * reads one field whichever spelling was used (the last one given wins).
 */
export function addHiddenAlias(command: Command, flags: string, canonical: string, parser?: OptionParser<unknown>): Command {
  const alias = new Option(flags).hideHelp();
  if (parser) alias.argParser(parser);
  const target = new Option(canonical).attributeName();
  alias.attributeName = () => target;
  return command.addOption(alias);
}
