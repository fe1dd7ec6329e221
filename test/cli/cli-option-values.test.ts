/**
 * Every numeric and enum option of every command, given a bad value, is a
 * usage error: one line on stderr, exit code 2, no stack trace, and nothing
 * run. The sweep walks the real program (all commands, nested ones too), so a
 * new option is covered the day it is added; the issue's own examples also run
 * through the built CLI.
 */
import type { Command, Option } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildProgram, main } from '../../src/cli/program.js';
import { cleanupTempDirs, expectOneSentenceError, tempDir } from './harness.js';
import { runCliInProcess } from './in-process-cli.js';

afterAll(cleanupTempDirs);

/** Placeholders that announce a number: such an option must have a parser. */
const NUMERIC_PLACEHOLDER = /<(n|port|seconds|size|tokens|x|c|ms)>/;
/** Values tried on every option that has a parser; the ones it rejects must fail as usage errors. */
const CANDIDATES = ['abc', '0', '-1', '1.5', '1e999', '99999999999999999999', ' '];

interface Case {
  path: string[];
  option: Option;
}

function walk(command: Command, path: string[], out: Case[]): Case[] {
  for (const option of command.options) out.push({ path, option });
  for (const sub of command.commands) walk(sub, [...path, sub.name()], out);
  return out;
}

/** Runs the program in this process; returns its exit code and everything written to stderr. */
async function runInProcess(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'reponav', ...argv]);
    return { code, stderr };
  } finally {
    spy.mockRestore();
  }
}

function expectUsageError(result: { code: number; stderr: string }, label: string): void {
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
  expect({ label, code: result.code, lines: lines.length, stack: /\n\s+at /.test(result.stderr) }).toEqual({ label, code: 2, lines: 1, stack: false });
  expect(lines[0], label).toMatch(/^error: option '.+' argument '.*' is invalid\. \S/);
}

describe('option values', () => {
  it('every option with a number placeholder has a parser, and every rejected value is one line and exit 2', async () => {
    const cases = walk(await buildProgram(['node', 'reponav']), [], []).filter((c) => c.path.length > 0);
    const unparsed = cases.filter((c) => NUMERIC_PLACEHOLDER.test(c.option.flags) && !c.option.parseArg && !c.option.argChoices);
    expect(unparsed.map((c) => `${c.path.join(' ')} ${c.option.flags}`)).toEqual([]);

    let tried = 0;
    for (const { path, option } of cases) {
      const flag = option.long ?? option.short!;
      const bad: string[] = [];
      if (option.argChoices) bad.push('no-such-choice');
      else if (option.parseArg) {
        for (const value of CANDIDATES) {
          try {
            option.parseArg(value, option.defaultValue as never);
          } catch {
            bad.push(value);
          }
        }
      }
      for (const value of bad) {
        tried++;
        expectUsageError(await runInProcess([...path, ...placeholderArgs(path), `${flag}=${value}`]), `${path.join(' ')} ${flag}=${JSON.stringify(value)}`);
      }
    }
    // The sweep reached the options it exists for (numbers and choices of many commands).
    expect(tried).toBeGreaterThan(60);
  }, 120_000);
});

/** Required positional arguments, so commander gets as far as the option. */
function placeholderArgs(path: string[]): string[] {
  const key = path.join(' ');
  if (key === 'search' || key === 'ask' || key === 'find class' || key === 'find function' || key === 'symbols') return ['x'];
  return [];
}

describe('the reported examples, through the whole program in this process', () => {
  it.each([
    [['view', 'x', '--start', 'abc']],
    [['view', '--start', '0']],
    [['find', 'class', 'Cart', '--limit', '0']],
    [['symbols', 'x', '--budget-tokens', 'abc']],
    [['search', 'cart', '--budget', 'abc']],
    [['mcp', '--http', '99999']],
    [['mcp', '--index-wait', 'abc']],
    [['index', '.', '--workers', 'two']],
    [['index', '.', '--max-file-size', 'huge']],
  ])('%j is one sentence and exit 2', async (args) => {
    const line = expectOneSentenceError(await runCliInProcess(args, { cacheDir: tempDir() }), 2);
    expect(line).toMatch(/is invalid\. Expected /);
  });
});
