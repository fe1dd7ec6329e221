/**
 * One name per concept across commands: the output budget is `--budget-tokens`
 * and the largest file indexed is `--max-file-size` wherever they appear; the
 * old spellings (`search --budget`, `mcp`/`ui --max-file-bytes`) still work but
 * are not shown in --help. Command descriptions share one style: lower case,
 * imperative, no closing full stop (as commander's own `help` line).
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

function commands(root: Command): Command[] {
  return root.commands.flatMap((sub) => [sub, ...commands(sub)]);
}

async function command(...path: string[]): Promise<Command> {
  let current = await buildProgram(['node', 'reponav']);
  for (const name of path) current = current.commands.find((c) => c.name() === name)!;
  return current;
}

/** The long flags `--help` shows for a command. */
function visibleFlags(cmd: Command): string[] {
  return cmd.createHelp().visibleOptions(cmd).map((o) => o.long ?? '');
}

describe('option names', () => {
  it('shows only the canonical names, on every command that has the concept', async () => {
    const all = commands(await buildProgram(['node', 'reponav']));
    for (const cmd of all) {
      const flags = visibleFlags(cmd);
      expect(flags, cmd.name()).not.toContain('--budget');
      expect(flags, cmd.name()).not.toContain('--max-file-bytes');
    }
    for (const name of ['index', 'mcp', 'ui']) expect(visibleFlags(await command(name)), name).toContain('--max-file-size');
    for (const name of ['search', 'symbols', 'mcp', 'ask']) expect(visibleFlags(await command(name)), name).toContain('--budget-tokens');
  });

  it('keeps the old spellings as hidden aliases that set the same value', async () => {
    const search = await command('search');
    search.parseOptions(['--budget', '300']);
    expect(search.opts().budgetTokens).toBe(300);
    search.parseOptions(['--budget-tokens', '400']);
    expect(search.opts().budgetTokens).toBe(400);
    for (const name of ['mcp', 'ui']) {
      const cmd = await command(name);
      cmd.parseOptions(['--max-file-bytes', '2m']);
      expect(cmd.opts().maxFileSize, name).toBe(2 * 1024 * 1024);
      cmd.parseOptions(['--max-file-size', '512k']);
      expect(cmd.opts().maxFileSize, name).toBe(512 * 1024);
    }
  });
});

describe('command descriptions', () => {
  it('are lower case and end without a full stop', async () => {
    for (const cmd of commands(await buildProgram(['node', 'reponav']))) {
      const text = cmd.description();
      expect(text, cmd.name()).toMatch(/^[a-z]/);
      expect(text, cmd.name()).not.toMatch(/\.$/);
    }
  });
});
