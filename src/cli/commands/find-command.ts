/**
 * `reponav find class|function NAME`: exact-name lookups (the find_class and
 * find_function tools) with spans and signatures.
 */
import type { Command } from 'commander';
import { findClassTool, findFunctionTool } from '../../tools/index.js';
import { wholeNumber } from '../option-parsers.js';
import { addToolCommandOptions, runToolCommand, type ToolCommandOptions } from './symbols-command.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

/** Words for a kind that are not `class` or `function`, and the kind each means. */
const KIND_WORDS: Readonly<Record<string, 'class' | 'function'>> = {
  method: 'function', func: 'function', fn: 'function', def: 'function', fun: 'function', procedure: 'function',
  struct: 'class', interface: 'class', type: 'class', enum: 'class', trait: 'class', module: 'class', object: 'class',
};

interface FindCommandOptions extends ToolCommandOptions {
  filePattern?: string;
  limit?: number;
}

/** Registers `reponav find class NAME` and `reponav find function NAME` (options: --repo, --file-pattern, --limit, --json). */
export function registerFindCommand(program: Command, io: CliIo = PROCESS_IO): Command {
  const find = program
    .command('find')
    .exitOverride()
    .description('find a class or a function by exact name (qualified name, then qualified suffix, then case-insensitive); exit 1 when nothing matches');
  // `reponav find toJson` (no kind) would otherwise read "unknown command 'toJson'", which sends
  // a user or an agent to --help for what one sentence can say.
  find.on('command:*', (operands: string[]) => {
    // `find method foo` names a kind in other words: point at the kind it means, with its name.
    const meant = KIND_WORDS[operands[0]?.toLowerCase() ?? ''];
    const given = meant && operands[1] !== undefined ? operands[1] : operands[0];
    const name = /^[\w.:/$-]+$/.test(given ?? '') ? given : 'NAME';
    const hint = meant ? `run \`reponav find ${meant} ${name}\`` : `run \`reponav find function ${name}\` or \`reponav find class ${name}\``;
    find.error(`error: find takes a kind (class or function) before the name: ${hint}`, { exitCode: 2, code: 'reponav.find.kind' });
  });
  const kinds = [
    ['class', findClassTool, 'classes, interfaces, structs, enums, traits and modules named NAME (e.g. Cart, shop.models.Order)'],
    ['function', findFunctionTool, 'functions and methods named NAME (e.g. checkout, Cart.checkout, src/cart.ts:Cart.checkout)'],
  ] as const;
  for (const [kind, tool, description] of kinds) {
    const command = find.command(kind).description(description).argument('<name>', `${kind} name`);
    command
      .option('--file-pattern <glob>', 'only files matching this glob (e.g. "*.py", "src/**/*.ts", "tests/")')
      .option('--limit <n>', 'most matches shown (default 20, at most 100)', wholeNumber(1, 100));
    addToolCommandOptions(command).action(async (name: string, options: FindCommandOptions) => {
      await runToolCommand(options, io, tool, () => ({
        name,
        ...(options.filePattern !== undefined ? { file_pattern: options.filePattern } : {}),
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
      }), undefined, undefined, (data) => (data as { total: number }).total > 0);
    });
  }
  return find;
}
