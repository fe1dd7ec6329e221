/**
 * Generated replies against every agent role, in process, through the real
 * clients (the `openai` SDK, the Anthropic fetch client) and the scripted
 * endpoint on 127.0.0.1: the ask roles (a JSON role, the answer writer), the
 * SWE-QA judge, the localization agent, and the agent through the LocBench
 * harness's localizer (`eval locbench --mode agent`: a prediction, or a
 * throw the harness records as a skip and redoes on resume). Each combination's reply comes
 * from independent dimensions (reply-generator.ts); every later request gets
 * a complete fallback reply. The property, for every combination: a result
 * carries text of the generated reply only when the model finished it (the
 * oracle), a draft only where the documented reasoning fallback allows it,
 * never a refusal (a refusal written as text under a normal stop ends the
 * role with an error), never a native tool call, and for the answer writer
 * never the text beside one (the model waits for tool results); otherwise the role ends with an error of one line; and it never runs past
 * its deadline plus slack. A failure names the seed and the combination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvaluationSchema } from '../../src/agents/ask/evaluation-role.js';
import { callJsonRole, callTextRole, type RoleRuntime } from '../../src/agents/ask/role-caller.js';
import { RunBudget, SearchStop } from '../../src/agents/ask/run-budget.js';
import { createAgentLocalizer, openAgentWorkspace, resolveAgentInterface, runLocalizationAgent, type AgentLocalizer, type AgentWorkspace } from '../../src/agents/localize/index.js';
import { judgeAnswer } from '../../src/eval/sweqa/judge.js';
import { UsageMeter, type ChatModel } from '../../src/llm/index.js';
import { silentLogger } from '../../src/logger.js';
import { createFixtureRepo, type FixtureRepo } from '../agents-localize/agent-fixture.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../helpers/scripted-llm-server.js';
import { describeCombination, draftMayAnswer, generateCombinations, isPlainRefusal, modelFinished, render, type Combination, type RoleTexts } from './reply-generator.js';

const SEED = Number(process.env.REPONAV_REPLY_SEED ?? 4141);
const PER_ROLE = 500;
/**
 * Combinations through the harness's localizer, after the others: it runs the
 * same agent loop as `localize` (500 above) and adds only how a trajectory
 * becomes a prediction or a skip, at several times the cost of a run (a commit
 * view and an index slot per instance).
 */
const LOCBENCH = 100;
const LANES = 16;
/**
 * Per-attempt model timeout: short for the stalled bodies, roomy otherwise. A stalled body never
 * ends: a client that did not stop at its timeout would hang the test past its own limit (no clock read here).
 */
const timeoutOf = (c: Combination) => (c.transport === 'stall' ? 200 : 5_000);

const EVAL: RoleTexts = {
  whole: '{"score": 73, "rationale": "The call site applies the code twice."}',
  draft: '{"score": 11, "rationale": "draft"}',
  cut: '{"score": 73, "rationale": "The call site appl',
  otherLanguage: '{"score": 73, "rationale": "折扣代码被应用了两次。"}',
  fallback: '{"score": 42, "rationale": "fallback"}',
};
const ANSWER: RoleTexts = {
  whole: 'WHOLE-ANSWER: `compute_tax` (shop/pricing.py:4-6) adds the regional tax.',
  draft: 'DRAFT-ANSWER: probably somewhere in pricing.',
  cut: 'WHOLE-ANSWER: `compute_tax` (shop/pricing.py:4-6) adds the regi',
  otherLanguage: 'WHOLE-ANSWER：`compute_tax`（shop/pricing.py:4-6）加上地区税。',
  fallback: 'FALLBACK-ANSWER: `compute_tax` adds tax.',
};
const JUDGE: RoleTexts = {
  whole: '{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 14, "total": 74}',
  draft: '{"correctness": 4, "completeness": 4, "relevance": 4, "clarity": 4, "reasoning": 4, "total": 20}',
  cut: '{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 1',
  otherLanguage: '评分：{"correctness": 16, "completeness": 12, "relevance": 18, "clarity": 14, "reasoning": 14, "total": 74}',
  fallback: '{"correctness": 12, "completeness": 12, "relevance": 12, "clarity": 12, "reasoning": 12, "total": 60}',
};
const answerBlock = (functions: string[]) => `\`\`\`answer\n${JSON.stringify({ files: [...new Set(functions.map((f) => f.split(':')[0]))], functions })}\n\`\`\``;
const LOCALIZE: RoleTexts = {
  whole: answerBlock(['shop/cart.py:Cart.apply_discount']),
  draft: answerBlock(['shop/pricing.py:compute_tax']),
  cut: '```answer\n{"files": ["shop/cart.py"], "functions": ["shop/cart.py:Cart.apply_disc',
  otherLanguage: `问题在购物车的折扣代码里。\n${answerBlock(['shop/cart.py:Cart.apply_discount'])}`,
  fallback: answerBlock(['shop/cli.py:main']),
};

