/**
 * The reply styles real models produce (issue #19's table), each scripted on
 * the fake OpenAI-compatible server — once, and persistently where the style
 * can repeat — and run through `reponav localize` (the real client, tools,
 * index and answer check). Every row asserts the recovered answer or the
 * clear failure; each run's transcript (replies as sent, what the agent did,
 * what it sent back) is kept as a fixture under fixtures/reply-styles/, so a
 * future real-model run can be diffed against it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerLocalizeCommand } from '../../src/cli/commands/localize-command.js';
import { silentLogger } from '../../src/logger.js';
import { startFakeOpenAIServer, type FakeServer, type QueuedReply } from '../helpers/fake-openai-server.js';
import { answerTurn, createFixtureRepo, toolTurn, type FixtureRepo } from './agent-fixture.js';

interface CliRun {
  stdout: string;
  stderr: string;
  error: unknown;
  json: any;
  trace: any;
}

const ISSUE = 'Applying the discount code SAVE10 twice doubles the discount.';
const ANSWER = { files: ['shop/cart.py'], functions: ['shop/cart.py:Cart.apply_discount'] };

let repo: FixtureRepo;
let server: FakeServer;
let runs = 0;

async function localize(replies: QueuedReply[], extra: string[] = []): Promise<CliRun> {
  server.enqueue(...replies);
  let stdout = '';
  let stderr = '';
  const trace = join(repo.dir, `trace-${++runs}.json`);
  const program = new Command('reponav').exitOverride().configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
  registerLocalizeCommand(program, {
    env: { REPONAV_LLM_BASE_URL: server.openaiBaseUrl },
    logger: silentLogger,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  let error: unknown = null;
  try {
    await program.parseAsync([
      'node', 'reponav', 'localize', '--repo', repo.root, '--issue', ISSUE, '--index-path', repo.indexPath('styles'),
      '--model', 'openai-compatible:fake-model', '--llm-retries', '0', '--max-steps', '8', '--json', '-q', '--trace', trace, ...extra,
    ]);
  } catch (caught) {
    error = caught;
  }
  let saved: any = null;
  try {
    saved = JSON.parse(readFileSync(trace, 'utf8'));
  } catch {
    // no trace: the run failed before the agent ran
  }
  return { stdout, stderr, error, json: stdout ? JSON.parse(stdout) : null, trace: saved };
}

/** The diffable transcript of a run: what the model sent, what the agent did with it, what it sent back. */
function transcript(run: CliRun): unknown {
  return {
    stopReason: run.trace.stopReason,
    answerSource: run.trace.answerSource,
    answer: run.trace.answer,
    dropped: run.trace.dropped,
    steps: run.trace.steps.map((s: any) => ({
      reply: s.assistant,
      finishReason: s.finishReason ?? null,
      action: s.action,
      ...(s.tool ? { tool: s.tool, args: s.args } : {}),
      sentBack: s.observation === undefined ? null : String(s.observation).replace(/Tokens used: \d+/, 'Tokens used: N').slice(0, 300),
    })),
  };
}

async function keep(name: string, run: CliRun): Promise<void> {
  await expect(`${JSON.stringify(transcript(run), null, 2)}\n`).toMatchFileSnapshot(`./fixtures/reply-styles/${name}.json`);
}

const fenced = (json: unknown, lang = 'json') => `\`\`\`${lang}\n${JSON.stringify(json)}\n\`\`\``;
const searchCall = { tool: 'search', args: { query: 'discount code' } };

beforeAll(() => {
  repo = createFixtureRepo();
});
afterAll(() => repo.cleanup());
// A fresh server per row: replies a row did not consume must not leak into the next.
beforeEach(async () => {
  server = await startFakeOpenAIServer();
  return () => server.close();
});

