import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAskCommand } from './ask-command.js';
import { registerLocalizeCommand } from './localize-command.js';
import { registerSweqaCommand } from './sweqa-command.js';

/** The three commands that call a model, as the CLI registers them. */
function commands(): Record<string, Command> {
  const program = new Command('reponav');
  return {
    ask: registerAskCommand(program),
    localize: registerLocalizeCommand(program),
    sweqa: registerSweqaCommand(program.command('eval')),
  };
}

function description(command: Command, flag: string): string {
  const option = command.options.find((o) => o.long === flag);
  if (!option) throw new Error(`${command.name()} has no ${flag}`);
  return option.description;
}

describe('--llm-timeout and --llm-retries', () => {
  it('exist on ask, localize and eval sweqa with one wording (sweqa says it covers the judges too)', () => {
    const { ask, localize, sweqa } = commands();
    for (const flag of ['--llm-timeout', '--llm-retries']) {
      expect(description(ask, flag)).toBe(description(localize, flag));
      expect(description(sweqa, flag)).toBe(description(ask, flag).replace(/ \(default/, ', answering and judging (default'));
    }
    expect(description(ask, '--llm-timeout')).toBe('time limit of one model-call attempt (default 60; a timed-out attempt is retried once, then the call fails)');
    expect(description(ask, '--llm-retries')).toBe('retries of a failed model call (default 3; 0: none)');
  });

  it('refuse a timeout of 0 instead of silently using the default', async () => {
    for (const name of ['ask', 'sweqa'] as const) {
      const program = new Command('reponav').exitOverride();
      let err = '';
      program.configureOutput({ writeErr: (s) => (err += s), writeOut: () => undefined });
      const cmd = name === 'ask' ? registerAskCommand(program) : registerSweqaCommand(program.command('eval').exitOverride().configureOutput({ writeErr: (s) => (err += s) }));
      cmd.exitOverride().configureOutput({ writeErr: (s) => (err += s) });
      const argv = name === 'ask' ? ['ask', 'q', '--llm-timeout', '0'] : ['eval', 'sweqa', '--llm-timeout', '0'];
      await expect(program.parseAsync(['node', 'reponav', ...argv])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
      expect(err).toMatch(/--llm-timeout <seconds>' argument '0' is invalid\. Expected a number of seconds, more than 0\./);
    }
  });
});
