/**
 * A recorded transcript replays the whole search offline (no server), and the
 * three baselines answer through the same checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askQuestion, writeAskTrace, type AskTrace } from '../../src/agents/ask/index.js';
import { createChatModel } from '../../src/llm/model-config.js';
import { openFixtureRepo, type FixtureRepo } from './helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';

let repo: FixtureRepo;
let llm: ScriptedLlm;
beforeAll(async () => {
  repo = await openFixtureRepo();
});
afterAll(async () => repo.close());
beforeEach(async () => {
  llm = await startScriptedLlm();
});
afterEach(async () => llm.close());

/** The parts of a trace that must match between a live run and its replay. */
const shape = (t: AskTrace) => ({
  nodes: t.nodes.map((n) => ({ id: n.id, parentId: n.parentId, key: n.action?.key ?? null, score: n.score, visits: n.visits, valueSum: n.valueSum, evidence: n.evidence })),
  answer: t.answer,
  stopReason: t.stopReason,
  tokens: t.cost.totalTokens,
});

describe('record and replay', () => {
  it('replays a recorded MCTS run offline with the same tree and answer', async () => {
    const transcript = join(repo.dir, 'transcripts', 'ask.jsonl');
    llm.push('planning', planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'with_tax' }]), planReply(['FindFunction', { name: 'apply_discount' }], ['Finish', {}]));
    llm.push('evaluation', evalReply(40), evalReply(75), evalReply(60), evalReply(90));
    llm.push('answer', '`with_tax` (shop/pricing.py:13-15) adds tax; `apply_discount` (shop/pricing.py:6-10) takes 10% off.');
    const options = { question: 'How are tax and discount applied?', repositories: repo.repositories, settings: { iterations: 5, maxChildren: 2, plateau: { window: 0 } } };
    const live = await askQuestion({ ...options, model: llm.model('fake-model', transcript) });
    expect(live.stopReason).toBe('finish');
    const liveRequests = llm.calls.length;
    await llm.server.close();

    const replay = await askQuestion({ ...options, model: createChatModel({ model: 'replay:ask', transcriptPath: transcript }) });
    expect(llm.calls.length).toBe(liveRequests); // the server saw nothing new
    expect(shape(replay.trace)).toEqual(shape(live.trace));
    expect(replay.answer).toBe(live.answer);

    const file = join(repo.dir, 'traces', 'ask.json');
    await writeAskTrace(file, replay.trace);
    expect(existsSync(file)).toBe(true);
    const written = JSON.parse(readFileSync(file, 'utf8')) as AskTrace;
    expect(written.version).toBe(1);
    expect(written.nodes).toHaveLength(replay.trace.nodes.length);
    expect(JSON.stringify(written)).not.toContain(repo.dir); // portable: no absolute paths
  });
});

