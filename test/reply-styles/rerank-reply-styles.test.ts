/**
 * The reply-style rows of the model reranker: `reponav localize
 * --rerank-model`, in process, against the scripted endpoint in each reply
 * style real endpoints produce, for both wire formats. Each row asserts the
 * exit (an error or not), the order printed and what the trace saved; no row
 * may print the retrieval order as if the model had ranked it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerLocalizeCommand } from '../../src/cli/commands/localize-command.js';
import { silentLogger } from '../../src/logger.js';
import { createFixtureRepo, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { replies, startScriptedLlmServer, styles, type ScriptedLlmServer, type ScriptedRequest, type StyledReply, type WireProvider } from '../helpers/scripted-llm-server.js';
import { favouring, promptCandidates } from '../rerank/rerank-helpers.js';

/** The function the scripted model ranks first; retrieval does not put it first for this issue. */
const FAVOURITE = 'shop/cart.py:Cart.total';
const ISSUE = 'Applying SAVE10 twice doubles the discount.';

interface Style {
  name: string;
  /** The reply for the clean ranking `text` (`[2] > [1] > …`) on call `n` of the run. */
  write(text: string, n: number, request: ScriptedRequest): StyledReply;
  rejects?: Array<'max_tokens' | 'temperature'>;
  only?: WireProvider;
  /** An outage: the run must fail with LLM_ERROR matching this. */
  fails?: RegExp;
}

/** The clean ranking as a list of numbers (`[2] > [1]` → [2, 1]). */
const numbers = (text: string): number[] => [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
/** The drafted ranking a reasoning block holds: the reverse of the real one. */
const draft = (text: string): string => numbers(text).reverse().map((i) => `[${i}]`).join(' > ');

const STYLES: Style[] = [
  { name: 'clean', write: (text) => ({ text }) },
  { name: 'inline <think> holding a drafted ranking', write: (text) => ({ text: styles.think(`Maybe ${draft(text)}`, text) }) },
  { name: 'template-opened </think>', write: (text) => ({ text: styles.openedByTemplate(`Maybe ${draft(text)}`, text) }) },
  { name: 'reasoning_content only', write: (text) => replies.reasoningOnly(text), only: 'openai' },
  { name: 'thinking block and the text', write: (text) => ({ text, reasoning: `Maybe ${draft(text)}` }), only: 'anthropic' },
  { name: 'JSON array in a fence', write: (text) => ({ text: styles.fenced(numbers(text)) }) },
  { name: 'prose around the ranking', write: (text) => ({ text: `Here is my ranking:\n${text}\nThe first one computes the total.` }) },
  { name: 'bare numbers', write: (text) => ({ text: numbers(text).join(' > ') }) },
  { name: 'names instead of identifiers', write: (text, _n, request) => ({ text: numbers(text).map((i) => promptCandidates(request)[i - 1]).join('\n') }) },
  { name: 'cut once', write: (text, n) => (n === 1 ? replies.cut(text.slice(0, 5)) : { text }) },
  { name: 'no usage', write: (text) => replies.noUsage(text) },
  { name: 'o-series endpoint refusing max_tokens and temperature', write: (text) => ({ text }), rejects: ['max_tokens', 'temperature'], only: 'openai' },
  { name: 'empty always', write: () => replies.empty(), fails: /empty-reply|empty/ },
  { name: '429 with Retry-After then 500s', write: () => ({ status: 500 }), fails: /HTTP 500; gave up after 4 attempts/ },
];

let repo: FixtureRepo;
let server: ScriptedLlmServer | undefined;
let runs = 0;
beforeAll(() => {
  repo = createFixtureRepo();
});
afterAll(() => repo.cleanup());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Run {
  stdout: string;
  error: { code?: string; message: string } | null;
  trace: any;
}

async function rerank(provider: WireProvider, style: Style, extra: string[] = []): Promise<Run> {
  server = await startScriptedLlmServer({ rejects: style.rejects });
  let n = 0;
  const clean = favouring('Cart.total');
  server.setDefault((request) => style.write(clean(request).text!, ++n, request));
  if (style.name.startsWith('429')) server.push({ status: 429, retryAfterSeconds: 1 });
  const env = provider === 'anthropic'
    ? { ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: 'test-key' }
    : { REPONAV_LLM_BASE_URL: server.openaiBaseUrl, REPONAV_LLM_API_KEY: 'test-key' };
  const model = provider === 'anthropic' ? 'anthropic:claude-scripted' : 'openai-compatible:scripted-model';
  let stdout = '';
  const trace = join(repo.dir, `rerank-suite-${++runs}.json`);
  const program = new Command('reponav').exitOverride().configureOutput({ writeOut: (s) => (stdout += s), writeErr: () => undefined });
  registerLocalizeCommand(program, { env, logger: silentLogger, stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => undefined } });
  let error: Run['error'] = null;
  try {
    await program.parseAsync([
      'node', 'reponav', 'localize', '--repo', repo.root, '--issue', ISSUE, '--index-path', repo.indexPath('rerank-suite'),
      '--rerank-model', model, '--llm-retries', '3', '--json', '-q', '--trace', trace, ...extra,
    ]);
  } catch (caught) {
    error = caught as Run['error'];
  }
  let saved: unknown = null;
  try {
    saved = JSON.parse(readFileSync(trace, 'utf8'));
  } catch {
    saved = null;
  }
  return { stdout, error, trace: saved };
}