describe('localize: reply styles of real models', () => {
  it('JSON in a markdown fence, and bare JSON without one', async () => {
    const run = await localize([
      { content: fenced(searchCall) },
      { content: JSON.stringify({ tool: 'list_symbols', args: { file: 'shop/cart.py' } }) },
      { content: JSON.stringify(ANSWER) },
    ]);
    expect(run.error).toBeNull();
    expect(run.json).toMatchObject({ stopReason: 'answered', answerSource: 'answer', found_entities: ANSWER.functions });
    expect(run.trace.steps.map((s: any) => s.action)).toEqual(['tool', 'tool', 'answer']);
    await keep('localize-fenced-and-bare-json', run);
  });

  it('prose before and after the action', async () => {
    const run = await localize([
      { content: `Let me search for the discount logic first.\n${fenced(searchCall, 'tool')}\nThis should show where codes are applied.` },
      { content: `The bug is in apply_discount.\n${fenced(ANSWER, 'answer')}\nThat is my final answer.` },
    ]);
    expect(run.json).toMatchObject({ stopReason: 'answered', found_files: ['shop/cart.py'] });
    await keep('localize-prose-around', run);
  });

  it('two actions in one reply: the first runs with a note; persistently, still answered', async () => {
    const twice = (a: unknown, b: unknown) => ({ content: `${fenced(a, 'tool')}\n${fenced(b, 'tool')}` });
    const run = await localize([
      twice(searchCall, { tool: 'list_symbols', args: { file: 'shop/cart.py' } }),
      twice({ tool: 'list_symbols', args: { file: 'shop/cart.py' } }, { tool: 'view_code', args: { file: 'shop/cart.py' } }),
      { content: `${fenced(ANSWER, 'answer')}\n${fenced(searchCall, 'tool')}` },
    ]);
    expect(run.json).toMatchObject({ stopReason: 'answered', found_entities: ANSWER.functions });
    expect(run.trace.steps.map((s: any) => s.tool ?? s.action)).toEqual(['search', 'list_symbols', 'answer']);
    expect(run.trace.steps[0].observation).toMatch(/^Note: Your reply held 2 actions; only the first \(tool\) was taken/);
    await keep('localize-two-actions', run);
  });

  it('tool names and keys in other casing ("Search", "Tool"/"Args"), persistently', async () => {
    const run = await localize([
      { content: fenced({ Tool: 'Search', Args: { query: 'discount code' } }) },
      { content: fenced({ TOOL: 'List_Symbols', ARGS: { file: 'shop/cart.py' } }) },
      { content: fenced({ Files: ANSWER.files, Functions: ANSWER.functions }, 'answer') },
    ]);
    expect(run.json).toMatchObject({ stopReason: 'answered', found_entities: ANSWER.functions });
    expect(run.trace.steps.map((s: any) => s.tool ?? s.action)).toEqual(['search', 'list_symbols', 'answer']);
    expect(run.json.stats.toolErrors).toBe(0);
    await keep('localize-casing', run);
  });

  it('a reply cut at the length limit is asked again once, shorter', async () => {
    const run = await localize([
      { content: 'I will look at the cart and then the pricing module, because the discount', finishReason: 'length' },
      { content: fenced(ANSWER, 'answer') },
    ]);
    expect(run.json).toMatchObject({ stopReason: 'answered', found_entities: ANSWER.functions });
    expect(run.trace.steps[0]).toMatchObject({ action: 'truncated', finishReason: 'length' });
    const retry = server.requests[1]!.body.messages.at(-1).content as string;
    expect(retry).toMatch(/cut off at the length limit.*Reply again, shorter/);
    await keep('localize-truncated-once', run);
  });

  it('an answer whose every name is invented is no answer: non-zero, stop reason no-answer, the names counted as dropped', async () => {
    const invented = { files: ['billing/discounts.py'], functions: ['billing/discounts.py:apply_code', 'inventory/stock.py:Catalogue.find_by_isbn'] };
    const run = await localize([{ content: fenced(searchCall, 'tool') }, { content: fenced(invented, 'answer') }]);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
    expect(run.json).toMatchObject({ stopReason: 'no-answer', answerSource: 'none', found_files: [], found_entities: [] });
    expect(run.trace.dropped.names).toEqual(expect.arrayContaining([...invented.files, ...invented.functions]));
  });

  it('a name is kept only in a file the index says defines it: a function a file only calls is dropped', async () => {
    const answer = { files: ['shop/cart.py'], functions: ['shop/cart.py:Cart.apply_discount', 'shop/cart.py:compute_tax'] };
    const run = await localize([{ content: fenced(searchCall, 'tool') }, { content: fenced(answer, 'answer') }]);
    expect(run.error).toBeNull();
    expect(run.json).toMatchObject({ stopReason: 'answered', found_entities: ['shop/cart.py:Cart.apply_discount'] });
    expect(run.trace.dropped.names).toEqual(['shop/cart.py:compute_tax']);
  });

  it('a name is kept only with the qualification the index defines in that file: another class or a top-level function is dropped', async () => {
    const answer = {
      files: ['shop/cart.py'],
      functions: ['shop/cart.py:Catalogue.apply_discount', 'shop/pricing.py:Cart.compute_tax', 'shop/cart.py:Cart.apply_discount', 'shop/cart.py:total'],
    };
    const run = await localize([{ content: fenced(searchCall, 'tool') }, { content: fenced(answer, 'answer') }]);
    expect(run.error).toBeNull();
    expect(run.json).toMatchObject({ stopReason: 'answered', found_entities: ['shop/cart.py:Cart.apply_discount', 'shop/cart.py:total'] });
    // The modules read off the dropped functions (`shop/cart.py:Catalogue`, `shop/pricing.py:Cart`) are not defined there either.
    expect(run.trace.dropped).toEqual({ count: 4, names: ['shop/cart.py:Catalogue.apply_discount', 'shop/pricing.py:Cart.compute_tax', 'shop/cart.py:Catalogue', 'shop/pricing.py:Cart'] });
  });

  it('persistently truncated: the cut answer is read, and a cut-off name is dropped (with a count), never shipped', async () => {
    const cut = '```answer\n{"files": ["shop/cart.py", "shop/pricing.py"], "functions": ["shop/cart.py:Cart.apply_discount", "shop/pricing.py:compute_ta';
    const run = await localize([
      { content: cut, finishReason: 'length' },
      { content: cut, finishReason: 'length' },
      { content: cut, finishReason: 'length' },
    ]);
    expect(run.json.found_entities).toEqual(['shop/cart.py:Cart.apply_discount']);
    expect(run.json.found_entities.join(' ')).not.toContain('compute_ta');
    expect(run.json.dropped.count).toBeGreaterThan(0);
    expect(run.json.dropped.names).toContain('shop/pricing.py:compute_ta');
    expect(run.json.answerSource).not.toBe('answer');
    expect(run.error).toMatchObject({ code: 'LLM_ERROR' }); // no valid answer: non-zero exit
    await keep('localize-truncated-persistent', run);
  });

  it('a wrong argument name: the tool error names the argument and the model recovers', async () => {
    const run = await localize([{ content: fenced({ tool: 'list_symbols', args: { path: 'shop/cart.py' } }, 'tool') }, toolTurn('list_symbols', { file: 'shop/cart.py' }), answerTurn(ANSWER.files, ANSWER.functions)]);
    expect(run.json).toMatchObject({ stopReason: 'answered' });
    expect(run.trace.steps[0].observation).toMatch(/^Error from list_symbols: .*file/);
    await keep('localize-wrong-argument', run);
  });

  it('an empty reply is asked for again by the client, and the run goes on', async () => {
    const run = await localize([{ content: '' }, answerTurn(ANSWER.files, ANSWER.functions)]);
    expect(run.json).toMatchObject({ stopReason: 'answered' });
    expect(run.json.stats.steps).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('persistently empty replies stop the run early, report why even with -q, and exit non-zero', async () => {
    const run = await localize(Array.from({ length: 8 }, () => ({ content: '' })));
    expect(run.json).toBeNull();
    expect(server.requests).toHaveLength(2);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/empty-reply; 2 empty replies in a row/) });
    expect(run.trace).toMatchObject({ stopReason: 'llm-error', steps: [] });
  });

  it('persistently the same format error (prose, no action) stops the run early', async () => {
    const run = await localize(Array.from({ length: 8 }, () => ({ content: 'I think the problem is in the cart.' })));
    expect(run.json).toMatchObject({ stopReason: 'format-errors' });
    expect(run.json.stats.steps).toBe(3);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
  });

  it('a budget stop is visible with -q', async () => {
    const run = await localize(Array.from({ length: 3 }, (_, i) => ({ content: fenced({ tool: 'search', args: { query: `discount ${i}` } }, 'tool') })), ['--max-steps', '2']);
    expect(run.json.stopReason).toBe('step-budget');
    expect(run.stderr).toMatch(/^step-budget/);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
  });

  it('stops at its deadline against a server that never answers', async () => {
    const run = await localize([{ content: 'too late', delayMs: 60_000 }], ['--deadline', '0.5']);
    expect(run.json).toMatchObject({ stopReason: 'deadline', found_files: [] });
    expect(run.stderr).toMatch(/^deadline .* the run's deadline of 0\.5 s passed during a model call/);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
  }, 15_000);
});
