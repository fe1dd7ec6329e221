/**
 * Native tool calls in the replies of `ask`'s answer writers and of its ReAct
 * loop, in both wire formats through the real clients (the `openai` SDK, the
 * Anthropic fetch client) on the scripted endpoint: Claude's text plus
 * `tool_use`, OpenAI's content plus `tool_calls`, parallel calls, and text
 * that itself holds JSON lines. A reply that calls tools is not an answer
 * (the model waits for tool results): neither the calls rendered as JSON nor
 * the text beside them is ever shipped; the writer is asked once more, and a
 * second such reply is a marked fallback (stop reason `answer-tool-call`),
 * which the CLI ends with a non-zero exit and `eval sweqa` records as an
 * error, never judged, answered again on resume. In the ReAct loop a native call is
 * read as the turn's action (the first of parallel calls), `Finish` included.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askQuestion, type AskMethod } from '../../src/agents/ask/index.js';
import { askAnswerer } from '../../src/cli/commands/sweqa-command.js';
import { runSweqa } from '../../src/eval/sweqa/index.js';
import { silentLogger } from '../../src/logger.js';
import { ensureBuilt } from '../cli/harness.js';
import { runAgentCli, useAgentCliEndpoint } from '../helpers/agent-cli.js';
import type { ScriptedRequest, StyledReply, WireProvider } from '../helpers/scripted-llm-server.js';
import { createFixtureGitRepo, openFixtureRepo, type FixtureRepo } from './helpers/fixture-repo.js';

const QUESTION = 'Where is tax added to the cart total?';
const ANSWER = '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the discount.';
const JSON_ROLES: Record<string, unknown> = {
  perception: { summary: 'Nothing found yet.', redundancy: [], gaps: ['where tax is added'], promising: ['with_tax'] },
  planning: { actions: [{ action: 'FindFunction', args: { name: 'with_tax' }, rationale: 'tax is likely added there' }] },
  evaluation: { score: 80, rationale: 'the function that adds tax', follow_up: 'answer' },
};

/** The answer writer's reply shapes that call tools. */
const TOOL_REPLIES: Record<string, StyledReply> = {
  'text beside one call': { text: 'Let me look at the code that adds tax first.', toolCalls: [{ name: 'FindFunction', args: { name: 'with_tax' } }] },
  'a whole answer beside a call': { text: ANSWER, toolCalls: [{ name: 'ViewCode', args: { path: 'shop/pricing.py' } }] },
  'parallel calls, no text': { toolCalls: [{ name: 'FindFunction', args: { name: 'with_tax' } }, { name: 'FindClass', args: { name: 'Cart' } }] },
  'text holding JSON lines beside a call': { text: `${ANSWER}\n{"name": "FindFunction", "arguments": {"name": "apply_discount"}}`, toolCalls: [{ name: 'FindClass', args: { name: 'Cart' } }] },
};

let repo: FixtureRepo;

beforeAll(async () => {
  repo = await openFixtureRepo();
});
afterAll(async () => repo?.close());
const cli = useAgentCliEndpoint();

/** The `[role: …]` tag of a request, in either wire format. */
function roleOf(request: ScriptedRequest): string {
  const system = request.provider === 'anthropic' ? request.body.system : request.body.messages?.[0]?.content;
  return /^\[role: ([a-z]+)\]/.exec(typeof system === 'string' ? system : '')?.[1] ?? 'unknown';
}

/** Every role answers as a finished model would; the answer writers with `answer` (one reply each, in order, then `then`). */
function script(answer: StyledReply[], then: StyledReply = { text: ANSWER }): void {
  const queue = [...answer];
  cli.server.setDefault((request) => {
    const role = roleOf(request);
    if (role === 'answer' || role === 'revision' || role === 'direct') return queue.shift() ?? then;
    return { text: JSON.stringify(JSON_ROLES[role] ?? {}) };
  });
}

const ask = (provider: WireProvider, method: AskMethod = 'mcts') =>
  askQuestion({ question: QUESTION, method, model: cli.server.model(provider), repositories: repo.repositories, settings: { iterations: method === 'react' ? 3 : 1 } });

/** Nothing of a tool call is in `text`: no rendered call, no call's name as an action. */
function expectNoToolCall(text: string): void {
  expect(text).not.toMatch(/"arguments"|"name"\s*:/);
  expect(text).not.toContain('Let me look at the code');
}

const PROVIDERS: WireProvider[] = ['openai', 'anthropic'];
const CASES = PROVIDERS.flatMap((p) => Object.keys(TOOL_REPLIES).map((name) => [p, name] as const));

