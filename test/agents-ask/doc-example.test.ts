/**
 * The example run in docs/question-answering.md is this run: `reponav ask`
 * through the CLI, the real OpenAI client against the scripted fake server,
 * real tools, index and citation check. The test compares the doc's blocks
 * with what the run prints (times replaced by placeholders), so the doc
 * cannot drift from the code. To regenerate the blocks after a deliberate
 * change: REPONAV_WRITE_DOC_EXAMPLE=1 npx vitest run test/agents-ask/doc-example.test.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerAskCommand } from '../../src/cli/commands/ask-command.js';
import { writeFixtureFiles } from './helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';
import { restoreEnv } from '../helpers/process-env.js';

const DOC = new URL('../../docs/question-answering.md', import.meta.url);
const QUESTION = 'How does the cart compute its total with tax and discounts?';
const GOOD_ANSWER =
  '`Cart.total` (shop/cart.py:16-19) sums the item prices, passes the sum to `apply_discount` (shop/pricing.py:6-10), which takes 10% off for the `SAVE10` code, and then to `with_tax` (shop/pricing.py:13-15), which adds `TAX_RATE` and rounds to cents. The discount is therefore applied before tax.';

let dir: string;
let llm: ScriptedLlm;
const savedEnv = { ...process.env };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reponav-ask-doc-'));
  writeFixtureFiles(join(dir, 'shop'));
  // Every call billed 900 in / 120 out, priced as gpt-4o-mini: the cost line is reproducible.
  llm = await startScriptedLlm({ usage: { inputTokens: 900, outputTokens: 120 } });
  process.env.REPONAV_CACHE_DIR = join(dir, 'cache');
  process.env.REPONAV_LLM_BASE_URL = llm.server.openaiBaseUrl;
});
afterAll(async () => {
  restoreEnv(savedEnv);
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The scripted model: what each role says, in order (see the doc's "What happened"). */
function script(): void {
  llm.push(
    'perception',
    JSON.stringify({ summary: 'Nothing found yet.', redundancy: [], gaps: ['where the total is computed', 'how tax and discount are applied'], promising: ['Cart', 'total', 'tax'] }),
  );
  llm.push(
    'planning',
    // Iteration 1 at the root: the second proposal misnames its argument…
    JSON.stringify({
      actions: [
        { action: 'FindFunction', args: { name: 'Cart.total' }, rationale: 'The total is computed by the cart.' },
        { action: 'FindFunction', args: { function_name: 'apply_discount' }, rationale: 'Discounts are applied somewhere.' },
        { action: 'SemanticSearch', args: { query: 'tax rate added to amount' }, rationale: 'Find where tax is added.' },
      ],
    }),
    // …and the corrective round fixes it.
    JSON.stringify({ actions: [{ action: 'FindFunction', args: { name: 'apply_discount' }, rationale: 'Discounts are applied somewhere.' }] }),
    // Iteration 2 at node 1 (Cart.total): read the tax function, or finish.
    planReply(['FindFunction', { name: 'with_tax' }], ['Finish', { reason: 'total, discount and tax are all covered' }]),
  );
  // Later expansions get the default: no actions, so their nodes close and the iteration selects again.
  llm.push('evaluation', evalReply(78), evalReply(64), evalReply(35), evalReply(88), evalReply(92));
  llm.push('answer', GOOD_ANSWER.replace('(shop/pricing.py:13-15)', '(shop/pricing.py:13-15, see also shop/cli.py:99-104)'));
  llm.push('revision', GOOD_ANSWER);
}

async function run(args: string[]): Promise<string> {
  const program = new Command('reponav').exitOverride();
  registerAskCommand(program);
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'reponav', ...args]);
  } finally {
    vi.restoreAllMocks();
  }
  return out;
}

/** Times differ between runs: replaced by placeholders (named in the doc). */
function stableTrace(trace: any): any {
  const t = structuredClone(trace);
  t.startedAt = '<time>';
  t.elapsedMs = '<ms>';
  for (const i of t.iterations) i.elapsedMs = '<ms>';
  for (const c of t.roleCalls) c.latencyMs = '<ms>';
  return t;
}

/** The trace as the doc shows it: long arrays elided with a marker saying what was left out. */
function elided(trace: any): any {
  const t = stableTrace(trace);
  const finish = t.nodes.find((n: any) => n.action?.type === 'Finish');
  const shown = new Set([0, 1, finish?.id]);
  const hidden = t.nodes.filter((n: any) => !shown.has(n.id)).map((n: any) => n.id);
  t.nodes = [t.nodes[0], t.nodes[1], `… nodes ${hidden.join(', ')} elided …`, ...(finish ? [finish] : [])];
  const keep = (list: unknown[], n: number) => (list.length > n ? [...list.slice(0, n), `… ${list.length - n} more …`] : list);
  t.iterations = keep(t.iterations, 3);
  t.answerEvidence = keep(t.answerEvidence, 1);
  t.roleCalls = keep(t.roleCalls, 3);
  t.answer.citations = keep(t.answer.citations, 1);
  return t;
}

/** The fenced block after `<!-- example:NAME -->` in the doc. */
const BLOCK = (name: string) => new RegExp(`(<!-- example:${name} -->\\n\`\`\`\\w+\\n)([\\s\\S]*?)(\\n\`\`\`)`);

describe('docs/question-answering.md example', () => {
  it('is the output of this run against the fake server', async () => {
    script();
    const traceFile = join(dir, 'shop-ask.json');
    const stdout = await run(['ask', QUESTION, '--repo', join(dir, 'shop'), '--index-path', join(dir, 'index.db'), '--model', 'openai-compatible:gpt-4o-mini', '--iterations', '10', '--trace', traceFile, '-q']);
    const trace = JSON.parse(readFileSync(traceFile, 'utf8'));
    // What the doc says happened.
    expect(trace.stopReason).toBe('finish');
    expect(trace.nodes[0].rejected[0].reason).toMatch(/^unknown argument 'function_name'/);
    // The Finish scored 92 in iteration 2 passes its checks and ends the search there.
    expect(trace.iterationsRun).toBe(2);
    expect(trace.iterations.every((i: any) => i.createdIds.length > 0 || i === trace.iterations.at(-1))).toBe(true);
    expect(trace.answer.revised).toBe(true);
    expect(trace.answer.draftProblems[0].text).toBe('shop/cli.py:99-104');

    const blocks: Record<string, string> = {
      'ask-stdout': stdout
        .trimEnd()
        .replace(/; \d+\.\d s$/m, '; <time> s')
        .replace(/^Trace: .*$/m, 'Trace: /tmp/shop-ask.json'),
      'ask-trace': JSON.stringify(elided(trace), null, 2),
    };
    let doc = readFileSync(DOC, 'utf8');
    if (process.env.REPONAV_WRITE_DOC_EXAMPLE === '1') {
      for (const [name, text] of Object.entries(blocks)) doc = doc.replace(BLOCK(name), (_, open: string, _old: string, close: string) => `${open}${text}${close}`);
      writeFileSync(DOC, doc);
    }
    for (const [name, text] of Object.entries(blocks)) {
      const found = BLOCK(name).exec(doc);
      expect(found, `docs/question-answering.md has no <!-- example:${name} --> block`).not.toBeNull();
      expect(found![2]).toBe(text);
    }
  });
});
