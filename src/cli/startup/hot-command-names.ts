/**
 * The names of the commands an agent calls on every step, whose start-up is
 * what a CLI-driven agent pays per call: they start `git status` before
 * anything else loads (early-git-status.ts) and run from a bundle compiled
 * with a V8 code cache (launcher.ts). Apart from their registrars
 * (hot-commands.ts) so the launcher loads no command module to ask.
 */
export const HOT_COMMAND_NAMES: readonly string[] = ['search', 'symbols', 'find', 'view'];

/** True when `argv` (process.argv) runs a hot command. */
export function isHotCommand(argv: readonly string[]): boolean {
  return HOT_COMMAND_NAMES.includes(argv[2] ?? '');
}
