/**
 * Resuming a harness after replies that were not `complete`: `eval sweqa`
 * (runSweqa, the RAG method) and `eval locbench --mode agent` (the eval
 * command in process, the agent localizer), on the scripted endpoint in
 * both wire formats. The first run gives each instance one reply outcome —
 * complete, cut (every time), refused (in plain text), filtered, empty
 * (every time), unknown (no finish reason), or an HTTP 500 — and the resumed
 * run, with the endpoint repaired, must redo exactly the instances whose
 * replies were not complete and keep the complete ones as they were.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgentLocalizer } from '../../src/agents/localize/index.js';
import { registerEvalCommands } from '../../src/cli/commands/eval-command.js';
import { askAnswerer } from '../../src/cli/commands/sweqa-command.js';
import { runSweqa } from '../../src/eval/sweqa/index.js';
import { silentLogger } from '../../src/logger.js';
import { createFixtureGitRepo } from '../agents-ask/helpers/fixture-repo.js';
import { createFixtureRepo, writeLocbenchSet, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedRequest, type StyledReply, type WireProvider } from '../helpers/scripted-llm-server.js';
import { restoreEnv } from '../helpers/process-env.js';

/** The outcome each instance's replies have in the first run. */
const OUTCOMES = ['complete', 'cut', 'refused', 'filtered', 'empty', 'unknown', 'http-500'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** The reply of `outcome` in place of the clean reply `text`. */
function replyOf(outcome: Outcome, text: string): StyledReply {
  switch (outcome) {
    case 'complete':
      return { text };
    case 'cut':
      return { text: text.slice(0, 12), cut: true };
    case 'refused':
      return { text: "I'm sorry, but I can't help with that request." };
    case 'filtered':
      return { text, finishReason: 'content_filter' };
    case 'empty':
      return { text: '' };
    case 'unknown':
      return { text, noFinishReason: true };
    case 'http-500':
      return { status: 500 };
  }
}

/** The tag naming an instance in its question or issue (and so in every request of it). */
const tag = (outcome: Outcome) => `[instance ${outcome}]`;
const outcomeOf = (request: ScriptedRequest): Outcome | null => OUTCOMES.find((o) => request.prompt.includes(tag(o))) ?? null;
const NOT_COMPLETE = OUTCOMES.filter((o) => o !== 'complete');

let server: ScriptedLlmServer;
let dir: string;
const savedEnv = { ...process.env };
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-resume-'));
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
});
afterAll(() => {
  restoreEnv(savedEnv);
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => server?.close());

/**
 * Scripts the endpoint: `clean` gives the right reply to a request; in the
 * first run an instance's requests get its outcome instead, in the resumed
 * run every request gets the clean reply. Returns the instances each run asked about.
 */
function script(clean: (request: ScriptedRequest) => string, isJudge: (request: ScriptedRequest) => boolean) {
  const asked = { first: new Set<Outcome>(), resumed: new Set<Outcome>() };
  let phase: 'first' | 'resumed' = 'first';
  server.setDefault((request) => {
    const outcome = outcomeOf(request);
    if (outcome === null || isJudge(request)) return { text: clean(request) };
    asked[phase].add(outcome);
    return phase === 'first' ? replyOf(outcome, clean(request)) : { text: clean(request) };
  });
  return { asked, resume: () => (phase = 'resumed') };
}

describe.each<WireProvider>(['openai', 'anthropic'])('%s endpoint: a resumed harness redoes exactly the instances whose replies were not complete', (provider) => {
  it('eval sweqa', async () => {
    server = await startScriptedLlmServer();
    const reposDir = join(dir, `sweqa-repos-${provider}`);
    mkdirSync(reposDir, { recursive: true });
    const sha = createFixtureGitRepo(reposDir, 'acme/shop');
    const questionsPath = join(dir, `questions-${provider}.jsonl`);
    writeFileSync(
      questionsPath,
      OUTCOMES.map((o) => JSON.stringify({ id: o, repo: 'acme/shop', commit_short: sha.slice(0, 7), qtype_first_word: 'where', question: `Where is tax added? ${tag(o)}`, answer: 'with_tax' })).join('\n') + '\n',
    );
    const SCORES = { correctness: 15, completeness: 14, relevance: 16, clarity: 15, reasoning: 14, total: 74 };
    const isJudge = (r: ScriptedRequest) => /^\[role: judge\]/.test(r.prompt);
    const { asked, resume } = script((r) => (isJudge(r) ? JSON.stringify(SCORES) : '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`.'), isJudge);
    const options = {
      questionsPath,
      reposDir,
      outDir: join(dir, `sweqa-out-${provider}`),
      answerer: askAnswerer('rag'),
      model: server.model(provider, { maxRetries: 1, retryBaseDelayMs: 1 }),
      judges: [server.model(provider, { model: 'judge' })],
      concurrency: 2,
      indexDir: join(dir, `sweqa-index-${provider}`),
      logger: silentLogger,
    };
    const first = await runSweqa(options);
    const statusOf = (records: Array<{ id: string; status: string }>) => Object.fromEntries(records.map((r) => [r.id, r.status]));
    expect(statusOf(readRecords(first.paths.answers))).toEqual({ ...Object.fromEntries(NOT_COMPLETE.map((o) => [o, 'error'])), complete: 'ok' });
    expect([...asked.first].sort()).toEqual([...OUTCOMES].sort());

    resume();
    const resumed = await runSweqa(options);
    expect([...asked.resumed].sort(), 'the instances the resumed run answered again').toEqual([...NOT_COMPLETE].sort());
    expect(resumed.resumed).toBe(1);
    const records = readRecords(resumed.paths.answers);
    const latest = new Map(records.map((r) => [r.id, r]));
    for (const o of OUTCOMES) expect(latest.get(o), o).toMatchObject({ status: 'ok', total: 74 });
    // The complete instance was answered once, in the first run.
    expect(records.filter((r) => r.id === 'complete')).toHaveLength(1);
  }, 180_000);

  it('eval locbench --mode agent', async () => {
    server = await startScriptedLlmServer();
    const repo: FixtureRepo = createFixtureRepo();
    try {
      const { reposDir, instances } = writeLocbenchSet(
        repo,
        OUTCOMES.map((o) => ({ instance_id: o, repo: 'acme/shop', base_commit: repo.first, problem_statement: `Applying SAVE10 twice doubles the discount. ${tag(o)}`, edit_functions: ['shop/cart.py:Cart.apply_discount'] })),
      );
      const TOOL = '```tool\n{"tool": "search", "args": {"query": "discount applied twice"}}\n```';
      const ANSWER = '```answer\n{"files": ["shop/cart.py"], "functions": ["shop/cart.py:Cart.apply_discount"]}\n```';
      const clean = (r: ScriptedRequest) =>
        r.body.messages.slice(2).some((m: { role: string; content: unknown }) => m.role === 'user' && JSON.stringify(m.content).includes('shop/cart.py')) ? ANSWER : TOOL;
      const { asked, resume } = script(clean, () => false);
      const env =
        provider === 'anthropic'
          ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
          : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
      const out = join(repo.dir, 'out');
      const settings = { model: { model: provider === 'anthropic' ? 'anthropic:scripted' : 'openai-compatible:scripted', maxRetries: 1, retryBaseDelayMs: 1 }, maxSteps: 6, indexDir: join(repo.dir, 'index') };
      const locbench = async () => {
        const program = new Command('reponav').exitOverride();
        registerEvalCommands(program, {
          createLocalizer: () => Promise.reject(new Error('retrieval mode is not part of this test')),
          createAgentLocalizer: (config) => createAgentLocalizer(config, { env, viewTempRoot: repo.dir }),
          logger: silentLogger,
          stdout: { write: () => true },
          stderr: { write: () => true },
          signal: new AbortController().signal,
        });
        await program.parseAsync(['node', 'reponav', 'eval', 'locbench', '--instances', instances, '--repos', reposDir, '--out', out, '--mode', 'agent', '--interface', 'reponav', '--config-json', JSON.stringify(settings), '--format', 'json']);
        const lines = (file: string) => (existsSync(join(out, file)) ? readFileSync(join(out, file), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
        return { predictions: lines('predictions.jsonl'), skipped: lines('skipped.jsonl') };
      };
      const first = await locbench();
      expect(first.predictions.map((p) => p.instance_id)).toEqual(['complete']);
      expect(first.skipped.map((s) => [s.instanceId, s.reason]).sort()).toEqual(NOT_COMPLETE.map((o) => [o, 'localizer-error']).sort());
      expect([...asked.first].sort()).toEqual([...OUTCOMES].sort());

      resume();
      const resumed = await locbench();
      expect([...asked.resumed].sort(), 'the instances the resumed run localized again').toEqual([...NOT_COMPLETE].sort());
      expect(resumed.skipped).toEqual([]);
      // The complete instance's prediction is kept, once; every other instance now has its prediction.
      expect(resumed.predictions.filter((p) => p.instance_id === 'complete')).toHaveLength(1);
      expect(resumed.predictions.map((p) => p.instance_id).sort()).toEqual([...OUTCOMES].sort());
      for (const p of resumed.predictions) expect(p.found_files, p.instance_id).toEqual(['shop/cart.py']);
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});

function readRecords(path: string): Array<{ id: string; status: string; total?: number | null }> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}
