/**
 * The reply-style suite: `reponav localize`, `eval locbench --mode agent`,
 * `reponav ask` and `eval sweqa`, in process, against the scripted endpoint
 * (test/helpers/scripted-llm-server.ts) in each reply style real endpoints
 * produce (styles.ts), for both wire formats. Each row asserts the exit (an
 * error or not), the stop reason and what the run saved, and for the
 * harnesses whether a resume redoes it; no row may end in a success-looking
 * result that is wrong. What each row observed is the table in
 * docs/localization-agent.md and docs/question-answering.md (the last test
 * checks it; UPDATE_GOLDEN=1 rewrites it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerAskCommand } from '../../src/cli/commands/ask-command.js';
import { registerLocalizeCommand } from '../../src/cli/commands/localize-command.js';
import { registerSweqaCommand } from '../../src/cli/commands/sweqa-command.js';
import { createAgentLocalizer } from '../../src/agents/localize/index.js';
import { registerEvalCommands } from '../../src/cli/commands/eval-command.js';
import { silentLogger } from '../../src/logger.js';
import { createFixtureRepo, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { createFixtureGitRepo, writeFixtureFiles } from '../agents-ask/helpers/fixture-repo.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedRequest, type StyledReply, type WireProvider } from '../helpers/scripted-llm-server.js';
import { stylesFor, type Observation, type RunState, type Style } from './styles.js';
import { checkDocTables } from './doc-tables.js';
import { askSaved, count, exitOf, localizeSaved, modelArgs, readTrace, type Run, SHORT_TIMEOUT, stopOfTimings } from './run-words.js';
import { restoreEnv } from '../helpers/process-env.js';

const PROVIDERS: WireProvider[] = ['openai', 'anthropic'];

let dir: string;
let server: ScriptedLlmServer;
let runs = 0;
const savedEnv = { ...process.env };
const observations: Observation[] = [];

function envFor(provider: WireProvider): Record<string, string> {
  return provider === 'anthropic'
    ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
    : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
}

/** Scripts the server: call n of the run gets `style.write(clean(request), n)`. */
function script(style: Style, clean: (request: ScriptedRequest) => string): void {
  let n = 0;
  const pending: StyledReply[] = [];
  const state: RunState = new Set();
  server.setDefault((request) => {
    if (pending.length > 0) return pending.shift()!;
    const written = style.write(clean(request), ++n, state);
    const list = Array.isArray(written) ? written : [written];
    pending.push(...list.slice(1));
    return list[0]!;
  });
  if (style.name.startsWith('429')) server.push({ status: 429, retryAfterSeconds: 1 });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-reply-suite-'));
  writeFixtureFiles(join(dir, 'shop'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  restoreEnv(savedEnv);
  vi.restoreAllMocks();
  await server?.close();
});

describe.each(PROVIDERS)('%s endpoint: reply styles', (provider) => {
  describe('localize and eval locbench --mode agent', () => {
    let repo: FixtureRepo;
    beforeAll(() => {
      repo = createFixtureRepo();
    });
    afterAll(() => repo.cleanup());

    const TOOL = '```tool\n{"tool": "search", "args": {"query": "discount applied twice"}}\n```';
    const ANSWER = '```answer\n{"files": ["shop/cart.py"], "functions": ["shop/cart.py:Cart.apply_discount"]}\n```';
    /** Search until the search's output was shown, then answer. */
    const clean = (request: ScriptedRequest) =>
      request.body.messages.slice(2).some((m: { role: string; content: unknown }) => m.role === 'user' && JSON.stringify(m.content).includes('shop/cart.py')) ? ANSWER : TOOL;

    async function localize(style: Style): Promise<Run> {
      server = await startScriptedLlmServer({ rejects: style.rejects });
      script(style, clean);
      let stdout = '';
      const trace = join(repo.dir, `suite-${++runs}.json`);
      const program = new Command('reponav').exitOverride().configureOutput({ writeOut: (s) => (stdout += s), writeErr: () => undefined });
      registerLocalizeCommand(program, { env: envFor(provider), logger: silentLogger, stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => undefined } });
      let error: Run['error'] = null;
      try {
        await program.parseAsync([
          'node', 'reponav', 'localize', '--repo', repo.root, '--issue', 'Applying SAVE10 twice doubles the discount.', '--index-path', repo.indexPath('suite'),
          ...modelArgs(provider), '--llm-retries', '3', '--max-steps', '6', '--json', '-q', '--trace', trace, ...(style.shortTimeout ? SHORT_TIMEOUT : []),
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      }
      return { stdout, error, trace: readTrace(trace) };
    }

    it.each(stylesFor('localize', provider).map((s) => [s.name, s] as const))('localize: %s', async (name, style) => {
      const run = await localize(style);
      const printed = run.stdout ? JSON.parse(run.stdout) : null;
      observations.push({ surface: 'localize', style: name, provider, exit: exitOf(run.error), stopReason: `\`${run.trace?.stopReason ?? '-'}\``, saved: localizeSaved(run.trace), resume: 'see `eval locbench`' });
      if (style.outage) {
        // An outage: a non-zero exit naming the cause, stop reason llm-error, no answer printed.
        expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
        expect(run.stdout).toBe('');
        expect(run.trace).toMatchObject({ stopReason: 'llm-error', answerSource: 'none' });
        return;
      }
      // Never a success-looking wrong answer: `answered` is the right file; anything else says it did not answer.
      if (printed?.stopReason === 'answered') expect(printed.found_files).toEqual(['shop/cart.py']);
      else if (!run.error) expect(run.trace.answerSource).not.toBe('answer');
      const steps = run.trace.steps as Array<{ tool?: string; action: string; cut?: boolean; reasoning?: string; notes?: string[] }>;
      if (name.includes('think')) {
        // The drafted answer inside <think> never ran: step 1 is the search, the answer is the real one.
        expect(steps[0]).toMatchObject({ tool: 'search', reasoning: expect.stringContaining('{"score": 10}') });
      }
      if (name === 'cut once') expect(steps[0]).toMatchObject({ action: 'truncated', cut: true });
      if (name === 'no usage') expect(steps[0]!.notes).toEqual([expect.stringMatching(/counted locally \(o200k_base\)/)]);
      // localize sends no output limit unless asked, so only the temperature is refused and learned.
      if (name.startsWith('o-series')) expect(steps[0]!.notes).toEqual([expect.stringMatching(/omitting temperature/)]);
      expect(run.trace.stats.totalTokens).toBeGreaterThan(0);
    });

    /** `eval locbench --mode agent` on one instance of the fixture repository, in process, the way the CLI composes it. */
    async function locbench(style: Style, out: string): Promise<{ error: Run['error']; predictions: any[]; skipped: any[]; summary: any }> {
      const reposDir = join(repo.dir, `repos-${provider}`);
      const instances = join(repo.dir, `instances-${provider}.jsonl`);
      if (!existsSync(reposDir)) {
        mkdirSync(reposDir, { recursive: true });
        symlinkSync(repo.root, join(reposDir, 'acme+shop'));
        writeFileSync(instances, `${JSON.stringify({ instance_id: 'shop-1', repo: 'acme/shop', base_commit: repo.first, problem_statement: 'Applying SAVE10 twice doubles the discount.', edit_functions: ['shop/cart.py:Cart.apply_discount'] })}\n`);
      }
      const model = { model: modelArgs(provider)[1], retryBaseDelayMs: 1, ...(style.shortTimeout ? { timeoutMs: 200, maxRetries: 0 } : { maxRetries: 3 }) };
      const settings = { model, maxSteps: 6, indexDir: join(repo.dir, `locbench-index-${provider}`) };
      const program = new Command('reponav').exitOverride();
      registerEvalCommands(program, {
        createLocalizer: () => Promise.reject(new Error('retrieval mode is not part of this suite')),
        createAgentLocalizer: (config) => createAgentLocalizer(config, { env: envFor(provider), viewTempRoot: repo.dir }),
        logger: silentLogger,
        stdout: { write: () => true },
        stderr: { write: () => true },
        signal: new AbortController().signal,
      });
      let error: Run['error'] = null;
      try {
        await program.parseAsync(['node', 'reponav', 'eval', 'locbench', '--instances', instances, '--repos', reposDir, '--out', out, '--mode', 'agent', '--interface', 'reponav', '--config-json', JSON.stringify(settings), '--format', 'json']);
      } catch (caught) {
        error = caught as Run['error'];
      }
      const lines = (file: string) => (existsSync(join(out, file)) ? readFileSync(join(out, file), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
      return { error, predictions: lines('predictions.jsonl'), skipped: lines('skipped.jsonl'), summary: readTrace(join(out, 'summary.json')) };
    }

    it.each(stylesFor('eval locbench --mode agent', provider).map((s) => [s.name, s] as const))('eval locbench --mode agent: %s', async (name, style) => {
      server = await startScriptedLlmServer({ rejects: style.rejects });
      script(style, clean);
      const out = join(repo.dir, `locbench-out-${++runs}`);
      const run = await locbench(style, out);
      const first = run.predictions.at(-1);
      const skip = run.skipped.at(-1);
      // A resume with the model repaired: an error is localized again, a prediction is kept.
      server.setDefault((request) => ({ text: clean(request) }));
      const resumed = await locbench({ ...style, shortTimeout: false }, out);
      const redone = resumed.predictions.length > run.predictions.length;
      const saved = first
        ? `a prediction (\`found_files\` ${JSON.stringify(first.found_files)}${first.meta.timings.refusedRepeats ? `, ${count(first.meta.timings.refusedRepeats, 'repeat')} refused` : ''}), scored`
        : `no prediction; \`skipped.jsonl\`: \`${skip?.reason}\` with the cause`;
      observations.push({
        surface: 'eval locbench --mode agent', style: name, provider, exit: exitOf(run.error),
        stopReason: first ? stopOfTimings(first.meta.timings) : '-', saved, resume: redone ? 'localized again' : 'kept, not redone',
      });
      expect(run.error).toBeNull();
      if (style.outage || style.unfinished) {
        // An outage, or a run left on an unfinished reply, is never a prediction: it is skipped with the cause, and a resume localizes it again.
        expect(first).toBeUndefined();
        expect(skip).toMatchObject({ reason: 'localizer-error', instanceId: 'shop-1' });
        expect(redone).toBe(true);
        expect(resumed.predictions.at(-1).found_files).toEqual(['shop/cart.py']);
        return;
      }
      expect(first).toBeDefined();
      expect(redone).toBe(false);
    });
  });

  describe('ask', () => {
    const PERCEPTION = { summary: 'Nothing found yet.', redundancy: [], gaps: ['where tax is added'], promising: ['with_tax'] };
    const PLAN = { actions: [{ action: 'FindFunction', args: { name: 'with_tax' }, rationale: 'tax is likely added there' }] };
    const EVALUATION = { score: 80, rationale: 'the function that adds tax', follow_up: 'answer' };
    const ANSWER = '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`, after the discount.';
    const clean = (request: ScriptedRequest) => {
      const role = /^\[role: ([a-z]+)\]/.exec(request.prompt)?.[1];
      if (role === 'perception') return JSON.stringify(PERCEPTION);
      if (role === 'planning') return JSON.stringify(PLAN);
      if (role === 'evaluation') return JSON.stringify(EVALUATION);
      return ANSWER;
    };

    beforeEach(() => {
      process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
      delete process.env.REPONAV_LLM_MODEL;
    });

    async function ask(style: Style): Promise<Run> {
      server = await startScriptedLlmServer({ rejects: style.rejects });
      script(style, clean);
      Object.assign(process.env, envFor(provider));
      const trace = join(dir, `ask-${++runs}.json`);
      const program = new Command('reponav').exitOverride();
      registerAskCommand(program);
      let stdout = '';
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
        stdout += String(chunk);
        return true;
      });
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      let error: Run['error'] = null;
      try {
        await program.parseAsync([
          'node', 'reponav', 'ask', 'Where is tax added to the cart total?', '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'),
          ...modelArgs(provider), '--iterations', '1', '--json', '-q', '--trace', trace, ...(style.shortTimeout ? SHORT_TIMEOUT : []),
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      } finally {
        vi.restoreAllMocks();
      }
      return { stdout, error, trace: readTrace(trace) };
    }

    it.each(stylesFor('ask', provider).map((s) => [s.name, s] as const))('ask: %s', async (name, style) => {
      const run = await ask(style);
      const json = run.stdout ? JSON.parse(run.stdout) : null;
      observations.push({ surface: 'ask', style: name, provider, exit: exitOf(run.error), stopReason: `\`${json?.stopReason ?? run.trace?.stopReason ?? '-'}\``, saved: askSaved(run.trace), resume: 'see `eval sweqa`' });
      if (style.outage) {
        expect(run.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/^No answer \(stopped: llm-error\)/) });
        expect(run.stdout).toBe('');
        expect(run.trace).toMatchObject({ stopReason: 'llm-error' });
        return;
      }
      if (run.error) {
        // A failure is loud: an error code, nothing printed as an answer.
        expect(run.error.code).toMatch(/^[A-Z_]+$/);
        expect(run.stdout).toBe('');
        return;
      }
      // Never a success-looking wrong answer: a model answer is the right one with its checked citation; anything else is a marked fallback.
      if (!json.fallback) {
        expect(json.answer).toContain(ANSWER);
        expect(json.citations.map((c: { text: string }) => c.text)).toEqual(['shop/pricing.py:13-15']);
      } else expect(json.answer).toMatch(/This is a fallback, not an answer|No answer could be written/);
      const calls = run.trace.roleCalls as Array<{ role: string; ok: boolean; cut?: boolean; reasoning?: string; note?: string; tokensCounted?: string }>;
      if (name.includes('think')) expect(calls[0]!.reasoning).toContain('{"score": 10}');
      if (name === 'cut once') expect(calls[0]).toMatchObject({ ok: false, cut: true });
      if (name === 'no usage') expect(calls.every((c) => c.tokensCounted === 'local')).toBe(true);
      if (name.startsWith('o-series')) expect(calls[0]!.note).toMatch(/max_completion_tokens.*temperature/);
    });
  });

  describe('eval sweqa', () => {
    const SCORES = { correctness: 15, completeness: 14, relevance: 16, clarity: 15, reasoning: 14, total: 74 };
    const ANSWER = '`with_tax` (shop/pricing.py:13-15) adds tax at `TAX_RATE`.';
    const clean = (request: ScriptedRequest) => (/^\[role: judge\]/.test(request.prompt) ? JSON.stringify(SCORES) : ANSWER);
    let questions: string;
    let repos: string;
    beforeAll(() => {
      repos = join(dir, `sweqa-repos-${provider}`);
      mkdirSync(repos, { recursive: true });
      const sha = createFixtureGitRepo(repos, 'acme/shop');
      questions = join(dir, `q-${provider}.jsonl`);
      writeFileSync(questions, `${JSON.stringify({ id: 'q1', repo: 'acme/shop', commit_short: sha.slice(0, 7), qtype_first_word: 'where', question: 'Where is tax added?', answer: 'with_tax' })}\n`);
    });
    beforeEach(() => {
      process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
      delete process.env.REPONAV_LLM_MODEL;
    });

    async function sweqa(out: string, extra: string[] = []): Promise<{ error: Run['error']; summary: any; records: any[] }> {
      Object.assign(process.env, envFor(provider), { REPONAV_JUDGE_BASE_URL: server.openaiBaseUrl, REPONAV_JUDGE_API_KEY: 'test-key' });
      const program = new Command('reponav').exitOverride();
      registerSweqaCommand(program.command('eval'), { signal: new AbortController().signal });
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      let error: Run['error'] = null;
      try {
        await program.parseAsync([
          'node', 'reponav', 'eval', 'sweqa', '--questions', questions, '--repos', repos, ...modelArgs(provider),
          '--judges', provider === 'anthropic' ? 'anthropic:judge' : 'openai-compatible:judge', '--method', 'rag', '--out', out, '--index-dir', join(dir, `sweqa-index-${provider}`), ...extra,
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      } finally {
        vi.restoreAllMocks();
      }
      const records = readFileSync(join(out, 'answers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      return { error, summary: readTrace(join(out, 'summary.json')), records };
    }

    it.each(stylesFor('eval sweqa', provider).map((s) => [s.name, s] as const))('eval sweqa: %s', async (name, style) => {
      server = await startScriptedLlmServer({ rejects: style.rejects });
      script(style, clean);
      const out = join(dir, `sweqa-out-${++runs}`);
      // The resume keeps the first run's flags (a different flag would be refused as changed settings).
      const flags = style.shortTimeout ? SHORT_TIMEOUT : [];
      const run = await sweqa(out, flags);
      const record = run.records.at(-1);
      const judgedBefore = server.requests.some((r) => /^\[role: judge\]/.test(r.prompt));
      const before = server.requests.length;
      server.setDefault((request) => ({ text: clean(request) }));
      const resumed = await sweqa(out, flags);
      const redone = resumed.records.length > run.records.length;
      const resumeCalls = server.requests.slice(before);
      const reanswered = resumeCalls.some((r) => !/^\[role: judge\]/.test(r.prompt));
      const after = resumed.records.at(-1);
      observations.push({
        surface: 'eval sweqa', style: name, provider, exit: exitOf(run.error), stopReason: `\`${record.stopReason ?? '-'}\``,
        saved: record.status === 'ok' ? `\`ok\`, judged (total ${record.total})` : `\`${record.status}\` (\`${String(record.reason).split(':')[0]}\`), never judged`,
        resume: !redone ? 'kept, not redone' : `${reanswered ? 'answered and judged again' : 'judged again, not re-answered'} (\`${after.status}\`, total ${after.total})`,
      });
      expect(run.error).toBeNull();
      if (style.outage) {
        // An outage is an error record, never judged; a resume with the model repaired answers it again.
        expect(run.summary.errors).toEqual([{ id: 'q1', reason: expect.stringMatching(/^llm-error: /) }]);
        expect(record).toMatchObject({ id: 'q1', status: 'error', reason: expect.stringMatching(/^llm-error/) });
        expect(run.summary.counts).toMatchObject({ ok: 0, errors: 1 });
        expect(judgedBefore).toBe(false);
        expect(reanswered).toBe(true);
        expect(resumed.records.at(-1)).toMatchObject({ id: 'q1', status: 'ok', total: 74 });
        expect(resumed.summary.counts).toMatchObject({ ok: 1, errors: 0 });
        return;
      }
      // Never a judged wrong answer: an `ok` record holds the right answer; an `unscored` one is judged again without re-answering.
      if (record.status === 'ok') expect(record.answer).toContain('with_tax');
      expect(redone).toBe(record.status !== 'ok');
      if (record.status === 'unscored') expect(reanswered).toBe(false);
    });
  });
});

describe('the tables in the docs', () => {
  it('are what the rows above observed (UPDATE_GOLDEN=1 rewrites them)', () => {
    checkDocTables(observations);
  });
});