describe('ask: an answer writer that calls tools', () => {
  it.each(CASES)('%s, %s once: asked again without tools, the second (prose) answer ships', async (provider, name) => {
    script([TOOL_REPLIES[name]!]);
    const r = await ask(provider);
    expect(r.trace.answer.fallback).toBe(false);
    expect(r.answer).toBe(ANSWER);
    expectNoToolCall(r.answer);
    const writer = r.trace.roleCalls.filter((c) => c.role === 'answer');
    expect(writer.map((c) => [c.attempt, c.ok])).toEqual([[1, false], [2, true]]);
    expect(writer[0]!.error).toMatch(/^the reply called tools instead of writing the answer \(/);
    const resent = cli.server.requests.filter((q) => roleOf(q) === 'answer').at(-1)!;
    expect(resent.prompt).toContain('No tool can be called here');
  });

  it.each(CASES)('%s, %s every time: a marked fallback (answer-tool-call), the calls and the text beside them nowhere', async (provider, name) => {
    script([], TOOL_REPLIES[name]!);
    const r = await ask(provider);
    expect(r.stopReason).toBe('answer-tool-call');
    expect(r.trace.answer.fallback).toBe(true);
    expect(r.answer).toMatch(/^No answer could be written \(the model called tools instead of writing the answer twice\)\.\nThis is a fallback, not an answer/);
    expectNoToolCall(r.answer);
  });

  it.each(PROVIDERS)('%s, the direct baseline: a tool call is not its answer', async (provider) => {
    script([], TOOL_REPLIES['a whole answer beside a call']!);
    const r = await ask(provider, 'direct');
    expect(r.trace.answer.fallback).toBe(true);
    expectNoToolCall(r.answer);
  });
});

describe('ask --method react: native tool calls are the turn\'s action', () => {
  it.each(PROVIDERS)('%s: parallel calls run the first; a Finish call is the draft answer', async (provider) => {
    const turns: StyledReply[] = [
      { text: 'I will look up the tax function.', toolCalls: [{ name: 'FindFunction', args: { name: 'with_tax' } }, { name: 'FindClass', args: { name: 'Cart' } }] },
      { toolCalls: [{ name: 'Finish', args: { answer: ANSWER } }] },
    ];
    cli.server.setDefault((request) => (roleOf(request) === 'react' ? turns.shift() ?? { text: '{}' } : { text: ANSWER }));
    const r = await ask(provider, 'react');
    expect(r.trace.steps.map((s) => s.action?.type ?? null)).toEqual(['FindFunction', null]);
    expect(r.stopReason).toBe('finish');
    expect(r.answer).toBe(ANSWER);
    expect(r.trace.roleCalls.filter((c) => c.role === 'react').every((c) => c.ok)).toBe(true);
  });
});

describe('eval sweqa when the answer writer only calls tools', () => {
  it.each(PROVIDERS)('%s: the question is an error, never judged; a resume answers it again', async (provider) => {
    const reposDir = join(repo.dir, `sweqa-repos-${provider}`);
    mkdirSync(reposDir, { recursive: true });
    const sha = createFixtureGitRepo(reposDir, 'acme/shop');
    const questionsPath = join(repo.dir, `questions-${provider}.jsonl`);
    writeFileSync(questionsPath, `${JSON.stringify({ id: 'q1', repo: 'acme/shop', commit_short: sha.slice(0, 7), qtype_first_word: 'where', question: QUESTION, answer: 'with_tax' })}\n`);
    const scores = { correctness: 15, completeness: 14, relevance: 16, clarity: 15, reasoning: 14, total: 74 };
    let tools = true;
    cli.server.setDefault((request) => {
      const role = roleOf(request);
      if (role === 'judge') return { text: JSON.stringify(scores) };
      if (role === 'answer' || role === 'revision') return tools ? TOOL_REPLIES['a whole answer beside a call']! : { text: ANSWER };
      return { text: JSON.stringify(JSON_ROLES[role] ?? {}) };
    });
    const options = {
      questionsPath,
      reposDir,
      outDir: join(repo.dir, `sweqa-out-${provider}`),
      answerer: askAnswerer('rag'),
      model: cli.server.model(provider),
      judges: [cli.server.model(provider, { model: 'judge' })],
      indexDir: join(repo.dir, `sweqa-index-${provider}`),
      logger: silentLogger,
    };
    const records = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status: string; total?: number | null; stopReason?: string });
    const first = await runSweqa(options);
    expect(records(first.paths.answers)).toMatchObject([{ status: 'error' }]);
    expect(cli.server.requests.filter((q) => roleOf(q) === 'judge')).toHaveLength(0);
    tools = false;
    const resumed = await runSweqa(options);
    expect(records(resumed.paths.answers).at(-1)).toMatchObject({ status: 'ok', total: 74 });
  }, 120_000);
});

describe('reponav ask (the built CLI) when the answer writer only calls tools', () => {
  beforeAll(async () => ensureBuilt(), 300_000);

  it.each(PROVIDERS)('%s: the fallback is printed, the process exits 1 naming answer-tool-call, no call on stdout', async (provider) => {
    script([], TOOL_REPLIES['text holding JSON lines beside a call']!);
    const { code, stdout, stderr } = await runAgentCli(cli.server, provider, ['ask', QUESTION, '--repo', repo.root, '--iterations', '1', '-q'], { cacheDir: `${repo.dir}/cli-cache`, children: cli.children, waitMs: 50_000 });
    expect(code, stderr).toBe(1);
    expect(stderr.trim()).toMatch(/^error: No answer \(stopped: answer-tool-call\): what was printed is a fallback, not the model's answer\.$/m);
    expectNoToolCall(stdout);
  }, 60_000);
});
