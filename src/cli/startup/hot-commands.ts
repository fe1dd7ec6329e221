/**
 * The hot commands' registrars (hot-command-names.ts), in `--help` order:
 * program.ts lists them among every command, hot-main.ts alone.
 */
import type { Registrar } from '../run-program.js';

export const HOT_COMMANDS: Record<string, Registrar> = {
  search: async (p, io) => (await import('../commands/search-command.js')).registerSearchCommand(p, io),
  symbols: async (p, io) => void (await import('../commands/symbols-command.js')).registerSymbolsCommand(p, io),
  find: async (p, io) => void (await import('../commands/find-command.js')).registerFindCommand(p, io),
  view: async (p, io) => void (await import('../commands/view-command.js')).registerViewCommand(p, io),
};
