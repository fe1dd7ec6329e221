/**
 * The model reranker through the CLI program (run in-process) against the scripted endpoint:
 * `localize --rerank-model` (both wire formats, the trace, outages as errors,
 * the asked-for fallback saying so) and `eval locbench --mode rerank` (figures
 * in the summary, resume refusing changed settings, outages as skips).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFixtureRepo, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type WireProvider } from '../helpers/scripted-llm-server.js';
import { favouring, promptCandidates, retrievalOrder, runCliAsync } from './rerank-helpers.js';

let repo: FixtureRepo;
let server: ScriptedLlmServer;
let cacheDir: string;
const ISSUE = 'The cart total is wrong after checkout: tax is added to the discounted amount in the wrong region.';

beforeAll(() => {
  repo = createFixtureRepo();
  cacheDir = join(repo.dir, 'cache');
});
afterAll(() => repo.cleanup());
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(() => server.close());

function modelEnv(provider: WireProvider): { spec: string; env: Record<string, string> } {
  return provider === 'anthropic'
    ? { spec: 'anthropic:claude-scripted', env: { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' } }
    : { spec: 'openai-compatible:scripted-model', env: { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' } };
}

describe.each(['openai', 'anthropic'] as const)('localize --rerank-model (%s wire format)', (provider) => {
  it('reranks the retrieval top functions window by window and prints the model order', async () => {
    const { spec, env } = modelEnv(provider);
    server.setDefault(favouring('apply_discount'));
    const trace = join(repo.dir, `rerank-${provider}.trace.json`);
    const args = ['localize', '--repo', repo.root, '--issue', ISSUE, '--rerank-model', spec, '--rerank-window', '3', '--rerank-step', '2', '--index-path', repo.indexPath(`cli-${provider}`)];
    const result = await runCliAsync([...args, '--json', '--trace', trace], { cacheDir, env });
    expect(result.stderr).toMatch(/reranked \d+ candidates in \d+ calls/);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ mode: 'rerank', order: 'reranked', model: expect.stringContaining('scripted') });
    // The candidate the model favours climbs to the top through the windows, wherever retrieval put it.
    expect(answer.found_entities[0]).toBe('shop/cart.py:Cart.apply_discount');
    expect(answer.rerank.calls).toBe(server.requests.length);
    expect(answer.rerank.calls).toBeGreaterThan(1);
    expect(answer.rerank.inputTokens).toBeGreaterThan(0);
    const saved = JSON.parse(readFileSync(trace, 'utf8'));
    expect(saved.windows.length).toBe(answer.rerank.calls);
    expect(saved.windows[0].attempts[0]).toMatchObject({ format: 'bracketed', cut: false });
    // Each window's prompt holds the issue and the candidates' code.
    expect(server.requests[0]!.prompt).toContain(ISSUE);
    expect(promptCandidates(server.requests[0]!)).toHaveLength(3);
    expect(server.requests.some((r) => r.prompt.includes('def apply_discount(self, code):'))).toBe(true);

    const text = await runCliAsync([...args, '-q'], { cacheDir, env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Functions \(reranked by .*scripted.*\):\n {2}1\. shop\/cart\.py:Cart\.apply_discount/);
  });
});

describe('localize --rerank-model failures', () => {
  const args = () => ['localize', '--repo', repo.root, '--issue', ISSUE, '--rerank-model', 'openai-compatible:scripted-model', '--index-path', repo.indexPath('cli-fail'), '--llm-retries', '0'];
  const env = () => ({ REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' });

  it('exits 1 with one sentence when the endpoint is down, never printing the retrieval order as an answer', async () => {
    server.setDefault({ status: 500 });
    const result = await runCliAsync(args(), { cacheDir, env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: Reranking with openai-compatible:scripted-model failed: LLM call .* failed \(HTTP 500/);
  });

  it('with --rerank-fallback keeps the retrieval order and says so on stdout and stderr, even with -q', async () => {
    server.setDefault({ status: 500 });
    const result = await runCliAsync([...args(), '--rerank-fallback', '-q'], { cacheDir, env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Functions (retrieval order: the rerank failed):');
    expect(result.stderr).toMatch(/rerank failed, retrieval order kept \(--rerank-fallback\)/);
  });

  it('refuses agent-only flags beside --rerank-model', async () => {
    const result = await runCliAsync([...args(), '--model', 'openai:gpt-4o'], { cacheDir, env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: --rerank-model runs no agent, so --model would be ignored/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('eval locbench --mode rerank', () => {
  let reposDir: string;
  let instances: string;
  beforeAll(() => {
    reposDir = join(repo.dir, 'repos');
    mkdirSync(reposDir, { recursive: true });
    symlinkSync(repo.root, join(reposDir, 'acme+shop'));
    instances = join(repo.dir, 'instances.jsonl');
    const lines = [
      { instance_id: 'shop-1', repo: 'acme/shop', base_commit: repo.first, problem_statement: ISSUE, edit_functions: ['shop/cart.py:Cart.apply_discount'] },
      { instance_id: 'shop-2', repo: 'acme/shop', base_commit: repo.head, problem_statement: 'validate() in shop/coupons.py accepts a coupon code in lower case; code.isupper is the wrong check.', edit_functions: ['shop/coupons.py:validate'] },
    ];
    writeFileSync(instances, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  });
  const base = (out: string, config: Record<string, unknown>) => [
    'eval', 'locbench', '--instances', instances, '--repos', reposDir, '--out', out, '--mode', 'rerank', '--format', 'json',
    '--config-json', JSON.stringify({ model: 'openai-compatible:scripted-model', indexDir: join(repo.dir, 'eval-indexes'), window: 3, step: 2, ...config }),
  ];
  const env = () => ({ REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' });

  it('reranks each instance, records the rerank figures, and refuses a resume with other rerank settings', async () => {
    const out = join(repo.dir, 'eval-rerank');
    server.setDefault(favouring('apply_discount'));
    const result = await runCliAsync(base(out, { traceDir: join(out, 'traces') }), { cacheDir, env: env() });
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.config.mode).toBe('rerank');
    expect(summary.counts.withPrediction).toBe(2);
    expect(summary.timings.stages.rerankCalls.mean).toBeGreaterThan(1);
    expect(summary.timings.stages.rerankTotalTokens.mean).toBeGreaterThan(0);
    expect(summary.timings.stages.rerankFallback.mean).toBe(0);
    const predictions = readFileSync(join(out, 'predictions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(predictions.find((p) => p.instance_id === 'shop-1').found_entities[0]).toBe('shop/cart.py:Cart.apply_discount');
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(JSON.stringify(run)).toContain('"window":3');
    expect(JSON.parse(readFileSync(join(out, 'traces', 'shop-1.json'), 'utf8')).windows.length).toBeGreaterThan(1);

    const changed = await runCliAsync(base(out, { traceDir: join(out, 'traces'), window: 4 }), { cacheDir, env: env() });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/other settings \(.*window: 3 → 4/);
  });

  it('records an outage as a skip, retried on resume, never as a prediction', async () => {
    const out = join(repo.dir, 'eval-outage');
    server.setDefault({ status: 500 });
    const down = await runCliAsync(base(out, { model: { model: 'openai-compatible:scripted-model', maxRetries: 0 } }), { cacheDir, env: env() });
    const summary = JSON.parse(down.stdout);
    expect(summary.counts.withPrediction).toBe(0);
    expect(summary.counts.skippedByReason).toEqual({ 'localizer-error': 2 });
    expect(readFileSync(join(out, 'skipped.jsonl'), 'utf8')).toMatch(/localizer-error.*HTTP 500/);
    server.setDefault(retrievalOrder);
    const up = await runCliAsync(base(out, { model: { model: 'openai-compatible:scripted-model', maxRetries: 0 } }), { cacheDir, env: env() });
    expect(up.code, up.stderr).toBe(0);
    expect(JSON.parse(up.stdout).counts.withPrediction).toBe(2);
  });
});