/** What a role produced: the text of its result (null for none) and the error it ended with (null for none). */
interface RoleResult {
  result: string | null;
  error: string | null;
}

/** `locbench` is the agent through the harness's localizer (`eval locbench --mode agent`): a prediction, or a throw the harness records as a skip. */
type Role = 'evaluation' | 'answer' | 'judge' | 'localize' | 'locbench';
const ROLES: Role[] = ['evaluation', 'answer', 'judge', 'localize'];
const TEXTS: Record<Role, RoleTexts> = { evaluation: EVAL, answer: ANSWER, judge: JUDGE, localize: LOCALIZE, locbench: LOCALIZE };
/** Markers of the generated reply's own text, and of its draft, in each role's result. */
const WHOLE_MARK: Record<Role, RegExp> = { evaluation: /^73$/, answer: /WHOLE-ANSWER/, judge: /^74$/, localize: /Cart\.apply_discount/, locbench: /Cart\.apply_discount/ };
const DRAFT_MARK: Record<Role, RegExp> = { evaluation: /^11$/, answer: /DRAFT-ANSWER/, judge: /^20$/, localize: /compute_tax/, locbench: /compute_tax/ };

let repo: FixtureRepo;
let workspace: AgentWorkspace;
const servers: ScriptedLlmServer[] = [];
/** The harness localizers, one per lane, wire format and timeout (a localizer's model is fixed when it is made). */
const localizers = new Map<string, Promise<AgentLocalizer>>();

beforeAll(async () => {
  repo = createFixtureRepo();
  workspace = await openAgentWorkspace({ repoPath: repo.root, iface: resolveAgentInterface('reponav'), indexPath: repo.indexPath('generated') });
  for (let i = 0; i < LANES; i++) servers.push(await startScriptedLlmServer());
}, 60_000);
afterAll(async () => {
  await Promise.all([...localizers.values()].map(async (l) => (await l).close()));
  await Promise.all(servers.map((s) => s.close()));
  await workspace?.close();
  repo?.cleanup();
});

function runtime(model: ChatModel): RoleRuntime {
  const meter = new UsageMeter({});
  return { model, budget: new RunBudget({ settings: { budgetSeconds: 10, answerReserve: 0 }, meter }), records: [], logger: silentLogger };
}

async function askRole(model: ChatModel, role: 'evaluation' | 'answer', tag: string): Promise<RoleResult> {
  const rt = runtime(model);
  const req = { role, nodeId: 1, iteration: 1, messages: [{ role: 'user' as const, content: `Reply as the ${role} role (JSON when asked). ${tag}` }], temperature: 0 };
  try {
    if (role === 'evaluation') {
      const reply = await callJsonRole(rt, req, EvaluationSchema);
      return reply.ok ? { result: String(reply.value.score), error: null } : { result: null, error: reply.error };
    }
    const reply = await callTextRole(rt, req);
    return reply.ok ? { result: reply.value, error: null } : { result: null, error: reply.error };
  } catch (error) {
    if (error instanceof SearchStop) return { result: null, error: rt.llmFailure ?? error.message };
    throw error;
  }
}

