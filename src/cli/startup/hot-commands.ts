/**
 * The hot commands' registrars (hot-command-names.ts), in `--help` order:
 * program.ts lists them among every command, hot-main.ts alone.
 */
import type { Registrar } from '../run-program.js';

export const HOT_COMMANDS: Record<string, Registrar> = {
  search: async (p) => (await import('../commands/search-command.js')).registerSearchCommand(p),
  symbols: async (p) => void (await import('../commands/symbols-command.js')).registerSymbolsCommand(p),
  find: async (p) => void (await import('../commands/find-command.js')).registerFindCommand(p),
  view: async (p) => void (await import('../commands/view-command.js')).registerViewCommand(p),
};
