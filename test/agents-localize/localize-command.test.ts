import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerLocalizeCommand } from '../../src/cli/commands/localize-command.js';
import { silentLogger } from '../../src/logger.js';
import { startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { answerTurn, bashTurn, createFixtureRepo, toolTurn, type FixtureRepo } from './agent-fixture.js';

interface CliRun {
  stdout: string;
  stderr: string;
  error: unknown;
}

async function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const program = new Command('reponav').exitOverride().configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
  registerLocalizeCommand(program, {
    env,
    logger: silentLogger,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  let error: unknown = null;
  try {
    await program.parseAsync(['node', 'reponav', 'localize', ...args]);
  } catch (caught) {
    error = caught;
  }
  return { stdout, stderr, error };
}

describe('reponav localize', () => {
  let repo: FixtureRepo;
  let server: FakeServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    repo = createFixtureRepo();
    server = await startFakeOpenAIServer();
    env = { REPONAV_LLM_BASE_URL: server.openaiBaseUrl };
  });
  afterAll(async () => {
    await server.close();
    repo.cleanup();
  });

  it('prints the ranked answer, writes the trace and records; the recording replays offline', async () => {
    const trace = join(repo.dir, 'out', 'trace.json');
    const transcript = join(repo.dir, 'out', 'transcript.jsonl');
    const issueFile = join(repo.dir, 'issue.txt');
    writeFileSync(issueFile, 'Discount code SAVE10 can be applied twice.\n');
    server.enqueue(
      toolTurn('search', { query: 'discount code applied twice' }),
      toolTurn('list_symbols', { file: 'shop/cart.py' }),
      answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount', 'shop/cart.py:Cart.total']),
    );
    const common = ['--repo', repo.root, '--commit', repo.first, '--issue-file', issueFile, '--index-path', repo.indexPath('cli')];
    const live = await runCli([...common, '--model', 'openai-compatible:fake-model', '--trace', trace, '--record', transcript], env);
    expect(live.error).toBeNull();
    expect(live.stdout).toBe(['Files:', '  1. shop/cart.py', 'Functions:', '  1. shop/cart.py:Cart.apply_discount', '  2. shop/cart.py:Cart.total', ''].join('\n'));
    expect(live.stderr).toMatch(/\[step 1\/30\] search \{"query":"discount code applied twice"\}/);
    expect(live.stderr).toMatch(/answered after 3 steps · \d+ tokens · 1 file inspected/);
    const saved = JSON.parse(readFileSync(trace, 'utf8'));
    expect(saved).toMatchObject({ repo: repo.root, commit: repo.first, interface: 'reponav', stopReason: 'answered', model: 'openai-compatible:fake-model' });
    expect(saved.steps.map((s: { tool?: string }) => s.tool)).toEqual(['search', 'list_symbols', undefined]);
    expect(saved.steps[0].observation).toContain('shop/cart.py');
    expect(saved.stats).toMatchObject({ steps: 3, listSymbolsUsed: true, filesInspected: 1 });
    expect(existsSync(transcript)).toBe(true);

    const before = server.requests.length;
    const replayed = await runCli([...common, '--replay', transcript, '--json'], {});
    expect(replayed.error).toBeNull();
    expect(server.requests.length).toBe(before);
    const json = JSON.parse(replayed.stdout);
    expect(json).toMatchObject({
      interface: 'reponav',
      stopReason: 'answered',
      answerSource: 'answer',
      found_files: ['shop/cart.py'],
      found_modules: ['shop/cart.py:Cart'],
      found_entities: ['shop/cart.py:Cart.apply_discount', 'shop/cart.py:Cart.total'],
    });
    expect(json.stats.steps).toBe(3);
  });

  it('runs the bash interface on the working tree', async () => {
    server.enqueue(bashTurn('grep -rn "def validate" shop'), answerTurn(['shop/coupons.py'], ['shop/coupons.py:validate']));
    const run = await runCli(['--repo', repo.root, '--issue', 'Coupon validation accepts lowercase codes', '--interface', 'bash', '--model', 'openai-compatible:fake-model', '--json', '-q'], env);
    expect(run.error).toBeNull();
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ interface: 'bash', found_entities: ['shop/coupons.py:validate'] });
    const system = server.requests.at(-1)!.body.messages[0].content as string;
    expect(system).toContain('You have exactly these tools: bash. No other tool exists.');
  });

  it('--embedder reaches the agent tools: snippet_search asks the embeddings server (dense fusion); without it, none is asked', async () => {
    const embeddings = () => server.requests.filter((r) => r.route === 'embeddings').length;
    const args = ['--repo', repo.root, '--issue', 'Discount code SAVE10 can be applied twice', '--interface', 'snippet', '--index-path', repo.indexPath('dense'), '--model', 'openai-compatible:fake-model', '--json', '-q'];
    // Chat replies reserved for the chat route: the embeddings requests must not take them.
    const script = () =>
      server.enqueue(
        { ...toolTurn('snippet_search', { query: 'discount code applied twice' }), route: 'chat' },
        { ...answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']), route: 'chat' },
      );
    script();
    const before = embeddings();
    const dense = await runCli([...args, '--embedder', 'openai-compatible', '--embed-base-url', server.openaiBaseUrl, '--embed-model', 'fake-embedding'], env);
    expect(dense.error).toBeNull();
    expect(embeddings()).toBeGreaterThan(before);
    script();
    const after = embeddings();
    const lexical = await runCli(args, env);
    expect(lexical.error).toBeNull();
    expect(embeddings()).toBe(after);
  });

  it('rejects unusable input with a clear error', async () => {
    const both = await runCli(['--repo', repo.root, '--issue', 'x', '--issue-file', 'y'], env);
    expect(String(both.error)).toMatch(/exactly one of --issue TEXT or --issue-file FILE/);
    const iface = await runCli(['--repo', repo.root, '--issue', 'x', '--interface', 'grep'], env);
    expect(iface.stderr).toMatch(/Allowed choices are bash, snippet, snippet\+listsym, reponav/);
    const noModel = await runCli(['--repo', repo.root, '--issue', 'x'], {});
    expect(String(noModel.error)).toMatch(/No LLM model configured/);
    // A CLI user has no "config": the sentence names the flag that sets the model.
    expect(String(noModel.error)).toMatch(/--model/);
    const replayAndRecord = await runCli(['--repo', repo.root, '--issue', 'x', '--record', 'a', '--replay', 'b'], env);
    expect(String(replayAndRecord.error)).toMatch(/either --record or --replay/);
  });
});
