/**
 * `reponav ask` and `reponav eval sweqa` in process, against the scripted
 * fake server (selected through REPONAV_LLM_BASE_URL, as a user would).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AskTrace } from '../../src/agents/ask/index.js';
import { registerAskCommand } from '../../src/cli/commands/ask-command.js';
import { registerSweqaCommand } from '../../src/cli/commands/sweqa-command.js';
import { createFixtureGitRepo, writeFixtureFiles } from './helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';
import { restoreEnv } from '../helpers/process-env.js';

let dir: string;
let llm: ScriptedLlm;
const savedEnv = { ...process.env };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-ask-cli-'));
  writeFixtureFiles(join(dir, 'shop'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  llm = await startScriptedLlm({ usage: { inputTokens: 100, outputTokens: 50 } });
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  process.env.REPONAV_LLM_BASE_URL = llm.server.openaiBaseUrl;
  // Judges do not follow REPONAV_LLM_BASE_URL: they have their own variable.
  process.env.REPONAV_JUDGE_BASE_URL = llm.server.openaiBaseUrl;
  delete process.env.REPONAV_LLM_MODEL;
});
afterEach(async () => {
  restoreEnv(savedEnv);
  vi.restoreAllMocks();
  await llm.close();
});

/** Runs a command that prints and then fails: its stdout and the error it ended with. */
async function runFailing(args: string[]): Promise<{ out: string; error: unknown }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const program = new Command('reponav').exitOverride();
  registerAskCommand(program);
  const error = await program.parseAsync(['node', 'reponav', ...args]).then(() => null, (e: unknown) => e);
  vi.restoreAllMocks();
  return { out, error };
}

async function run(args: string[]): Promise<string> {
  const program = new Command('reponav').exitOverride();
  registerAskCommand(program);
  registerSweqaCommand(program.command('eval'), { signal: new AbortController().signal });
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await program.parseAsync(['node', 'reponav', ...args]);
  vi.restoreAllMocks();
  return out;
}

