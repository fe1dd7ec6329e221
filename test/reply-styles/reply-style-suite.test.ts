/**
 * The reply-style suite: `reponav localize` and `reponav ask`, in process,
 * against the scripted endpoint (test/helpers/scripted-llm-server.ts) in each
 * reply style real endpoints produce, for both wire formats. Each row asserts
 * the exit (an error or not), the stop reason and what the run saved (the
 * trace). No row may end in a success-looking result that is wrong.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerAskCommand } from '../../src/cli/commands/ask-command.js';
import { registerLocalizeCommand } from '../../src/cli/commands/localize-command.js';
import { registerSweqaCommand } from '../../src/cli/commands/sweqa-command.js';
import { silentLogger } from '../../src/logger.js';
import { createFixtureRepo, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { createFixtureGitRepo, writeFixtureFiles } from '../agents-ask/helpers/fixture-repo.js';
import { replies, startScriptedLlmServer, styles, type ScriptedLlmServer, type ScriptedRequest, type StyledReply, type WireProvider } from '../helpers/scripted-llm-server.js';

/** How a style writes one reply, given the clean text of that reply. `undefined` keeps the scripted default. */
interface Style {
  name: string;
  /** The reply for clean text `text` on call number `n` (1-based) of the run. */
  write(text: string, n: number): StyledReply | StyledReply[];
  /** Endpoint refusals (o-series). */
  rejects?: Array<'max_tokens' | 'temperature'>;
  /** Only for one wire format. */
  only?: WireProvider;
}

const STYLES: Style[] = [
  { name: 'clean', write: (text) => ({ text }) },
  { name: 'inline <think> holding a drafted reply', write: (text) => ({ text: styles.think('```answer\n{"files": ["shop/__init__.py"]}\n```\n{"score": 10}', text) }) },
  { name: 'reasoning_content only', write: (text) => replies.reasoningOnly(text), only: 'openai' },
  { name: 'thinking block and the text', write: (text) => ({ text, reasoning: 'Let me think: {"score": 10}' }), only: 'anthropic' },
  { name: 'native tool calls', write: (text) => nativeCall(text) },
  { name: 'cut once', write: (text, n) => (n === 1 ? replies.cut(text.slice(0, 12)) : { text }) },
  { name: 'no usage', write: (text) => replies.noUsage(text) },
  { name: 'o-series endpoint refusing max_tokens and temperature', write: (text) => ({ text }), rejects: ['max_tokens', 'temperature'], only: 'openai' },
  { name: 'empty always', write: () => replies.empty() },
  { name: '429 with Retry-After then 500s', write: () => ({ status: 500 }) },
];

/** The reply as a native tool call (`tool_calls` / `tool_use`) when it is a tool block; JSON replies stay text. */
function nativeCall(text: string): StyledReply {
  const block = /```tool\n([\s\S]*?)\n```/.exec(text);
  if (!block) return { text };
  const { tool, args } = JSON.parse(block[1]!) as { tool: string; args: Record<string, unknown> };
  return replies.toolCall(tool, args);
}

const PROVIDERS: WireProvider[] = ['openai', 'anthropic'];

interface Run {
  stdout: string;
  error: { code?: string; message: string } | null;
  trace: any;
}

let dir: string;
let server: ScriptedLlmServer;
let runs = 0;
const savedEnv = { ...process.env };

function modelArgs(provider: WireProvider): string[] {
  return ['--model', provider === 'anthropic' ? 'anthropic:claude-scripted' : 'openai-compatible:scripted-model'];
}

function envFor(provider: WireProvider): Record<string, string> {
  return provider === 'anthropic'
    ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
    : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
}

/** Scripts the server: call n of the run gets `style.write(clean(request), n)`. */
function script(style: Style, clean: (request: ScriptedRequest) => string): void {
  let n = 0;
  const pending: StyledReply[] = [];
  server.setDefault((request) => {
    if (pending.length > 0) return pending.shift()!;
    const written = style.write(clean(request), ++n);
    const list = Array.isArray(written) ? written : [written];
    pending.push(...list.slice(1));
    return list[0]!;
  });
  if (style.name.startsWith('429')) server.push({ status: 429, retryAfterSeconds: 1 });
}