async function judgeRole(model: ChatModel, tag: string): Promise<RoleResult> {
  const result = await judgeAnswer([model], { question: `Where is tax added? ${tag}`, reference: 'compute_tax', candidate: 'In compute_tax.' });
  const verdict = result.verdicts[0]!;
  return verdict.ok ? { result: String(verdict.total), error: null } : { result: null, error: verdict.error ?? '' };
}

async function localizeRole(model: ChatModel, tag: string): Promise<RoleResult> {
  const trajectory = await runLocalizationAgent({
    model,
    issue: `Applying the discount code SAVE10 twice doubles the discount. ${tag}`,
    iface: resolveAgentInterface('reponav'),
    shell: workspace.shell,
    tools: workspace.tools,
    maxSteps: 4,
    deadlineMs: 10_000,
    repoRoot: workspace.view.root,
    logger: silentLogger,
  });
  if (trajectory.stopReason === 'answered') return { result: trajectory.answer.functions.join(' '), error: null };
  return { result: null, error: trajectory.error ?? trajectory.stopReason };
}

async function locbenchRole(lane: number, c: Combination, tag: string): Promise<RoleResult> {
  const server = servers[lane]!;
  const key = `${lane}/${c.provider}/${timeoutOf(c)}`;
  if (!localizers.has(key)) {
    const baseUrl = c.provider === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl;
    const model = { model: `${c.provider === 'anthropic' ? 'anthropic' : 'openai-compatible'}:scripted-model`, baseUrl, maxRetries: 1, timeoutMs: timeoutOf(c), retryBaseDelayMs: 1 };
    const settings = { model, maxSteps: 4, deadlineSeconds: 10, indexDir: `${repo.dir}/locbench-index` };
    localizers.set(key, createAgentLocalizer({ interface: 'reponav', settings }, { env: { REPONAV_LLM_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key' }, viewTempRoot: repo.dir }));
  }
  const localizer = await localizers.get(key)!;
  try {
    const prediction = await localizer.localize({ instanceId: tag, repo: 'acme/shop', gitDir: repo.root, commit: repo.head, query: `Applying the discount code SAVE10 twice doubles the discount. ${tag}` });
    return { result: prediction.found_entities.join(' '), error: null };
  } catch (error) {
    return { result: null, error: error instanceof Error ? error.message : String(error) };
  }
}

async function runOne(lane: number, role: Role, c: Combination, tag: string): Promise<RoleResult> {
  const server = servers[lane]!;
  // The generated reply answers the first request that carries this combination's tag, the fallback every later one:
  // a request of another combination (a late retry) can never take it.
  let served = false;
  server.setDefault((request) => {
    if (!request.prompt.includes(tag) || served) return { text: TEXTS[role].fallback };
    served = true;
    return render(c, TEXTS[role]);
  });
  const model = server.model(c.provider, { maxRetries: 1, timeoutMs: timeoutOf(c), retryBaseDelayMs: 1 });
  switch (role) {
    case 'evaluation':
    case 'answer':
      return askRole(model, role, tag);
    case 'judge':
      return judgeRole(model, tag);
    case 'localize':
      return localizeRole(model, tag);
    case 'locbench':
      return locbenchRole(lane, c, tag);
  }
}

/** The roles whose actions may come as native tool calls (the localization agent, in both its entry points). */
const READS_TOOL_CALLS: ReadonlySet<Role> = new Set<Role>(['localize', 'locbench']);

/** Every way the property can fail for one run, as sentences (empty when it holds). */
function violations(role: Role, c: Combination, run: RoleResult): string[] {
  const problems: string[] = [];
  if (run.result !== null) {
    if (WHOLE_MARK[role].test(run.result) && !modelFinished(c)) problems.push(`the result ${JSON.stringify(run.result.slice(0, 80))} came from a reply the model did not finish`);
    if (DRAFT_MARK[role].test(run.result) && !draftMayAnswer(c)) problems.push(`the result ${JSON.stringify(run.result.slice(0, 80))} is the draft in the reasoning`);
    if (c.phrase !== undefined && c.content === 'refusal-text' && run.result.includes(c.phrase)) problems.push(`the result ${JSON.stringify(run.result.slice(0, 80))} is the refusal`);
    // A native tool call is a request for tools: never part of a result, and the answer writer's text beside one is not its answer.
    if (/"arguments"|"name"\s*:\s*"search"/.test(run.result)) problems.push(`the result ${JSON.stringify(run.result.slice(0, 120))} holds a tool call`);
    // Only the agents whose actions come as tool calls read them; for every other role (answer writer, evaluation, judge) a reply that calls tools is no result.
    if (!READS_TOOL_CALLS.has(role) && c.tools !== 'none' && WHOLE_MARK[role].test(run.result)) problems.push(`the text beside native tool calls was taken as the ${role} role's result (${JSON.stringify(run.result.slice(0, 80))})`);
    // The judge re-asks any reply that is not an answer once (judge.ts); the other roles end.
    if (isPlainRefusal(c) && role !== 'judge') problems.push(`a refusal written as text under a normal stop ended with a result (${JSON.stringify(run.result.slice(0, 80))}), not an error`);
  } else if (!run.error || run.error.includes('\n')) {
    problems.push(`the failure did not say why in one line: ${JSON.stringify(run.error)}`);
  }
  // The other direction: an answer that opens with an apology is still the answer.
  if (c.content === 'apologetic' && c.transport === 'ok' && c.stop === 'normal' && c.tools === 'none' && !(run.result !== null && WHOLE_MARK[role].test(run.result))) {
    problems.push(`an answer opened by ${JSON.stringify(c.phrase)} was not taken as the answer (result ${JSON.stringify(run.result?.slice(0, 80) ?? null)}, error ${JSON.stringify(run.error)})`);
  }
  return problems;
}

describe('generated replies against every agent role (real clients, scripted endpoint)', () => {
  it(`${PER_ROLE} seeded combinations per role (${LOCBENCH} through the harness): a result only from a reply the model finished, else an error in one line; never past the deadline`, async () => {
    const combinations = generateCombinations(SEED, PER_ROLE * ROLES.length + LOCBENCH);
    const failures: string[] = [];
    let finishedResults = 0;
    const finishedBy = new Map<Role, number>();
    let refusalsRefused = 0;
    const lane = async (l: number) => {
      for (let i = l; i < combinations.length; i += LANES) {
        const role: Role = i < PER_ROLE * ROLES.length ? ROLES[i % ROLES.length]! : 'locbench';
        const c = combinations[i]!;
        let run: RoleResult;
        try {
          run = await runOne(l, role, c, `[combination ${i}]`);
        } catch (error) {
          run = { result: null, error: `threw: ${error instanceof Error ? error.message : String(error)}` };
          failures.push(`${describeCombination(SEED, i, role, c)}: the role threw instead of ending with an error (${run.error})`);
        }
        for (const problem of violations(role, c, run)) failures.push(`${describeCombination(SEED, i, role, c)}: ${problem}`);
        if (run.result !== null && WHOLE_MARK[role].test(run.result)) {
          finishedResults += 1;
          finishedBy.set(role, (finishedBy.get(role) ?? 0) + 1);
        }
        if (isPlainRefusal(c) && role !== 'judge' && run.result === null) refusalsRefused += 1;
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, l) => lane(l)));
    expect(failures.slice(0, 5), `${failures.length} failing combinations (rerun one with REPONAV_REPLY_SEED=${SEED})`).toEqual([]);
    // The generator must also reach the success path, or the property holds vacuously.
    expect(finishedResults).toBeGreaterThan(PER_ROLE / 4);
    // Every role reaches it, the harness's localizer included (an index or view failure there would make every run an error);
    // a twentieth of a role's combinations: a tool call in any of them (a fifth of the tool values are none) leaves the evaluation and judge roles without a result.
    for (const role of [...ROLES, 'locbench'] as const) expect(finishedBy.get(role) ?? 0, `${role}: results from finished replies`).toBeGreaterThan(role === 'locbench' ? LOCBENCH / 10 : PER_ROLE / 20);
    expect(refusalsRefused).toBeGreaterThan(30);
  }, 300_000);
});