describe('baselines', () => {
  it('direct: the model alone, no repository and no citations', async () => {
    const r = await askQuestion({ question: 'What does flask.json do?', method: 'direct', model: llm.model(), repositoryLabel: 'pallets/flask' });
    expect(r.answer).toBe('Direct answer from memory.');
    expect(r.trace.repository).toBeNull();
    expect(llm.of('direct')[0]!.prompt).toContain('Repository: pallets/flask\nQuestion: What does flask.json do?');
    expect(r.cost.calls).toBe(1);
    expect(r.stopReason).toBe('single-shot');
  });

  it('rag: plain BM25 over function chunks, then one checked answer', async () => {
    const r = await askQuestion({ question: 'apply_discount SAVE10 code', method: 'rag', model: llm.model(), repositories: repo.repositories });
    expect(r.trace.answerEvidence[0]).toMatchObject({ path: 'shop/pricing.py', symbol: 'apply_discount', tool: 'rag' });
    expect(r.trace.answerEvidence.every((e) => e.symbol !== null)).toBe(true); // function chunks only
    expect(r.citations[0]).toMatchObject({ path: 'shop/pricing.py', startLine: 6, endLine: 10, valid: true });
    expect(llm.of('answer')).toHaveLength(1);
  });

  it('react: the same action a third time in a row is refused with a note and recorded', async () => {
    const find = JSON.stringify({ thought: 'find it', action: 'FindFunction', args: { name: 'parse_args' } });
    const finish = JSON.stringify({ thought: 'done', action: 'Finish', args: { answer: '`parse_args` (shop/cli.py:4-9) reads the flags.' } });
    llm.push('react', find, find, find, finish);
    const r = await askQuestion({ question: 'How are flags parsed?', method: 'react', model: llm.model(), repositories: repo.repositories });
    expect(r.stopReason).toBe('finish');
    expect(r.trace.steps.map((s) => [s.action?.type ?? null, s.repeated ?? null])).toEqual([['FindFunction', null], ['FindFunction', null], ['FindFunction', 3], [null, null]]);
    expect(r.trace.steps[2]!.observation).toMatch(/^Refused: this is the same action \(FindFunction\(name="parse_args"\)\) 3 times in a row, so it was not run again/);
    expect(r.trace.steps[2]!.evidence).toEqual([]);
    expect(llm.of('react')[3]!.body.messages.at(-1).content).toMatch(/^Observation from FindFunction\(name="parse_args"\):\nRefused: /);
  });

  it('react: tool steps, then the Finish answer is checked like any other', async () => {
    llm.push(
      'react',
      JSON.stringify({ thought: 'find it', action: 'FindFunction', args: { name: 'parse_args' } }),
      'not json at all',
      JSON.stringify({ thought: 'bad', action: 'Teleport', args: {} }),
      JSON.stringify({ thought: 'done', action: 'Finish', args: { answer: '`parse_args` (shop/cli.py:4-9) and `main` (shop/cart.py:1-2).' } }),
    );
    llm.push('revision', '`parse_args` (shop/cli.py:4-9) reads the flags for `main` (shop/cli.py:12-17).');
    const r = await askQuestion({ question: 'How are flags parsed?', method: 'react', model: llm.model(), repositories: repo.repositories });
    expect(r.stopReason).toBe('finish');
    expect(r.trace.steps.map((s) => s.action?.type ?? null)).toEqual(['FindFunction', null, null]);
    expect(r.trace.steps[0]!.evidence[0]).toMatchObject({ path: 'shop/cli.py', startLine: 4, endLine: 9 });
    expect(r.trace.steps[1]!.observation).toBe("Invalid action: unknown action 'Teleport'. Use one of the actions listed, with JSON args.");
    const reacts = llm.of('react');
    expect(reacts).toHaveLength(4); // the prose reply's corrective retry got the Teleport turn
    expect(reacts[2]!.body.messages.at(-1).content).toMatch(/^Your previous reply could not be used/);
    expect(reacts[1]!.body.messages.at(-1).content).toMatch(/^Observation from FindFunction\(name="parse_args"\):\n1 function matching 'parse_args'/);
    expect(r.trace.answer.draftProblems.map((p) => p.text)).toEqual(['shop/cart.py:1-2']);
    // main exists at shop/cli.py:12-17, but the agent never read it: unsupported, so dropped and its claim marked.
    expect(r.answer).toBe(
      '`parse_args` (shop/cli.py:4-9) reads the flags for `main` [unverified].\n\n[unverified]: the code cited for this claim did not check out, so the citation was removed.',
    );
    expect(r.trace.answer.dropped.map((d) => [d.text, d.reason])).toEqual([['shop/cli.py:12-17', 'not in the evidence the answer was written from']]);
  });

  it('refuses an empty question or a missing repository', async () => {
    await expect(askQuestion({ question: '  ', method: 'direct', model: llm.model() })).rejects.toThrow('The question is empty.');
    await expect(askQuestion({ question: 'q', method: 'rag', model: llm.model() })).rejects.toThrow('Method rag needs a repository.');
  });
});