describe.each(['openai', 'anthropic'] as const)('%s endpoint: reranker reply styles', (provider) => {
  const rows = STYLES.filter((s) => !s.only || s.only === provider);

  it.each(rows.map((s) => [s.name, s] as const))('%s', async (name, style) => {
    const run = await rerank(provider, style);
    if (style.fails) {
      // An outage: a non-zero exit naming the cause, nothing printed, no trace passing for a ranking.
      expect(run.error).toMatchObject({ code: 'LLM_ERROR' });
      expect(run.error!.message).toMatch(style.fails);
      expect(run.stdout).toBe('');
      expect(run.trace).toBeNull();
      return;
    }
    expect(run.error).toBeNull();
    const answer = JSON.parse(run.stdout);
    expect(answer).toMatchObject({ mode: 'rerank', order: 'reranked' });
    // The model's ranking was read (its favourite, not retrieval's first, is first), never a drafted one.
    expect(run.trace.input[0]).not.toBe(FAVOURITE);
    expect(answer.found_entities[0]).toBe(FAVOURITE);
    const attempts = run.trace.windows[0].attempts as Array<{ cut: boolean; reasoning?: string; notes?: string[]; format: string; usage: { counted?: string } }>;
    if (name.includes('think') || name.includes('thinking') || name.startsWith('reasoning')) expect(attempts[0]!.reasoning).toBeTruthy();
    if (name === 'cut once') expect(attempts.map((a) => a.cut)).toEqual([true, false]);
    if (name === 'JSON array in a fence') expect(attempts[0]!.format).toBe('json-array');
    if (name === 'names instead of identifiers') expect(attempts[0]!.format).toBe('names');
    if (name === 'no usage') expect(attempts[0]!.usage.counted).toBe('local');
    if (name.startsWith('o-series')) expect(attempts[0]!.notes?.join(' ')).toMatch(/max_completion_tokens|temperature/);
    expect(answer.rerank.inputTokens).toBeGreaterThan(0);
  });

  it('a hang past --llm-timeout', async () => {
    const run = await rerank(provider, { name: 'hang', write: () => replies.hang(5_000) }, ['--llm-timeout', '0.2', '--llm-retries', '0']);
    expect(run.error).toMatchObject({ code: 'LLM_ERROR', message: expect.stringMatching(/timed out|timeout/) });
    expect(run.stdout).toBe('');
  });

  it('unknown and repeated identifiers are ignored and counted; missing ones keep their retrieval order', async () => {
    const run = await rerank(provider, { name: 'sloppy', write: (text) => ({ text: `${text.split(' > ')[0]} > [42] > ${text.split(' > ')[0]}` }) });
    expect(run.error).toBeNull();
    const answer = JSON.parse(run.stdout);
    expect(answer.found_entities[0]).toBe(FAVOURITE);
    expect(answer.rerank).toMatchObject({ unknownIds: 1, repeatedIds: 1 });
    expect(answer.rerank.missingIds).toBe(answer.rerank.candidates - 1);
    const rest = run.trace.input.filter((id: string) => id !== FAVOURITE);
    expect(answer.found_entities.slice(1, rest.length + 1)).toEqual(rest);
  });
});
