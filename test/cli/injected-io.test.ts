/**
 * `main(argv, io)` writes only to the io it is given: help, answers, JSON,
 * progress, warnings, usage errors and the one-sentence error alike. A write
 * that still went to the process's own streams would be lost to a program
 * embedding the CLI (and to the in-process tests, which capture through io).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { buildProgram, main } from '../../src/cli/program.js';
import { cleanupTempDirs, copyIndexFixture } from './harness.js';

afterAll(cleanupTempDirs);

interface Captured {
  io: CliIo;
  out: () => string;
  err: () => string;
}

function capture(): Captured {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (text: string) => ((out += text), true), isTTY: false }, stderr: { write: (text: string) => ((err += text), true), isTTY: false } },
    out: () => out,
    err: () => err,
  };
}

let spies: MockInstance[] = [];
beforeEach(() => {
  spies = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
});
afterEach(() => {
  for (const spy of spies) spy.mockRestore();
});

/** The process's own streams were not written to by the run. */
function processStreamsUntouched(what: string): void {
  const written = spies.flatMap((spy) => spy.mock.calls.map((call) => String(call[0])));
  expect(written, what).toEqual([]);
}

describe('main(argv, io)', () => {
  it("prints every command's --help on io's stdout, and nothing on the process's streams", async () => {
    const names = (await buildProgram(['node', 'reponav'])).commands.map((command) => command.name());
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) {
      const run = capture();
      expect(await main(['node', 'reponav', name, '--help'], run.io), name).toBe(0);
      expect(run.out(), name).toContain(`Usage: reponav ${name}`);
      processStreamsUntouched(`${name} --help`);
    }
  });

  it('sends usage errors, tool errors and answers through io (index, status, search, symbols, find, view, ls)', async () => {
    const { root, indexPath, cacheDir } = copyIndexFixture();
    const saved = process.env.REPONAV_CACHE_DIR;
    process.env.REPONAV_CACHE_DIR = cacheDir;
    try {
      const runs: Array<{ args: string[]; code: number; stdout?: RegExp; stderr?: RegExp }> = [
        { args: ['index', root, '--index-path', indexPath], code: 0, stdout: /files? listed|indexed/i },
        { args: ['status', root, '--index-path', indexPath, '--json'], code: 0, stdout: /^\{/ },
        { args: ['search', 'checkout discount total', '--repo', root, '--index-path', indexPath], code: 0, stdout: /\S/ },
        { args: ['search', '   ', '--repo', root, '--index-path', indexPath], code: 1, stderr: /^error: The query is empty/ },
        { args: ['ls', '--repo', root, '--index-path', indexPath], code: 0, stdout: /\S/ },
        { args: ['find', 'function', 'no_such_function_anywhere', '--repo', root, '--index-path', indexPath], code: 1, stderr: /^error: / },
        { args: ['view', 'no/such/file.py', '--repo', root, '--index-path', indexPath], code: 1, stderr: /^error: / },
        { args: ['search', 'x', '--no-such-option'], code: 2, stderr: /unknown option '--no-such-option'/ },
        { args: ['no-such-command'], code: 2, stderr: /unknown command/ },
      ];
      for (const expected of runs) {
        const run = capture();
        const code = await main(['node', 'reponav', ...expected.args], run.io);
        const what = `reponav ${expected.args.join(' ')}: ${run.err()}`;
        expect(code, what).toBe(expected.code);
        if (expected.stdout) expect(run.out(), what).toMatch(expected.stdout);
        if (expected.stderr) expect(run.err(), what).toMatch(expected.stderr);
        processStreamsUntouched(what);
      }
    } finally {
      if (saved === undefined) delete process.env.REPONAV_CACHE_DIR;
      else process.env.REPONAV_CACHE_DIR = saved;
    }
  });
});
