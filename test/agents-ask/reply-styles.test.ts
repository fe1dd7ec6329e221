/**
 * The reply styles real models produce (issue #19's table, `ask` column),
 * each scripted on the fake OpenAI-compatible server — once, and
 * persistently — and run through `askQuestion` with the real OpenAI client,
 * the real tools, index, citation check and answer writer. Every row asserts
 * the recovered answer or the clear failure; each run's transcript (every
 * reply as sent, what the reader made of it, what was sent back) is kept as a
 * fixture under fixtures/reply-styles/, so a future real-model run can be
 * diffed against it.
 */
import { describe, expect, it } from 'vitest';
import { askQuestion, type AskResult, type AskSettingsInput } from '../../src/agents/ask/index.js';
import { useAskFixture } from './helpers/ask-fixture.js';
import { planReply, type ScriptRole } from './helpers/scripted-llm.js';

const QUESTION = 'Where is tax added to the cart total?';
const ANSWER = '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the discount.';
const PERCEPTION = { summary: 'Nothing found yet.', redundancy: [], gaps: ['where tax is added'], promising: ['with_tax', 'TAX_RATE'] };
const PLAN = { actions: [{ action: 'FindFunction', args: { name: 'with_tax' }, rationale: 'tax is likely added there' }] };
const EVALUATION = { score: 80, rationale: 'the function that adds tax', follow_up: 'answer' };

const ctx = useAskFixture();

const ask = (settings: AskSettingsInput = {}) => askQuestion({ question: QUESTION, model: ctx.llm.model(), repositories: ctx.repo.repositories, settings: { iterations: 1, ...settings } });

/** Every role's reply in the given style, for the whole run (the persistent version of a row). */
function everyReply(style: (json: unknown) => string, answer: string = ANSWER): void {
  const roles: Array<[ScriptRole, unknown]> = [['perception', PERCEPTION], ['planning', PLAN], ['evaluation', EVALUATION]];
  for (const [role, json] of roles) ctx.llm.setDefault(role, style(json));
  ctx.llm.setDefault('answer', answer);
  ctx.llm.setDefault('revision', answer);
}

/** The diffable transcript of a run: each reply as sent, what the reader made of it, what was sent back, the outcome. */
function transcript(r: AskResult): unknown {
  // Every record is a call the server saw (no call in these rows is refused before it is sent).
  expect(r.trace.roleCalls).toHaveLength(ctx.llm.calls.length);
  return {
    stopReason: r.stopReason,
    searchStopReason: r.trace.searchStopReason ?? null,
    fallback: r.trace.answer.fallback,
    answer: r.answer,
    citations: r.citations.map((c) => c.text),
    dropped: r.trace.answer.dropped.map((c) => `${c.text}: ${c.reason}`),
    nodes: r.trace.nodes.slice(1).map((n) => `${n.action!.key} → ${n.score ?? 'no score'}`),
    rejected: r.trace.nodes.flatMap((n) => n.rejected.map((x) => `${x.type} ${JSON.stringify(x.args)}: ${x.reason}`)),
    calls: ctx.llm.calls.map((c, i) => {
      const record = r.trace.roleCalls[i]!;
      const messages = c.body.messages as Array<{ role: string; content: string }>;
      return {
        role: c.role,
        attempt: record.attempt,
        reply: c.reply?.content ?? null,
        finishReason: c.reply?.finishReason ?? 'stop',
        ok: record.ok,
        ...(record.error ? { error: record.error } : {}),
        ...(record.note ? { note: record.note } : {}),
        // A retry or corrective round: what the model was told about its previous reply.
        ...(messages.length > 2 ? { sentBack: messages.at(-1)!.content } : {}),
      };
    }),
  };
}

async function keep(name: string, r: AskResult): Promise<void> {
  await expect(`${JSON.stringify(transcript(r), null, 2)}\n`).toMatchFileSnapshot(`./fixtures/reply-styles/${name}.json`);
}

const fenced = (json: unknown, lang = 'json') => `\`\`\`${lang}\n${typeof json === 'string' ? json : JSON.stringify(json, null, 2)}\n\`\`\``;
const prose = (json: unknown) => `Let me think about this step.\n${JSON.stringify(json)}\nI hope this is what you need.`;

/** The answer is the scripted one, whole, and its citation passed the check. */
function expectAnswered(r: AskResult, stopReason = 'iterations'): void {
  expect(r.stopReason).toBe(stopReason);
  expect(r.trace.answer.fallback).toBe(false);
  expect(r.answer).toBe(ANSWER);
  expect(r.citations.map((c) => c.text)).toEqual(['shop/pricing.py:13-15']);
}

