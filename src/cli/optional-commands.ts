import type { Command } from 'commander';

/**
 * Registers the commands whose modules are present in this build (tools, MCP,
 * agents). Each module exports `register…Command(program)`.
 */
export async function registerOptionalCommands(program: Command): Promise<void> {
  const modules: [string, string][] = [
    ['./commands/symbols-command.js', 'registerSymbolsCommand'],
    ['./commands/find-command.js', 'registerFindCommand'],
    ['./commands/view-command.js', 'registerViewCommand'],
    ['./commands/mcp-command.js', 'registerMcpCommand'],
  ];
  for (const [path, name] of modules) {
    const module = (await import(path).catch(() => null)) as Record<string, (p: Command) => void> | null;
    module?.[name]?.(program);
  }
}