describe('reponav ask', () => {
  it('answers with citations and cost, and writes the trace', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'with_tax' }], ['FindClass', { name: 'Cart' }]));
    llm.push('evaluation', evalReply(80), evalReply(40));
    llm.push('answer', '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`.');
    const trace = join(dir, 'traces', 'ask.json');
    const out = await run([
      'ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'),
      '--model', 'openai-compatible:gpt-4o-mini', '--iterations', '1', '--max-children', '2', '--uct-c', '2', '--rubric', 'reponav', '--trace', trace,
    ]);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`.');
    expect(lines).toContain('Checked citations: shop/pricing.py:13-15');
    expect(lines.find((l) => l.startsWith('— mcts'))).toMatch(/^— mcts, stopped: iterations after 1 iteration; 5 calls, 750 tokens \(500 in, 250 out\), \$0\.0002; \d+\.\d s$/);
    const written = JSON.parse(readFileSync(trace, 'utf8')) as AskTrace;
    expect(written.settings).toMatchObject({ iterations: 1, maxChildren: 2, uctC: 2, rubric: 'reponav' });
    expect(llm.of('evaluation')[0]!.prompt).toContain('Relevance (0-40)');
    expect(written.nodes.map((n) => n.action?.type ?? 'root')).toEqual(['root', 'FindFunction', 'FindClass']);
    expect(written.repository).toEqual({ name: 'shop', commit: null });
  });

  it('prints JSON and runs the baselines', async () => {
    const out = await run(['ask', 'What is TAX_RATE?', '--method', 'rag', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:fake', '--json']);
    const json = JSON.parse(out);
    expect(json).toMatchObject({ method: 'rag', stopReason: 'single-shot', cost: { calls: 1, costUsd: null } });
    expect(json.citations[0].valid).toBe(true);
    const direct = JSON.parse(await run(['ask', 'What is flask?', '--method', 'direct', '--model', 'openai-compatible:fake', '--json']));
    expect(direct.answer).toBe('Direct answer from memory.');
  });

  it('stops at its --deadline against a server that never answers, and exits non-zero like localize', async () => {
    // Longer than the test's own time limit: a run that waited for this reply fails by that limit, not by a clock here.
    llm.push('planning', { content: 'too late', delayMs: 600_000 });
    const { out, error } = await runFailing(['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:gpt-4o-mini', '--deadline', '0.5', '--json']);
    const json = JSON.parse(out);
    expect(json.stopReason).toBe('aborted');
    expect(error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/^No answer \(stopped: aborted\)/) });
  });

  it('an outage is an error, never an answer: every call failing exits with LLM_ERROR (exit code 1) and one sentence, nothing on stdout', async () => {
    for (const role of ['perception', 'planning', 'evaluation', 'answer'] as const) llm.setDefault(role, { status: 500 });
    const trace = join(dir, 'traces', 'outage.json');
    const args = ['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:fake', '--llm-retries', '0', '--trace', trace];
    const failure = await run(args).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'LLM_ERROR' });
    expect((failure as Error).message).toMatch(/^No answer \(stopped: llm-error\): the model call failed \([^\n]*500[^\n]*\)\. The trace is in /);
    expect(JSON.parse(readFileSync(trace, 'utf8'))).toMatchObject({ stopReason: 'llm-error', answer: { fallback: true } });
    // Mid-run: the search got evidence, then the answer call failed.
    llm.setDefault('perception', JSON.stringify({ summary: '', redundancy: [], gaps: [], promising: [] }));
    llm.setDefault('evaluation', evalReply(70));
    llm.push('planning', planReply(['FindFunction', { name: 'with_tax' }]));
    const midRun = await run([...args.slice(0, -2), '--iterations', '1', '--json']).then(
      () => null,
      (error: unknown) => error,
    );
    expect(midRun).toMatchObject({ code: 'LLM_ERROR' });
    expect(llm.of('answer').length).toBeGreaterThan(0);
  });

  it('--max-usd refuses the call that would cross the cap, says so in the stop reason, and exits non-zero', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'with_tax' }]));
    llm.push('evaluation', evalReply(80));
    llm.push('answer', '`with_tax` (shop/pricing.py:13-15) adds tax.');
    const { out, error } = await runFailing(['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:gpt-4o-mini', '--max-usd', '0.00000001', '--json']);
    const json = JSON.parse(out);
    expect(json.stopReason).toBe('budget-cost');
    expect(error).toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(json.cost.calls).toBe(0);
  });

  it('a final answer cut twice prints a marked fallback and exits non-zero; its stop reason shows in text, with -q, and in --json', async () => {
    const cut = { content: '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the disc', finishReason: 'length' };
    const args = ['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:fake', '--iterations', '1'];
    const script = () => {
      llm.push('planning', planReply(['FindFunction', { name: 'with_tax' }]));
      llm.push('evaluation', evalReply(80));
      llm.push('answer', cut, cut);
    };
    script();
    const first = await runFailing(args);
    expect(first.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/^No answer \(stopped: answer-truncated\)/) });
    const text = first.out;
    expect(text).toMatch(/^No answer could be written \(the answer was cut off at the length limit twice\)\.\nThis is a fallback, not an answer: the model's reply could not be used\.\nThe most relevant code found:\n- `shop\/pricing\.py:13-15` — with_tax\n/);
    expect(text).not.toContain('after the disc');
    expect(text).toMatch(/\n— mcts, stopped: answer-truncated after 1 iteration; /);
    script();
    const quiet = (await runFailing([...args, '-q'])).out;
    expect(quiet).toMatch(/^No answer could be written/);
    expect(quiet).toMatch(/\n— mcts, stopped: answer-truncated after 1 iteration; /);
    script();
    const json = JSON.parse((await runFailing([...args, '--json'])).out);
    expect(json).toMatchObject({ stopReason: 'answer-truncated', searchStopReason: 'iterations', fallback: true });
    expect(json.answer).toMatch(/^No answer could be written/);
    expect(json.answer).not.toContain('after the disc');
    expect(json.citations.map((c: any) => c.text)).toEqual(['shop/pricing.py:13-15']);
  });

  it('an empty final answer, twice: the model call failed (cause empty-reply), stop reason llm-error, nothing on stdout', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'with_tax' }]));
    llm.push('evaluation', evalReply(80));
    llm.push('answer', '', '');
    const out = run(['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:fake', '--iterations', '1', '--json', '-q']);
    await expect(out).rejects.toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/^No answer \(stopped: llm-error\): .*2 empty replies in a row/) });
  });

  it('--embedder makes SemanticSearch dense, as in the paper: the tool fuses lexical and dense hits from the embeddings server', async () => {
    llm.push('planning', planReply(['SemanticSearch', { query: 'tax added to the amount' }]));
    llm.push('evaluation', evalReply(80));
    const trace = join(dir, 'traces', 'ask-dense.json');
    const args = ['ask', 'Where is tax added?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index-dense.db'), '--model', 'openai-compatible:fake', '--iterations', '1', '--trace', trace, '-q'];
    await run([...args, '--embedder', 'openai-compatible', '--embed-base-url', llm.server.openaiBaseUrl, '--embed-model', 'fake-embedding']);
    const dense = JSON.parse(readFileSync(trace, 'utf8')) as AskTrace;
    expect(dense.nodes[1]!.toolText).toMatch(/^Top \d+ code units? \(fused lexical \+ dense retrieval\)/);
    expect(llm.server.requests.some((r) => r.route === 'embeddings')).toBe(true);
    // Without the flag: BM25 only (the default).
    llm.push('planning', planReply(['SemanticSearch', { query: 'tax added to the amount' }]));
    llm.push('evaluation', evalReply(80));
    await run(args);
    const lexical = JSON.parse(readFileSync(trace, 'utf8')) as AskTrace;
    expect(lexical.nodes[1]!.toolText).toMatch(/^Top \d+ code units? \(lexical BM25 retrieval\)/);
  });

  it('rejects bad flag values as usage errors', async () => {
    await expect(run(['ask', 'q', '--iterations', '0'])).rejects.toThrow(/option '--iterations <n>' argument '0' is invalid\. Expected a whole number, at least 1\./);
    await expect(run(['ask', 'q', '--method', 'magic'])).rejects.toThrow(/Allowed choices are mcts, react, rag, direct/);
  });

  it('records a transcript and replays it offline', async () => {
    const transcript = join(dir, 'ask-transcript.jsonl');
    const args = ['ask', 'What is TAX_RATE?', '--method', 'rag', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--json', '--transcript', transcript];
    const live = JSON.parse(await run([...args, '--model', 'openai-compatible:fake']));
    await llm.close();
    const replayed = JSON.parse(await run([...args, '--model', 'replay:ask']));
    expect(replayed.answer).toBe(live.answer);
  });
});

describe('reponav eval sweqa', () => {
  it('runs the benchmark and prints the Markdown summary', async () => {
    const repos = join(dir, 'repos');
    mkdirSync(repos, { recursive: true });
    const sha = createFixtureGitRepo(repos, 'acme/shop');
    const questions = join(dir, 'q.jsonl');
    writeFileSync(questions, `${JSON.stringify({ id: 'q1', repo: 'acme/shop', commit_short: sha.slice(0, 7), qtype_first_word: 'where', question: 'Where is tax added?', answer: 'with_tax' })}\n`);
    const out = await run([
      'eval', 'sweqa', '--questions', questions, '--repos', repos, '--model', 'openai-compatible:gpt-4o-mini',
      '--judges', 'openai-compatible:judge-a,openai-compatible:judge-b', '--method', 'rag', '--out', join(dir, 'sweqa-out'),
      '--index-dir', join(dir, 'sweqa-index'), '--max-usd', '1',
    ]);
    expect(out).toContain('# SWE-QA — rag with openai-compatible:gpt-4o-mini');
    expect(out).toContain('| where | 1 | 10.00 | 10.00 | 10.00 | 10.00 | 10.00 | 50.00 |');
    const summary = JSON.parse(readFileSync(join(dir, 'sweqa-out', 'summary.json'), 'utf8'));
    expect(summary.config.judges).toEqual(['openai-compatible:judge-a', 'openai-compatible:judge-b']);
    const host = new URL(llm.server.openaiBaseUrl).host;
    expect(summary.config.models).toEqual({
      answer: { provider: 'openai-compatible', baseUrlHost: host },
      judges: [
        { provider: 'openai-compatible', baseUrlHost: host },
        { provider: 'openai-compatible', baseUrlHost: host },
      ],
    });
    expect(summary.config.settings).toMatchObject({ iterations: 15, rubric: 'deeprepoqa', deadlineSeconds: 600 });
  });

  it('--deadline ends a hung answer as an error (never judged), --llm-retries/--llm-timeout reach the client, and a resume with other flags is refused', async () => {
    const repos = join(dir, 'repos-deadline');
    mkdirSync(repos, { recursive: true });
    const sha = createFixtureGitRepo(repos, 'acme/shop');
    const questions = join(dir, 'q-deadline.jsonl');
    writeFileSync(questions, `${JSON.stringify({ id: 'q1', repo: 'acme/shop', commit_short: sha.slice(0, 7), qtype_first_word: 'where', question: 'Where is tax added?', answer: 'with_tax' })}\n`);
    const outDir = join(dir, 'sweqa-deadline');
    const args = [
      'eval', 'sweqa', '--questions', questions, '--repos', repos, '--model', 'openai-compatible:fake', '--judges', 'openai-compatible:judge-a',
      '--method', 'rag', '--out', outDir, '--index-dir', join(dir, 'sweqa-index'), '--format', 'json',
    ];
    llm.setDefault('answer', { content: 'late', delayMs: 5000 });
    const summary = JSON.parse(await run([...args, '--deadline', '0.3', '--llm-retries', '0']));
    expect(summary.counts).toMatchObject({ errors: 1, ok: 0 });
    expect(summary.errors[0].reason).toBe('llm-error: the deadline of 0.3 s passed');
    expect(llm.of('judge')).toHaveLength(0);
    await expect(run([...args, '--deadline', '5'])).rejects.toThrow(/settings\.deadlineSeconds: 0\.3 → 5/);
    // A model-call timeout past every retry is an outage: the question is an error.
    // (A fresh --out with a roomy deadline: the deadline must not be what ends the call on a loaded machine.)
    const fresh = args.map((a) => (a === outDir ? `${outDir}-timeout` : a));
    const timedOut = JSON.parse(await run([...fresh, '--deadline', '30', '--llm-timeout', '0.1', '--llm-retries', '0']));
    expect(timedOut.errors[0].reason).toMatch(/^llm-error: the model call failed/);
  });
});
