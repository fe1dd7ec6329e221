/**
 * Malformed role replies: one corrective retry (the model sees its reply and
 * the problem), then the failure is handled — never a crash.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askQuestion } from '../../src/agents/ask/index.js';
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

const ask = (iterations = 1) =>
  askQuestion({ question: 'Where is the discount applied?', model: llm.model(), repositories: repo.repositories, settings: { iterations, plateau: { window: 0 } } });

describe('malformed role replies', () => {
  it('retries a malformed planning reply once with a corrective message, then proceeds', async () => {
    llm.push('planning', 'I would look at the pricing module first.', '```json\n' + planReply(['FindFunction', { name: 'apply_discount' }]) + '\n```');
    llm.push('evaluation', evalReply(70));
    const r = await ask();
    const plans = llm.of('planning');
    expect(plans).toHaveLength(2);
    const retry = plans[1]!.body.messages;
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'I would look at the pricing module first.' });
    expect(retry.at(-1).content).toMatch(/^Your previous reply could not be used\. Reply contains no JSON object\./);
    expect(r.trace.nodes[1]!.action!.type).toBe('FindFunction');
    const records = r.trace.roleCalls.filter((c) => c.role === 'planning');
    expect(records.map((c) => [c.attempt, c.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(records[0]!.error).toBe('Reply contains no JSON object');
  });

  it('gives a child value 0 when its evaluation fails twice, and keeps going', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'apply_discount' }], ['FindClass', { name: 'Cart' }]));
    llm.push('evaluation', '{"score": "excellent"}', '{"rationale": "no score"}', evalReply(40));
    const r = await ask();
    const [a, b] = [r.trace.nodes[1]!, r.trace.nodes[2]!];
    expect(a).toMatchObject({ score: null, evaluation: null, visits: 1, valueSum: 0 });
    expect(b).toMatchObject({ score: 40, visits: 1, valueSum: 40 });
    expect(r.trace.nodes[0]).toMatchObject({ visits: 2, valueSum: 40 });
    expect(llm.of('evaluation')).toHaveLength(3);
  });

  it('clamps out-of-range scores and reads numbers written as strings', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'apply_discount' }], ['FindClass', { name: 'Cart' }]));
    llm.push('evaluation', '{"score": 130, "rationale": "great", "followUp": "none"}', '{"score": "35/100"}');
    const r = await ask();
    expect(r.trace.nodes[1]).toMatchObject({ score: 100, evaluation: { rationale: 'great', followUp: 'none' } });
    expect(r.trace.nodes[2]!.score).toBe(35);
  });

  it('proceeds with an empty analysis when perception fails twice', async () => {
    llm.push('perception', 'no idea', 'still no idea');
    llm.push('planning', planReply(['FindFunction', { name: 'apply_discount' }]));
    const r = await ask();
    expect(r.trace.nodes[0]!.perception).toEqual({ summary: '', redundancy: [], gaps: [], promising: [] });
    expect(llm.of('planning')[0]!.prompt).toContain('Summary: (none)');
    expect(r.trace.nodes[0]!.childIds).toHaveLength(1);
  });

  it('closes the root when planning fails twice; no tool ran, so the run is an llm-error, not "nothing found"', async () => {
    llm.push('planning', 'nope', '{"actions": "FindClass"}');
    const r = await ask(5);
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.searchStopReason).toBe('exhausted');
    expect(r.trace.nodes[0]!.exhausted).toBe(true);
    expect(r.trace.nodes[0]!.rejected[0]!.reason).toMatch(/does not match the expected shape/);
    expect(r.trace.llmError).toMatch(/^no reply of the model led to a tool call \(3 calls; last problem: .*does not match the expected shape/);
    expect(r.trace.answer.fallback).toBe(true);
    expect(r.citations).toEqual([]);
    expect(llm.of('answer')).toHaveLength(0);
  });

  it('a role call that fails (after the client retries) ends the run with llm-error: nothing is asked after it', async () => {
    llm.push('planning', planReply(['FindFunction', { name: 'apply_discount' }]));
    llm.push('evaluation', { status: 500 });
    const r = await ask();
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.searchStopReason).toBeUndefined();
    expect(r.trace.nodes[1]).toMatchObject({ score: null, valueSum: 0 });
    const failed = r.trace.roleCalls.find((c) => c.role === 'evaluation')!;
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/500/);
    expect(r.trace.llmError).toMatch(/^the model call failed \(.*500/);
    expect(r.answer).toMatch(/^No answer was written: the model call failed/);
    expect(r.trace.answer.fallback).toBe(true);
    expect(llm.of('answer')).toHaveLength(0);
    expect(r.trace.roleCalls.at(-1)!.role).toBe('evaluation');
  });
});
