/**
 * `reponav localize` and `reponav ask` as processes against an endpoint that
 * fails (HTTP 500) or stalls after the headers, in both wire formats
 * (OpenAI-compatible and Anthropic): each prints its error and the process
 * ends with a non-zero code, by itself — no client, keep-alive socket or
 * timer may keep it alive. The assertion is on the process exit, not only on
 * the output; a process still running after a generous wait is killed and
 * fails the test (a failure guard, not a timing assertion). Besides the small
 * shop fixture, both commands run on four copies of the 14-language fixture:
 * 200 files, so the index build starts its parse workers (the fixture alone,
 * 50 files, is parsed in the process) and they are on the path too.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, PROJECT_ROOT } from '../cli/harness.js';
import { runAgentCli, useAgentCliEndpoint } from '../helpers/agent-cli.js';
import type { WireProvider } from '../helpers/scripted-llm-server.js';
import { createFixtureRepo, type FixtureRepo } from './agent-fixture.js';

/** Far above what a run with these limits needs: only a process that never ends reaches it. */
const WAIT_MS = 60_000;
/** The same guard for a run that first indexes the 14-language fixture (tens of seconds on a loaded machine). */
const BUILD_WAIT_MS = 180_000;

let repo: FixtureRepo;
/** Four copies of test/fixtures/languages outside any git work tree. */
let languages: string;

beforeAll(async () => {
  await ensureBuilt();
  repo = createFixtureRepo();
  languages = join(repo.dir, 'languages');
  for (let copy = 1; copy <= 4; copy++) cpSync(join(PROJECT_ROOT, 'test/fixtures/languages'), join(languages, `copy-${copy}`), { recursive: true });
}, 300_000);
afterAll(() => repo?.cleanup());
const cli = useAgentCliEndpoint();

const run = (provider: WireProvider, args: string[]) => runAgentCli(cli.server, provider, args, { cacheDir: `${repo.dir}/cache`, children: cli.children, waitMs: WAIT_MS });

const COMMANDS: Record<string, string[]> = { localize: ['localize', '--issue', 'The discount is applied twice.'], ask: ['ask', 'Where is tax added?'] };
/**
 * Each command in each wire format, quiet with no retry; and with the default
 * retries and progress on stderr, so the retry wait's timer and the progress
 * output are on the path too.
 */
const ROWS: Array<[string, WireProvider, string, string[]]> = [
  ['localize', 'openai', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['ask', 'openai', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['localize', 'anthropic', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['ask', 'anthropic', '-q, no retry', ['-q', '--llm-retries', '0']],
  ['localize', 'anthropic', 'default retries', []],
  ['ask', 'openai', 'default retries', []],
];

describe('agent commands end their process after an error', () => {
  it.each(ROWS)('%s (%s, %s) after HTTP 500: its error on stderr, exit 1, the process ends', async (command, provider, _, flags) => {
    cli.server.setDefault({ status: 500 });
    const result = await run(provider, [...COMMANDS[command]!, ...flags, '--repo', repo.root, '--index-path', repo.indexPath(`exit-${command}-${provider}-${flags.length}`)]);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/500/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, WAIT_MS + 30_000);

  it.each(['localize', 'ask'])('%s on copies of the 14-language fixture after HTTP 500 (default retries): exit 1, the process ends', async (command) => {
    cli.server.setDefault({ status: 500 });
    // One index for both rows: the first run builds it (parse workers and all), the second reads it.
    const result = await runAgentCli(cli.server, 'openai', [...COMMANDS[command]!, '--repo', languages, '--index-path', repo.indexPath('languages')], {
      cacheDir: `${repo.dir}/cache`,
      children: cli.children,
      waitMs: BUILD_WAIT_MS,
    });
    expect(result.stillRunning, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/HTTP 500/);
  }, BUILD_WAIT_MS + 30_000);

  it.each(ROWS.slice(0, 4))('%s (%s, %s) against a body that stalls after the headers: --llm-timeout ends the call, exit 1', async (command, provider, _, flags) => {
    cli.server.setDefault({ text: 'never finished', transport: 'stall' });
    const result = await run(provider, [...COMMANDS[command]!, ...flags, '--repo', repo.root, '--index-path', repo.indexPath(`stall-${command}-${provider}`), '--llm-timeout', '0.3', '--deadline', '0']);
    expect(result.stillRunning).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/timed out/);
  }, WAIT_MS + 30_000);
});