/** The saved trace, or null when the run wrote none. */
function readTrace(file: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-reply-suite-'));
  writeFixtureFiles(join(dir, 'shop'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  process.env = { ...savedEnv };
  vi.restoreAllMocks();
  await server?.close();
});

describe.each(PROVIDERS)('%s endpoint: reply styles', (provider) => {
  const rows = STYLES.filter((s) => !s.only || s.only === provider);

  describe('localize', () => {
    let repo: FixtureRepo;
    beforeAll(() => {
      repo = createFixtureRepo();
    });
    afterAll(() => repo.cleanup());

    const TOOL = '```tool\n{"tool": "search", "args": {"query": "discount applied twice"}}\n```';
    const ANSWER = '```answer\n{"files": ["shop/cart.py"], "functions": ["shop/cart.py:Cart.apply_discount"]}\n```';
    /** Search until the search's output was shown, then answer. */
    const clean = (request: ScriptedRequest) =>
      request.body.messages.slice(2).some((m: { role: string; content: string }) => m.role === 'user' && m.content.includes('shop/cart.py')) ? ANSWER : TOOL;

    async function localize(style: Style, extra: string[] = []): Promise<Run> {
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
          ...modelArgs(provider), '--llm-retries', '3', '--max-steps', '6', '--json', '-q', '--trace', trace, ...extra,
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      }
      return { stdout, error, trace: readTrace(trace) };
    }

    it.each(rows.map((s) => [s.name, s] as const))('%s', async (name, style) => {
      const run = await localize(style);
      if (name === 'empty always' || name.startsWith('429')) {
        // An outage: a non-zero exit naming the cause, stop reason llm-error, no answer printed.
        expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
        expect(run.error!.message).toMatch(name === 'empty always' ? /empty-reply/ : /HTTP 500; gave up after 4 attempts/);
        expect(run.stdout).toBe('');
        expect(run.trace).toMatchObject({ stopReason: 'llm-error', answerSource: 'none' });
        return;
      }
      expect(run.error).toBeNull();
      expect(JSON.parse(run.stdout)).toMatchObject({ stopReason: 'answered', found_files: ['shop/cart.py'] });
      const steps = run.trace.steps as Array<{ tool?: string; action: string; cut?: boolean; reasoning?: string; notes?: string[] }>;
      // The drafted answer inside <think> never ran: step 1 is the search, the answer is the real one.
      expect(steps.find((s) => s.action !== 'truncated')!.tool).toBe('search');
      if (name === 'cut once') expect(steps[0]).toMatchObject({ action: 'truncated', cut: true });
      if (name.includes('think')) expect(steps[0]!.reasoning).toContain('{"score": 10}');
      if (name === 'no usage') expect(steps[0]!.notes).toEqual([expect.stringMatching(/counted locally \(o200k_base\)/)]);
      // localize sends no output limit unless asked, so only the temperature is refused and learned.
      if (name.startsWith('o-series')) expect(steps[0]!.notes).toEqual([expect.stringMatching(/omitting temperature/)]);
      expect(run.trace.stats.totalTokens).toBeGreaterThan(0);
    });

    it('a hang past --llm-timeout', async () => {
      const run = await localize({ name: 'hang', write: () => replies.hang(5_000) }, ['--llm-timeout', '0.2', '--llm-retries', '0']);
      expect(run.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/timed out/) });
      expect(run.stdout).toBe('');
      expect(run.trace).toMatchObject({ stopReason: 'llm-error', answerSource: 'none' });
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
          ...modelArgs(provider), '--iterations', '1', '--json', '-q', '--trace', trace,
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      } finally {
        vi.restoreAllMocks();
      }
      return { stdout, error, trace: readTrace(trace) };
    }

    it.each(rows.map((s) => [s.name, s] as const))('%s', async (name, style) => {
      const run = await ask(style);
      if (name === 'empty always' || name.startsWith('429')) {
        expect(run.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/^No answer \(stopped: llm-error\)/) });
        expect(run.stdout).toBe('');
        expect(run.trace).toMatchObject({ stopReason: 'llm-error' });
        return;
      }
      expect(run.error).toBeNull();
      const json = JSON.parse(run.stdout);
      expect(json).toMatchObject({ stopReason: 'iterations', fallback: false, answer: ANSWER });
      expect(json.citations.map((c: { text: string }) => c.text)).toEqual(['shop/pricing.py:13-15']);
      const calls = run.trace.roleCalls as Array<{ role: string; ok: boolean; cut?: boolean; reasoning?: string; note?: string; tokensCounted?: string }>;
      if (name.includes('think')) expect(calls[0]!.reasoning).toContain('{"score": 10}');
      if (name === 'cut once') expect(calls[0]).toMatchObject({ ok: false, cut: true });
      if (name === 'no usage') expect(calls.every((c) => c.tokensCounted === 'local')).toBe(true);
      if (name.startsWith('o-series')) expect(calls[0]!.note).toMatch(/max_completion_tokens.*temperature/);
    });
  });
  describe('eval sweqa', () => {
    const SWEQA_ROWS = rows.filter((r) => ['clean', 'inline <think> holding a drafted reply', 'reasoning_content only', 'thinking block and the text', 'empty always', '429 with Retry-After then 500s'].includes(r.name));
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

    async function sweqa(out: string): Promise<{ error: Run['error']; summary: any; records: any[] }> {
      Object.assign(process.env, envFor(provider), { REPONAV_JUDGE_BASE_URL: server.openaiBaseUrl, REPONAV_JUDGE_API_KEY: 'test-key' });
      const program = new Command('reponav').exitOverride();
      registerSweqaCommand(program.command('eval'), { signal: new AbortController().signal });
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      let error: Run['error'] = null;
      try {
        await program.parseAsync([
          'node', 'reponav', 'eval', 'sweqa', '--questions', questions, '--repos', repos, ...modelArgs(provider),
          '--judges', provider === 'anthropic' ? 'anthropic:judge' : 'openai-compatible:judge', '--method', 'rag', '--out', out, '--index-dir', join(dir, `sweqa-index-${provider}`),
        ]);
      } catch (caught) {
        error = caught as Run['error'];
      } finally {
        vi.restoreAllMocks();
      }
      const records = readFileSync(join(out, 'answers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      return { error, summary: readTrace(join(out, 'summary.json')), records };
    }

    it.each(SWEQA_ROWS.map((s) => [s.name, s] as const))('%s', async (name, style) => {
      server = await startScriptedLlmServer({ rejects: style.rejects });
      script(style, clean);
      const out = join(dir, `sweqa-out-${++runs}`);
      const run = await sweqa(out);
      if (name === 'empty always' || name.startsWith('429')) {
        // An outage is an error record, never judged; a resume with the model repaired answers it again.
        // The run itself completes (exit 0): the summary counts and names the error.
        expect(run.error).toBeNull();
        expect(run.summary.errors).toEqual([{ id: 'q1', reason: expect.stringMatching(/^llm-error: /) }]);
        expect(run.records.at(-1)).toMatchObject({ id: 'q1', status: 'error', reason: expect.stringMatching(/^llm-error/) });
        expect(run.summary.counts).toMatchObject({ ok: 0, errors: 1 });
        expect(server.requests.some((r) => /^\[role: judge\]/.test(r.prompt))).toBe(false);
        server.setDefault((request) => ({ text: clean(request) }));
        const resumed = await sweqa(out);
        expect(resumed.records.at(-1)).toMatchObject({ id: 'q1', status: 'ok', total: 74 });
        expect(resumed.summary.counts).toMatchObject({ ok: 1, errors: 0 });
        return;
      }
      expect(run.error).toBeNull();
      expect(run.records.at(-1)).toMatchObject({ id: 'q1', status: 'ok', total: 74 });
      expect(run.summary.counts).toMatchObject({ ok: 1, errors: 0 });
    });
  });
});
