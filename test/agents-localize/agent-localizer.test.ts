import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgentLocalizer } from '../../src/agents/localize/index.js';
import { isReponavError } from '../../src/errors.js';
import { createLocbenchLocalizer, type LocalizeInput } from '../../src/eval/localizer.js';
import { runLocbench } from '../../src/eval/locbench-runner.js';
import { startFakeOpenAIServer, type FakeReply, type FakeServer } from '../helpers/fake-openai-server.js';
import { answerTurn, bashTurn, createFixtureRepo, toolTurn, writeLocbenchSet, type FixtureRepo } from './agent-fixture.js';

describe('agent localizer (LocBench agent mode)', () => {
  let repo: FixtureRepo;
  let server: FakeServer;
  const settings = (extra: Record<string, unknown> = {}) => ({
    model: { model: 'openai-compatible:fake-model', baseUrl: server.openaiBaseUrl, retryBaseDelayMs: 1 },
    indexDir: join(repo.dir, 'indexes'),
    ...extra,
  });
  const input = (instanceId: string, commit: string, query: string): LocalizeInput => ({
    instanceId,
    repo: 'acme/shop',
    gitDir: join(repo.root, '.git'),
    commit,
    query,
  });
  /** Replies chosen by the issue in the request and the number of turns so far, so concurrent runs stay scripted. */
  const scripted = (scripts: Record<string, FakeReply[]>) =>
    server.setHandler((body) => {
      const messages = body.messages as Array<{ role: string; content: string }>;
      const key = Object.keys(scripts).find((k) => messages[1]!.content.includes(k))!;
      return scripts[key]![messages.filter((m) => m.role === 'assistant').length]!;
    });

  beforeAll(() => {
    repo = createFixtureRepo();
  });
  afterAll(() => repo.cleanup());
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('produces predictions and the behaviour figures, and writes a trace', async () => {
    const traceDir = join(repo.dir, 'traces');
    const localizer = await createAgentLocalizer({ interface: 'reponav', settings: settings({ traceDir }) }, { env: {}, viewTempRoot: repo.dir });
    server.enqueue(
      toolTurn('search', { query: 'discount applied twice' }),
      toolTurn('list_symbols', { file: 'shop/cart.py' }),
      bashTurn("sed -n '16,19p' shop/cart.py"),
      answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']),
    );
    try {
      const result = await localizer.localize(input('shop-1', repo.first, 'Discount SAVE10 applied twice'));
      expect(result.found_files).toEqual(['shop/cart.py']);
      expect(result.found_modules).toEqual(['shop/cart.py:Cart']);
      expect(result.found_entities).toEqual(['shop/cart.py:Cart.apply_discount']);
      expect(result.timings).toMatchObject({ steps: 4, toolCalls: 3, bashCalls: 1, listSymbolsUsed: 1, filesInspected: 1, answered: 1, stepBudgetHit: 0 });
      expect(result.timings!.totalTokens).toBe(result.timings!.inputTokens! + result.timings!.outputTokens!);
      for (const key of ['agentMs', 'modelMs', 'toolMs', 'indexMs', 'viewMs', 'totalMs']) expect(result.timings![key]).toBeGreaterThanOrEqual(0);
      const trace = JSON.parse(readFileSync(join(traceDir, 'shop-1.json'), 'utf8'));
      expect(trace).toMatchObject({ instanceId: 'shop-1', commit: repo.first, interface: 'reponav', stopReason: 'answered' });
      expect(trace.steps).toHaveLength(4);
      expect(localizer.meter.snapshot().calls).toBe(4);
    } finally {
      await localizer.close();
    }
  });

  it('is safe to call concurrently for different instances and commits', async () => {
    const localizer = await createAgentLocalizer({ interface: 'snippet+listsym', settings: settings() }, { env: {}, viewTempRoot: repo.dir });
    scripted({
      'old-commit issue': [toolTurn('snippet_search', { query: 'discount' }), bashTurn('ls shop'), answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount'])],
      'new-commit issue': [bashTurn('ls shop'), toolTurn('list_symbols', { file: 'shop/coupons.py' }), answerTurn(['shop/coupons.py'], ['shop/coupons.py:validate'])],
    });
    try {
      const [old, recent] = await Promise.all([
        localizer.localize(input('old', repo.first, 'old-commit issue')),
        localizer.localize(input('new', repo.head, 'new-commit issue')),
      ]);
      expect(old.found_entities).toEqual(['shop/cart.py:Cart.apply_discount']);
      expect(recent.found_entities).toEqual(['shop/coupons.py:validate']);
      expect(recent.timings!.listSymbolsUsed).toBe(1);
      // Each run saw its own commit.
      const lsObservation = (issue: string) =>
        server.requests
          .map((r) => r.body.messages as Array<{ content: string }>)
          .filter((m) => m[1]!.content.includes(issue))
          .flatMap((m) => m.map((x) => x.content))
          .find((c) => c.startsWith('Observation from bash'))!;
      expect(lsObservation('old-commit issue')).not.toContain('coupons.py');
      expect(lsObservation('new-commit issue')).toContain('coupons.py');
    } finally {
      await localizer.close();
    }
  });

  it('caps total spend across the run with one shared meter', async () => {
    const prices = { 'fake-model': { inputPerMTok: 1_000_000, outputPerMTok: 0 } }; // $1 per input token
    const localizer = await createAgentLocalizer(
      { interface: 'bash', settings: { ...settings({ maxUsd: 5 }), model: { ...settings().model, prices } } },
      { env: {}, viewTempRoot: repo.dir },
    );
    server.setHandler(() => ({ ...bashTurn('ls', { inputTokens: 3, outputTokens: 1 }) }));
    try {
      // The first prompt alone (over a thousand estimated tokens at $1 each) would cross $5: refused before it is sent.
      const error = await localizer.localize(input('a', repo.first, 'first')).catch((e: unknown) => e);
      expect(isReponavError(error, 'BUDGET_EXCEEDED')).toBe(true);
      expect((error as Error).message).toMatch(/would cross it, so it was not made/);
      expect(localizer.meter.snapshot().costUsd).toBe(0);
      const next = await localizer.localize(input('b', repo.first, 'second')).catch((e: unknown) => e);
      expect(isReponavError(next, 'BUDGET_EXCEEDED')).toBe(true);
      expect(server.requests).toHaveLength(0);
    } finally {
      await localizer.close();
    }
  });

  it('rejects bad settings and keeps API keys out of --config-json', async () => {
    await expect(createAgentLocalizer({ interface: 'reponav', settings: { maxSteps: 0 } }, { env: {} })).rejects.toThrow(/maxSteps/);
    await expect(createAgentLocalizer({ interface: 'reponav', settings: { bogus: 1 } }, { env: {} })).rejects.toThrow(/bogus/);
    await expect(
      createAgentLocalizer({ settings: { model: { model: 'openai:gpt-4o-mini', apiKey: 'sk-x' } } }, { env: {} }),
    ).rejects.toThrow(/API keys/);
    await expect(createAgentLocalizer({ interface: 'grep', settings: settings() }, { env: {} })).rejects.toThrow(
      /bash, snippet, snippet\+listsym, reponav, file-only, inline-scaffold, reponav-no-anchors, reponav-no-glimpse, reponav-no-targets/,
    );
  });

  it('runs through the LocBench harness when injected as its agent factory', async () => {
    const { reposDir, instances } = writeLocbenchSet(repo, [
      { instance_id: 'shop-1', repo: 'acme/shop', base_commit: repo.first, problem_statement: 'Discount SAVE10 applied twice', edit_functions: ['shop/cart.py:Cart.apply_discount'] },
    ]);
    server.enqueue(toolTurn('search', { query: 'discount' }), answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']));
    {
      const config = { mode: 'agent' as const, interface: 'reponav', settings: settings() };
      const localizer = await createLocbenchLocalizer(config, {
        retrieval: () => Promise.reject(new Error('not used')),
        agent: (c) => createAgentLocalizer(c, { env: {}, viewTempRoot: repo.dir }),
      });
      const out = join(repo.dir, 'eval-out');
      try {
        const result = await runLocbench({ instancesPath: instances, reposDir, outDir: out, mode: 'agent', localizerConfig: config }, localizer);
        expect(result.summary.metrics.file.scores['Acc@1']).toBe(1);
        expect(result.summary.metrics.function.scores['Acc@5']).toBe(1);
        expect(Object.keys(result.summary.timings.stages)).toEqual(expect.arrayContaining(['steps', 'totalTokens', 'listSymbolsUsed', 'filesInspected']));
        const line = JSON.parse(readFileSync(join(out, 'predictions.jsonl'), 'utf8').trim());
        expect(line.meta.timings.steps).toBe(2);
      } finally {
        await localizer.close?.();
      }
    }
  });

  it('records the model taken from REPONAV_LLM_MODEL and refuses a resume with another; an all-empty model is an error, retried on resume', async () => {
    const reposDir = join(repo.dir, 'repos-facts');
    mkdirSync(reposDir, { recursive: true });
    symlinkSync(repo.root, join(reposDir, 'acme+shop'));
    const instances = join(repo.dir, 'instances-facts.jsonl');
    writeFileSync(
      instances,
      `${JSON.stringify({ instance_id: 'shop-1', repo: 'acme/shop', base_commit: repo.first, problem_statement: 'Discount SAVE10 applied twice', edit_functions: ['shop/cart.py:Cart.apply_discount'] })}\n`,
    );
    const out = join(repo.dir, 'eval-facts');
    const config = { mode: 'agent' as const, interface: 'reponav', settings: { indexDir: join(repo.dir, 'indexes') } };
    const runWith = async (modelName: string, extra: { allowChangedSettings?: boolean } = {}) => {
      const env = { REPONAV_LLM_MODEL: `openai-compatible:${modelName}`, REPONAV_LLM_BASE_URL: server.openaiBaseUrl };
      const localizer = await createAgentLocalizer(config, { env, viewTempRoot: repo.dir });
      try {
        return await runLocbench({ instancesPath: instances, reposDir, outDir: out, mode: 'agent', localizerConfig: config, ...extra }, localizer);
      } finally {
        await localizer.close();
      }
    };
    // Only empty replies: no prediction is written, the instance is an llm error, tried again next time.
    server.setHandler(() => ({ content: '' }));
    const down = await runWith('model-a');
    expect(down.predictedThisRun).toBe(0);
    expect(down.summary.counts.skippedByReason).toEqual({ 'localizer-error': 1 });
    expect(readFileSync(join(out, 'skipped.jsonl'), 'utf8')).toContain('failed (empty-reply; 2 empty replies in a row)');
    server.setHandler(undefined);
    server.enqueue(answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']));
    const up = await runWith('model-a');
    expect(up.predictedThisRun).toBe(1);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.facts).toMatchObject({ model: 'openai-compatible:model-a', provider: 'openai-compatible', baseUrlHost: new URL(server.openaiBaseUrl).host, interface: 'reponav', effective: { maxSteps: 30 } });
    await expect(runWith('model-b')).rejects.toThrow(/holds a run made with other settings \(facts\.model: "openai-compatible:model-a" → "openai-compatible:model-b"\)/);
    const allowed = await runWith('model-b', { allowChangedSettings: true });
    expect(allowed.resumed).toBe(1);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).allowedChanges[0].differences).toEqual(['facts.model: "openai-compatible:model-a" → "openai-compatible:model-b"']);
  });

  it.each([
    // The control: the full scaffold shows the blocks the ablations take away.
    ['reponav', (text: string) => expect(text).toMatch(/\[ANCHORS\][\s\S]*CANDIDATE_TARGETS/)],
    ['file-only', (text: string) => expect(text).not.toMatch(/\[ANCHORS\]|\[GLIMPSE\]|CANDIDATE_TARGETS/)],
    ['inline-scaffold', (text: string) => expect(text).not.toMatch(/\[ANCHORS\]|\[GLIMPSE\]|CANDIDATE_TARGETS/)],
    ['reponav-no-anchors', (text: string) => expect(text).not.toContain('[ANCHORS]')],
  ] as const)('runs the RQ2 ablation %s as an agent interface, with search rendering that view', async (name, check) => {
    const localizer = await createAgentLocalizer({ interface: name, settings: settings() }, { env: {}, viewTempRoot: repo.dir });
    server.enqueue(toolTurn('search', { query: 'discount applied twice' }), answerTurn(['shop/cart.py'], ['shop/cart.py:Cart.apply_discount']));
    try {
      const result = await localizer.localize(input(`shop-${name}`, repo.first, 'Discount SAVE10 applied twice'));
      expect(result.found_files).toEqual(['shop/cart.py']);
      expect(localizer.runFacts.interface).toBe(name);
      const observation = server.requests.at(-1)!.body.messages.at(-1).content as string;
      expect(observation).toContain('shop/cart.py');
      check(observation);
      const system = server.requests.at(-1)!.body.messages[0].content as string;
      expect(system).toContain('You have exactly these tools: bash, search, list_symbols.');
    } finally {
      await localizer.close();
    }
  });
});