describe('ask: reply styles of real models', () => {
  it('JSON in a markdown fence (every role, every reply), and the answer in a ```markdown fence: the fence is not shipped', async () => {
    everyReply((json) => fenced(json), fenced(ANSWER, 'markdown'));
    const r = await ask();
    expectAnswered(r);
    expect(r.answer).not.toContain('```');
    expect(r.trace.roleCalls.every((c) => c.ok && c.attempt === 1)).toBe(true);
    await keep('ask-fenced-persistent', r);
  });

  it('bare JSON without a fence', async () => {
    everyReply((json) => JSON.stringify(json));
    const r = await ask();
    expectAnswered(r);
    expect(r.trace.roleCalls.every((c) => c.ok && c.attempt === 1)).toBe(true);
  });

  it('prose before and after every reply: the JSON is read, the answer ships without preamble or closing offer', async () => {
    everyReply(prose, `Sure! Here is the answer:\n${ANSWER}\nLet me know if you need more details.`);
    const r = await ask();
    expectAnswered(r);
    expect(r.trace.roleCalls.every((c) => c.ok && c.attempt === 1)).toBe(true);
    await keep('ask-prose-around-persistent', r);
  });

  it('two actions (two JSON objects) in one reply: the first valid one is used and the record says so; persistently, still answered', async () => {
    const two = (json: unknown) => `${JSON.stringify(json)}\n${JSON.stringify(json === PLAN ? { actions: [{ action: 'FindClass', args: { name: 'Cart' } }] } : json)}`;
    everyReply(two);
    const r = await ask();
    expectAnswered(r);
    expect(r.trace.nodes.slice(1).map((n) => n.action!.key)).toEqual(['FindFunction(name=with_tax)']);
    const json = r.trace.roleCalls.filter((c) => c.role !== 'answer');
    expect(json.map((c) => c.note)).toEqual(Array(json.length).fill('the reply held 2 JSON objects; the first valid one was used'));
    await keep('ask-two-objects-persistent', r);
  });

  it('native tool calls, parallel (OpenAI tool_calls with the text beside them): the planner reads each call as an action', async () => {
    const calls = [
      { id: 'call_1', type: 'function', function: { name: 'FindFunction', arguments: JSON.stringify({ name: 'with_tax' }) } },
      { id: 'call_2', type: 'function', function: { name: 'FindClass', arguments: JSON.stringify({ name: 'Cart' }) } },
    ];
    ctx.llm.push('planning', {
      body: {
        id: 'chatcmpl-tools',
        object: 'chat.completion',
        created: 0,
        model: 'fake',
        choices: [{ index: 0, message: { role: 'assistant', content: 'I will look up both.', tool_calls: calls }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      },
    });
    everyReply((json) => JSON.stringify(json));
    const r = await ask({ maxChildren: 2 });
    expectAnswered(r);
    expect(r.trace.nodes.slice(1).map((n) => n.action!.key).sort()).toEqual(['FindClass(name=cart)', 'FindFunction(name=with_tax)']);
  });

  it('keys and names in other casing ("Actions", "Action", "Args", "Name", "FOLLOW_UP", "findfunction"), persistently', async () => {
    ctx.llm.setDefault('perception', JSON.stringify({ Summary: 'Nothing yet.', Gaps: ['where tax is added'], Promising: ['with_tax'] }));
    ctx.llm.setDefault('planning', JSON.stringify({ Actions: [{ Action: 'findfunction', Args: { Name: 'with_tax' }, Rationale: 'tax' }] }));
    ctx.llm.setDefault('evaluation', JSON.stringify({ Score: '80/100', Rationale: 'adds tax', FOLLOW_UP: 'answer' }));
    ctx.llm.setDefault('answer', ANSWER);
    const r = await ask();
    expectAnswered(r);
    expect(r.trace.nodes[0]!.perception!.gaps).toEqual(['where tax is added']);
    expect(r.trace.nodes[1]).toMatchObject({ action: { type: 'FindFunction', args: { name: 'with_tax' } }, score: 80, evaluation: { followUp: 'answer' } });
    expect(r.trace.roleCalls.every((c) => c.ok && c.attempt === 1)).toBe(true);
    await keep('ask-casing-persistent', r);
  });

  it('a JSON reply cut at the length limit is asked again, shorter, and the second reply is used', async () => {
    everyReply((json) => JSON.stringify(json));
    ctx.llm.push('planning', { content: '{"actions": [{"action": "FindFunction", "args": {"name": "with_', finishReason: 'length' });
    const r = await ask();
    expectAnswered(r);
    const [cut, again] = ctx.llm.of('planning');
    expect(cut!.body.messages).toHaveLength(2);
    expect(again!.body.messages.at(-1).content).toMatch(/cut off at the length limit.*Reply again, shorter/);
    expect(r.trace.roleCalls.filter((c) => c.role === 'planning').map((c) => [c.attempt, c.ok])).toEqual([[1, false], [2, true]]);
    await keep('ask-truncated-json-once', r);
  });

  it('a final answer cut at the length limit is never shipped: asked again shorter, the whole second answer ships', async () => {
    everyReply((json) => JSON.stringify(json));
    ctx.llm.push('answer', { content: '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the disc', finishReason: 'length' });
    const r = await ask();
    expectAnswered(r);
    expect(ctx.llm.of('answer')[1]!.body.messages.at(-1).content).toMatch(/cut off at the length limit.*Keep every citation/);
    await keep('ask-truncated-answer-once', r);
  });

  it('a final answer cut twice: a fallback marked as such, stop reason answer-truncated, the cut text nowhere', async () => {
    everyReply((json) => JSON.stringify(json));
    const cut = { content: '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the disc', finishReason: 'length' };
    ctx.llm.setDefault('answer', cut);
    const r = await ask();
    expect(r.stopReason).toBe('answer-truncated');
    expect(r.trace.searchStopReason).toBe('iterations');
    expect(r.trace.answer.fallback).toBe(true);
    expect(r.answer).toMatch(/^No answer could be written \(the answer was cut off at the length limit twice\)\.\nThis is a fallback, not an answer/);
    expect(r.answer).toContain('- `shop/pricing.py:13-15` — with_tax');
    expect(r.answer).not.toContain('after the disc');
    expect(ctx.llm.of('answer')).toHaveLength(2);
    await keep('ask-truncated-answer-persistent', r);
  });

  it('every JSON reply cut at the length limit: each role fails after one shorter retry, nothing is invented, the run is an llm-error', async () => {
    const cut = { content: '{"actions": [{"action": "FindFunction", "args": {"name": "with_', finishReason: 'length' };
    for (const role of ['perception', 'planning', 'evaluation'] as const) ctx.llm.setDefault(role, cut);
    const r = await ask();
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.llmError).toMatch(/^no reply of the model led to a tool call \(4 calls; last problem: cut off at the length limit/);
    expect(r.answer).toMatch(/^No answer was written: no reply of the model led to a tool call/);
    expect(r.citations).toEqual([]);
    expect(ctx.llm.of('answer')).toHaveLength(0);
    expect(r.trace.roleCalls.every((c) => !c.ok && /cut off at the length limit/.test(c.error!))).toBe(true);
    await keep('ask-truncated-json-persistent', r);
  });

  it('a wrong argument name: the planner is told which argument and which it takes, and the corrected proposal runs', async () => {
    everyReply((json) => JSON.stringify(json));
    ctx.llm.push('planning', planReply(['FindFunction', { function_name: 'with_tax' }]));
    const r = await ask();
    expectAnswered(r);
    const [wrong, corrective] = ctx.llm.of('planning');
    expect(wrong!.body.messages).toHaveLength(2);
    expect(corrective!.body.messages.at(-1).content).toContain("- FindFunction {\"function_name\":\"with_tax\"}: unknown argument 'function_name' (FindFunction takes name, file_pattern)");
    expect(r.trace.nodes[1]!.action!.args).toEqual({ name: 'with_tax' });
    await keep('ask-wrong-argument-once', r);
  });

  it('a wrong argument name, persistently: no tool ran, so llm-error (not "nothing found"), and nothing is cited', async () => {
    everyReply((json) => JSON.stringify(json));
    ctx.llm.setDefault('planning', planReply(['FindFunction', { function_name: 'with_tax' }]));
    const r = await ask({ iterations: 3 });
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.searchStopReason).toBe('exhausted');
    expect(r.trace.llmError).toMatch(/^no reply of the model led to a tool call \(3 calls; last problem: unknown argument 'function_name'/);
    expect(r.citations).toEqual([]);
    // One call and one corrective round, then the root is closed: not 3 iterations of the same mistake.
    expect(ctx.llm.of('planning')).toHaveLength(2);
    expect(ctx.llm.of('answer')).toHaveLength(0);
    await keep('ask-wrong-argument-persistent', r);
  });

  it('an empty reply: the client asks again with the same request and the second reply is used', async () => {
    everyReply((json) => JSON.stringify(json));
    ctx.llm.push('planning', '');
    ctx.llm.push('answer', '');
    const r = await ask();
    expectAnswered(r);
    // One role call each: the empty reply never reached the role reader.
    expect(r.trace.roleCalls.filter((c) => c.role === 'planning').map((c) => [c.attempt, c.ok])).toEqual([[1, true]]);
    expect(ctx.llm.of('planning')).toHaveLength(2);
    expect(ctx.llm.of('answer')[1]!.body.messages).toEqual(ctx.llm.of('answer')[0]!.body.messages);
  });

  it('an empty answer, persistently: a failed model call (cause empty-reply), stop reason llm-error, no fallback shipped', async () => {
    everyReply((json) => JSON.stringify(json), '');
    const r = await ask();
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.llmError).toMatch(/empty-reply; 2 empty replies in a row/);
    expect(ctx.llm.of('answer')).toHaveLength(2);
  });

  it('every reply empty: an outage, stop reason llm-error, no answer written from nothing', async () => {
    for (const role of ['perception', 'planning', 'evaluation', 'answer'] as const) ctx.llm.setDefault(role, '');
    const r = await ask({ iterations: 3 });
    expect(r.stopReason).toBe('llm-error');
    expect(r.trace.llmError).toMatch(/^the model call failed \(LLM call to .* failed \(empty-reply; 2 empty replies in a row\)/);
    expect(r.citations).toEqual([]);
    expect(ctx.llm.of('answer')).toHaveLength(0);
    // The first call's two empty replies end the run: nothing more is asked of the model.
    expect(ctx.llm.calls).toHaveLength(2);
  });
});
