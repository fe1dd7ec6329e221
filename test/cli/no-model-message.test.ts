import { afterAll, describe, expect, it } from 'vitest';
import { noModelMessage } from '../../src/cli/run-program.js';
import { cleanupTempDirs, copyIndexFixture } from './harness.js';
import { runCliInProcess } from './in-process-cli.js';

afterAll(cleanupTempDirs);

describe('with no model configured', () => {
  it('ask and localize name only their own option (--model), never --config-json, which they reject', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const saved = process.env.REPONAV_LLM_MODEL;
    delete process.env.REPONAV_LLM_MODEL;
    try {
      for (const args of [
        ['ask', 'where is stock reserved', '--repo', root],
        ['localize', '--repo', root, '--issue', 'stock is reserved twice'],
      ]) {
        const result = await runCliInProcess(args, { cacheDir });
        expect(result.code, args[0]).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/^error: No LLM model configured: name one with --model \(e\.g\. [^)]+\), or set the REPONAV_LLM_MODEL environment variable\.\n$/);
        expect(result.stderr).not.toMatch(/config-json/);
      }
    } finally {
      if (saved !== undefined) process.env.REPONAV_LLM_MODEL = saved;
    }
  });

  it('each command is told the option it takes; an unknown command keeps the message naming both', () => {
    expect(noModelMessage(['eval', 'sweqa'])).toMatch(/with --model \(/);
    expect(noModelMessage(['eval', 'locbench'])).toMatch(/with "model" in --config-json \(/);
    expect(noModelMessage(['mcp'])).toBeNull();
    expect(noModelMessage([])).toBeNull();
  });
});
