import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AGENT_INTERFACES,
  openAgentWorkspace,
  resolveAgentInterface,
  runLocalizationAgent,
  type AgentWorkspace,
  type LocalizationAgentOptions,
} from '../../src/agents/localize/index.js';
import { CommitViewCache } from '../../src/sandbox/index.js';
import { createReplayModel, withRecording, type ChatModel } from '../../src/llm/index.js';
import { startFakeOpenAIServer, type FakeServer } from '../helpers/fake-openai-server.js';
import { answerTurn, bashTurn, createFixtureRepo, fakeModel, requestMessages, toolTurn, type FixtureRepo } from './agent-fixture.js';

const ISSUE = 'Applying the discount code SAVE10 twice doubles the discount in Cart.apply_discount.';
const TOOL_HEADINGS = ['### bash', '### search', '### snippet_search', '### list_symbols', '### view_code'];

describe('localization agent loop (fake server, real client)', () => {
  let repo: FixtureRepo;
  let server: FakeServer;
  let views: CommitViewCache;
  const workspaces = new Map<string, AgentWorkspace>();

  const workspace = async (name: string): Promise<AgentWorkspace> => {
    let ws = workspaces.get(name);
    if (!ws) {
      ws = await openAgentWorkspace({ repoPath: repo.root, commit: repo.first, iface: resolveAgentInterface(name), indexPath: repo.indexPath(name.replace('+', '-')), viewCache: views });
      workspaces.set(name, ws);
    }
    return ws;
  };
  const run = async (name: string, extra: Partial<LocalizationAgentOptions> = {}, model: ChatModel = fakeModel(server.openaiBaseUrl)) => {
    const ws = await workspace(name);
    return runLocalizationAgent({ model, issue: ISSUE, iface: resolveAgentInterface(name), shell: ws.shell, tools: ws.tools, ...extra });
  };

  beforeAll(async () => {
    repo = createFixtureRepo();
    views = new CommitViewCache({ tempRoot: repo.dir });
  });
  afterAll(async () => {
    for (const ws of workspaces.values()) await ws.close();
    await views.close();
    repo.cleanup();
  });
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it.each([
    ['bash', ['bash'], 'snippet_search'],
    ['snippet', ['bash', 'snippet_search'], 'search'],
    ['snippet+listsym', ['bash', 'snippet_search', 'list_symbols'], 'search'],
    ['reponav', ['bash', 'search', 'list_symbols'], 'snippet_search'],
  ] as const)('the %s interface exposes exactly its tools', async (name, tools, foreign) => {
    server.enqueue(toolTurn(foreign, { query: 'discount' }), toolTurn('view_code', { file: 'shop/cart.py' }), answerTurn(['shop/cart.py'], []));
    const trajectory = await run(name);
    const system = requestMessages(server.requests, 0)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(`You have exactly these tools: ${tools.join(', ')}. No other tool exists.`);
    for (const heading of TOOL_HEADINGS) {
      const expected = tools.includes(heading.slice(4) as never);
      expect(system.content.includes(`${heading}\n`), `${name}: ${heading}`).toBe(expected);
    }
    // Hidden arguments never reach the model.
    expect(system.content).not.toContain('"budget_tokens"');
    expect(system.content).not.toContain('"repo"');
    // A tool outside the interface is an error observation, not a crash.
    for (const [i, tool] of [foreign, 'view_code'].entries()) {
      const observation = requestMessages(server.requests, i + 1).at(-1)!.content;
      expect(observation).toContain(`Error: there is no tool '${tool}' here. Your tools are: ${tools.join(', ')}.`);
    }
    expect(trajectory.stopReason).toBe('answered');
    expect(trajectory.stats.toolErrors).toBe(2);
  });

  it('the system prompt is the same template for every interface except the tools section', async () => {
    const prompts: string[] = [];
    for (const name of AGENT_INTERFACES) {
      server.enqueue(answerTurn(['shop/cart.py'], []));
      prompts.push((await run(name)).systemPrompt);
    }
    const strip = (prompt: string) => prompt.replace(/## Tools[\s\S]*?## Answer/, '');
    expect(new Set(prompts.map(strip)).size).toBe(1);
  });

  it('a scripted run (search → list_symbols → answer) yields the ranked answer', async () => {
    server.enqueue(
      toolTurn('search', { query: 'apply discount code twice', budget_tokens: 99999 }),
      toolTurn('list_symbols', { file: 'shop/cart.py' }),
      answerTurn(['shop/cart.py', './shop/pricing.py'], ['shop/cart.py:Cart.apply_discount', 'shop/cart.py::Cart.total', 'shop/pricing.py:compute_tax']),
    );
    const trajectory = await run('reponav');
    expect(trajectory.stopReason).toBe('answered');
    expect(trajectory.answerSource).toBe('answer');
    expect(trajectory.answer).toEqual({
      files: ['shop/cart.py', 'shop/pricing.py'],
      modules: ['shop/cart.py:Cart', 'shop/pricing.py:compute_tax'],
      functions: ['shop/cart.py:Cart.apply_discount', 'shop/cart.py:Cart.total', 'shop/pricing.py:compute_tax'],
    });
    expect(server.requests).toHaveLength(3);
    const [search, list, answer] = trajectory.steps;
    expect(search).toMatchObject({ step: 1, action: 'tool', tool: 'search', args: { query: 'apply discount code twice' }, isError: false });
    expect(search!.observation).toMatch(/^Observation from search:\n/);
    expect(search!.observation).toContain('shop/cart.py');
    expect(search!.observation).toContain('[Step 1 of 30 done; 29 left. Tokens used:');
    expect(list).toMatchObject({ action: 'tool', tool: 'list_symbols', inspected: ['shop/cart.py'] });
    expect(list!.observation).toContain('apply_discount');
    expect(answer).toMatchObject({ action: 'answer' });
    expect(answer!.observation).toBeUndefined();
    // What the model saw next is exactly the recorded observation.
    expect(requestMessages(server.requests, 1).at(-1)!.content).toBe(search!.observation);
    expect(requestMessages(server.requests, 2).at(-1)!.content).toBe(list!.observation);
    for (const step of trajectory.steps) {
      expect(step.usage.inputTokens).toBeGreaterThan(0);
      expect(step.modelMs).toBeGreaterThanOrEqual(0);
    }
    expect(trajectory.stats).toMatchObject({
      steps: 3,
      toolCalls: { search: 1, list_symbols: 1 },
      listSymbolsUsed: true,
      filesInspected: 1,
      inspectedFiles: ['shop/cart.py'],
      formatErrors: 0,
    });
    expect(trajectory.stats.totalTokens).toBe(trajectory.stats.inputTokens + trajectory.stats.outputTokens);
  });

  it('the shell action runs in the commit view and its output is the observation', async () => {
    server.enqueue(bashTurn('ls shop'), bashTurn('rm shop/cart.py'), answerTurn(['shop/cart.py'], []));
    const trajectory = await run('bash');
    expect(trajectory.steps[0]!.observation).toMatch(/^Observation from bash:\n__init__.py\ncart.py\ncli.py\npricing.py\n/);
    expect(trajectory.steps[0]!.observation).not.toContain('coupons.py'); // only in the later commit
    expect(trajectory.steps[1]).toMatchObject({ refused: true, isError: true });
    expect(trajectory.steps[1]!.observation).toContain("Refused: 'rm' is not an allowed program");
    expect(trajectory.stats.refusedCommands).toBe(1);
  });

  it('the same action a third time in a row is refused with a note, not run, and recorded', async () => {
    const search = toolTurn('search', { query: 'discount applied twice', file_pattern: '*.py' });
    // Arguments in another key order are the same action; a different action resets the count.
    server.enqueue(search, search, toolTurn('search', { file_pattern: '*.py', query: 'discount applied twice' }), search, bashTurn('ls shop'), search, answerTurn(['shop/cart.py'], []));
    const trajectory = await run('reponav');
    expect(trajectory.stopReason).toBe('answered');
    const steps = trajectory.steps.slice(0, 6);
    expect(steps.map((s) => [s.tool, s.repeated ?? null, s.refused ?? false])).toEqual([
      ['search', null, false],
      ['search', null, false],
      ['search', 3, true],
      ['search', 4, true],
      ['bash', null, false],
      ['search', null, false],
    ]);
    expect(steps[2]!.observation).toMatch(/^Refused: this is the same action \(search with the same arguments\) 3 times in a row, so it was not run again/);
    expect(steps[2]!.outputChars).toBeGreaterThan(0);
    expect(trajectory.stats).toMatchObject({ refusedRepeats: 2, refusedCommands: 0, toolCalls: { search: 3, bash: 1 } });
  });

  it('the step budget stops a run with what it has', async () => {
    server.enqueue(bashTurn('cat shop/pricing.py'), bashTurn('head -n 5 shop/cart.py'), bashTurn('ls'));
    const trajectory = await run('bash', { maxSteps: 2 });
    expect(trajectory.stopReason).toBe('step-budget');
    expect(server.requests).toHaveLength(2);
    expect(trajectory.steps[0]!.observation).toContain('[Step 1 of 2 done; 1 left.');
    expect(trajectory.steps[0]!.observation).toContain('This is your last step: reply with your ```answer block now.');
    // No answer: the files it read, most recent first.
    expect(trajectory.answerSource).toBe('inspected');
    expect(trajectory.answer).toEqual({ files: ['shop/cart.py', 'shop/pricing.py'], modules: [], functions: [] });
  });

  it('the token budget stops a run before a call that would cross it', async () => {
    const usage = { inputTokens: 4000, outputTokens: 100 };
    server.enqueue(bashTurn('cat shop/cli.py', usage), bashTurn('ls', usage), bashTurn('ls', usage));
    const trajectory = await run('bash', { maxTokens: 10_000 });
    expect(trajectory.stopReason).toBe('token-budget');
    expect(server.requests).toHaveLength(2);
    expect(trajectory.stats.totalTokens).toBe(8200);
    expect(trajectory.steps[1]!.observation).toContain('Tokens used: 8200 of 10000.');
    expect(trajectory.steps[1]!.observation).toContain('The token budget is nearly used up');
    expect(trajectory.answer.files).toEqual(['shop/cli.py']);
  });

  it('a malformed answer gets one corrective message, and a fixed answer is accepted', async () => {
    server.enqueue(
      { content: 'Done.\n```answer\n{"files": ["shop/cart.py"], "functions": 42}\n```' },
      { content: '{"files": ["shop/cart.py"], "functions": ["shop/cart.py:Cart.apply_discount"]}' },
    );
    const trajectory = await run('reponav', { maxSteps: 1 }); // the correction may take one step beyond the budget
    expect(trajectory.stopReason).toBe('answered');
    expect(trajectory.answerSource).toBe('corrected');
    expect(trajectory.answer.functions).toEqual(['shop/cart.py:Cart.apply_discount']);
    const correction = requestMessages(server.requests, 1).at(-1)!.content;
    expect(correction).toMatch(/^Your previous reply could not be used\. JSON does not match the expected shape/);
    expect(correction).toContain('$.functions');
    expect(trajectory.steps.map((s) => s.action)).toEqual(['bad-answer', 'corrected-answer']);
  });

  it('a second malformed answer ends the run with what can be salvaged', async () => {
    server.enqueue(
      { content: 'Answer:\n```answer\n{"files": [shop/cart.py], "functions": []}\n```' },
      { content: 'Sorry: the fix goes in shop/cart.py:Cart.apply_discount, maybe shop/pricing.py' },
      toolTurn('search', { query: 'never reached' }),
    );
    const trajectory = await run('reponav');
    expect(trajectory.stopReason).toBe('malformed-answer');
    expect(server.requests).toHaveLength(2);
    expect(requestMessages(server.requests, 1).at(-1)!.content).toMatch(/^Your previous reply could not be used\. Reply contains malformed JSON/);
    expect(trajectory.answerSource).toBe('salvaged');
    expect(trajectory.answer.files).toEqual(['shop/cart.py', 'shop/pricing.py']);
    expect(trajectory.answer.functions).toEqual(['shop/cart.py:Cart.apply_discount']);
  });

  it('a reply without an action is a format error observation; of two actions the first runs, with a note; the run goes on', async () => {
    server.enqueue(
      { content: 'I think it is in the cart module.' },
      { content: '```bash\nls\n```\n```bash\nls shop\n```' },
      answerTurn(['shop/cart.py'], []),
    );
    const trajectory = await run('bash');
    expect(trajectory.stopReason).toBe('answered');
    expect(trajectory.stats.formatErrors).toBe(1);
    expect(trajectory.steps[0]!.observation).toMatch(/^Format error: No action found\./);
    expect(trajectory.steps[1]).toMatchObject({ action: 'bash', args: { command: 'ls' } });
    expect(trajectory.steps[1]!.observation).toMatch(/^Note: Your reply held 2 actions; only the first \(bash\) was taken\./);
  });

  it('a 429 followed by success goes through the loop', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after-ms': '5' } }, answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']));
    const trajectory = await run('reponav');
    expect(trajectory.stopReason).toBe('answered');
    expect(trajectory.steps).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });

  it('an unreachable model ends the run with llm-error instead of throwing', async () => {
    server.enqueue({ status: 401 });
    const trajectory = await run('reponav');
    expect(trajectory.stopReason).toBe('llm-error');
    expect(trajectory.error).toMatch(/401/);
    expect(trajectory.steps).toHaveLength(0);
    expect(trajectory.answerSource).toBe('none');
  });

  it('a recorded transcript replays to the same result with the server closed', async () => {
    const transcript = join(repo.dir, 'transcripts', 'run.jsonl');
    server.enqueue(
      toolTurn('search', { query: 'discount code' }),
      bashTurn("sed -n '16,19p' shop/cart.py"),
      toolTurn('list_symbols', { file: 'shop/cart.py' }),
      answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']),
    );
    const live = await run('reponav', {}, withRecording(fakeModel(server.openaiBaseUrl), transcript));
    await server.close();
    const replayed = await run('reponav', {}, createReplayModel(transcript));
    expect(replayed.stopReason).toBe('answered');
    expect(replayed.answer).toEqual(live.answer);
    expect(replayed.steps.map((s) => [s.assistant, s.observation, s.usage])).toEqual(live.steps.map((s) => [s.assistant, s.observation, s.usage]));
    expect(replayed.stats.totalTokens).toBe(live.stats.totalTokens);
    server = await startFakeOpenAIServer(); // for afterEach
  });
});
