/**
 * The search against the scripted fake server through the real client: UCT
 * on a scripted value sequence, back-propagation, sibling dedupe, Finish.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askQuestion } from '../../src/agents/ask/index.js';
import { openFixtureRepo, type FixtureRepo } from './helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';

let repo: FixtureRepo;
let llm: ScriptedLlm;
beforeAll(async () => {
  repo = await openFixtureRepo();
});
afterAll(async () => repo.close());
beforeEach(async () => {
  llm = await startScriptedLlm();
});
afterEach(async () => llm.close());

const QUESTION = 'How does the cart compute its total with tax and discounts?';
const noPlateau = { plateau: { window: 0 } };

describe('MCTS search', () => {
  it('grows the tree as UCT dictates on scripted values and back-propagates them', async () => {
    llm.push(
      'planning',
      planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'with_tax' }], ['SemanticSearch', { query: 'discount code' }]),
      planReply(['ViewCode', { file: 'shop/cart.py', start: 16, end: 19 }], ['FindFunction', { name: 'apply_discount' }], ['FindCodeSnippet', { text: 'TAX_RATE' }]),
      planReply(['FindFunction', { name: 'main' }], ['ViewCode', { file: 'shop/cli.py' }], ['FindClass', { name: 'Cart', file_pattern: '*.py' }]),
    );
    // Iteration 1 scores children 1..3; iteration 2 scores 4..6 (children of node 2); iteration 3 scores 7..9.
    llm.push('evaluation', evalReply(60), evalReply(80), evalReply(40), evalReply(20), evalReply(30), evalReply(10), evalReply(55), evalReply('70'), evalReply(5));
    const result = await askQuestion({
      question: QUESTION,
      model: llm.model(),
      repositories: repo.repositories,
      settings: { iterations: 3, ...noPlateau },
    });
    const { trace } = result;
    expect(result.stopReason).toBe('iterations');
    expect(trace.iterations.map((i) => i.selectedId)).toEqual([0, 2, 1]);
    expect(trace.iterations.map((i) => i.createdIds)).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    const node = (id: number) => trace.nodes[id]!;
    expect(node(1).action?.type).toBe('FindClass');
    expect(node(2).action?.args).toEqual({ name: 'with_tax' });
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => node(id).score)).toEqual([60, 80, 40, 20, 30, 10, 55, 70, 5]);
    // Node 2: its own 80 plus its children 20+30+10; node 1: 60 plus 55+70+5.
    expect(node(2)).toMatchObject({ visits: 4, valueSum: 140 });
    expect(node(1)).toMatchObject({ visits: 4, valueSum: 190 });
    expect(node(3)).toMatchObject({ visits: 1, valueSum: 40 });
    expect(node(0)).toMatchObject({ visits: 9, valueSum: 370 });
    // Every node's value sum is its own value plus its children's sums.
    for (const n of trace.nodes.slice(1)) {
      const childSum = n.childIds.reduce((s, id) => s + node(id).valueSum, 0);
      expect(n.valueSum).toBe((n.score ?? 0) + childSum);
    }
    expect(node(4).depth).toBe(2);
    expect(node(4).evidence[0]).toMatchObject({ path: 'shop/cart.py', startLine: 16, endLine: 19 });
    // The role calls: per expansion one perception and one planning, per child one evaluation, then the answer.
    expect(llm.of('perception')).toHaveLength(3);
    expect(llm.of('evaluation')).toHaveLength(9);
    expect(llm.of('planning').every((c) => c.body.temperature === 0.7)).toBe(true);
    expect(llm.of('answer')[0]!.body.temperature).toBe(0);
    // The answer path follows the best mean: node 1 (190/4) over node 2 (140/4), then its best child 8 (70).
    expect(trace.answerPath).toEqual([0, 1, 8]);
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.citations.every((c) => c.valid)).toBe(true);
    expect(result.cost.calls).toBe(3 + 3 + 9 + 1);
    expect(trace.roleCalls).toHaveLength(result.cost.calls);
    expect(trace.nodes[0]!.tokens.input).toBeGreaterThan(0);
  });

  it('drops a planned duplicate, tells the planner why in one corrective round, and fills the slot from it', async () => {
    llm.push(
      'planning',
      planReply(['FindClass', { name: 'Cart' }], ['find_class', { name: 'cart' }], ['Finish', { reason: 'too early' }], ['SemanticSearch', { query: 'tax' }]),
      planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'total' }]),
    );
    llm.push('evaluation', evalReply(50), evalReply(40), evalReply(45));
    const { trace } = await askQuestion({ question: QUESTION, model: llm.model(), repositories: repo.repositories, settings: { iterations: 1, ...noPlateau } });
    const root = trace.nodes[0]!;
    expect(root.childIds).toEqual([1, 2, 3]);
    expect(trace.iterations[0]!.createdIds).toEqual([1, 2, 3]);
    expect(trace.nodes.slice(1).map((n) => n.action!.key)).toEqual(['FindClass(name=cart)', 'SemanticSearch(query=tax)', 'FindFunction(name=total)']);
    expect(root.rejected.map((r) => r.reason)).toEqual([
      'duplicate within this proposal',
      'Finish before any evidence was found',
      'repeats a sibling branch',
    ]);
    const [, corrective] = llm.of('planning');
    const turns = corrective!.body.messages;
    expect(turns.at(-2).role).toBe('assistant');
    expect(turns.at(-1).content).toContain('2 of your proposals were rejected:\n- find_class {"name":"cart"}: duplicate within this proposal\n- Finish {"reason":"too early"}: Finish before any evidence was found');
    expect(turns.at(-1).content).toContain('Propose up to 1 new action that fixes these problems');
    expect(trace.roleCalls.filter((c) => c.role === 'planning').map((c) => c.note ?? null)).toEqual([null, 'corrective round: the planner was shown why its proposals were rejected']);
  });

  it('refuses an action already on the trajectory (a repeat of an earlier step), recorded on the node', async () => {
    llm.push('planning', planReply(['FindClass', { name: 'Cart' }]), planReply(['find_class', { name: ' cart ' }]), planReply(['FindFunction', { name: 'total' }]));
    llm.push('evaluation', evalReply(50), evalReply(40));
    const { trace } = await askQuestion({ question: QUESTION, model: llm.model(), repositories: repo.repositories, settings: { iterations: 2, maxChildren: 1, ...noPlateau } });
    expect(trace.nodes.slice(1).map((n) => [n.parentId, n.action!.key])).toEqual([[0, 'FindClass(name=cart)'], [1, 'FindFunction(name=total)']]);
    expect(trace.nodes[1]!.rejected.map((r) => r.reason)).toEqual(['repeats a step on the trajectory']);
    expect(llm.of('planning')[2]!.body.messages.at(-1).content).toContain('repeats a step on the trajectory');
  });

  it('re-plans a node left with a free slot and shows what was tried and rejected there', async () => {
    llm.push(
      'planning',
      planReply(['FindClass', { name: 'Cart' }], ['SemanticSearch', { query: 'tax' }], ['ViewCode', { path: 'shop/cart.py' }]),
      planReply(['ViewCode', { path: 'shop/cart.py' }]),
      planReply(['FindFunction', { name: 'total' }]),
    );
    llm.push('evaluation', evalReply(50), evalReply(40), evalReply(45));
    const { trace } = await askQuestion({ question: QUESTION, model: llm.model(), repositories: repo.repositories, settings: { iterations: 2, ...noPlateau } });
    // Iteration 2 re-expanded the root (2 < 3 children) and showed both children and the rejections.
    expect(trace.iterations.map((i) => i.selectedId)).toEqual([0, 0]);
    const secondPlan = llm.of('planning')[2]!.prompt;
    expect(secondPlan).toContain('Already tried here (do not repeat):\n- FindClass(name="Cart") — score 50/100');
    expect(secondPlan).toContain('- SemanticSearch(query="tax") — score 40/100');
    expect(secondPlan).toMatch(/Proposals rejected here before \(do not make these mistakes again\):\n- ViewCode \{"path":"shop\/cart.py"\}: unknown argument 'path' \(ViewCode takes file, start, end, symbol\)/);
    expect(secondPlan).toContain('Propose up to 1 diverse next action.');
    expect(llm.of('perception')[1]!.prompt).toContain('FindClass(name="Cart")');
    expect(trace.nodes[3]!.action!.key).toBe('FindFunction(name=total)');
  });

  it('never wastes an iteration: a re-planned node with nothing new is closed and the iteration expands another node', async () => {
    llm.push(
      'planning',
      planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'with_tax' }]),
      // Iteration 2 re-plans the root (2 < 3 children): only repeats, also after being told why.
      planReply(['FindClass', { name: 'Cart' }]),
      planReply(['find_class', { name: 'cart' }]),
      // …so the root is closed and the same iteration expands the best child instead.
      planReply(['FindFunction', { name: 'apply_discount' }], ['FindCodeSnippet', { text: 'TAX_RATE' }]),
    );
    llm.push('evaluation', evalReply(30), evalReply(70), evalReply(60), evalReply(50));
    const { trace } = await askQuestion({ question: QUESTION, model: llm.model(), repositories: repo.repositories, settings: { iterations: 2, ...noPlateau } });
    expect(trace.nodes[0]!.exhausted).toBe(true);
    expect(trace.iterations.map((i) => i.closedIds ?? [])).toEqual([[], [0]]);
    expect(trace.iterations.map((i) => i.selectedId)).toEqual([0, 2]);
    expect(trace.iterations.map((i) => i.createdIds)).toEqual([[1, 2], [3, 4]]);
    expect(trace.iterations.every((i) => i.createdIds.length > 0)).toBe(true);
    expect(trace.nodes[0]!.rejected.map((r) => r.reason)).toEqual(['repeats a sibling branch', 'repeats a sibling branch']);
  });

  it('tells planning about sibling branches when expanding a child', async () => {
    llm.push('planning', planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'with_tax' }]), planReply(['FindFunction', { name: 'apply_discount' }]));
    llm.push('evaluation', evalReply(90), evalReply(10), evalReply(50));
    await askQuestion({ question: QUESTION, model: llm.model(), repositories: repo.repositories, settings: { iterations: 2, maxChildren: 2, ...noPlateau } });
    const prompt = llm.of('planning')[1]!.prompt;
    expect(prompt).toContain('Step 1: FindClass(name="Cart")');
    expect(prompt).toMatch(/Tried by sibling branches[^\n]*\n- FindFunction\(name="with_tax"\) — score 10\/100; found: shop\/pricing\.py:13-15 \(with_tax\)/);
  });

  it('ends the search in the iteration a Finish passes its checks (no sibling after it runs) and answers from its path', async () => {
    llm.push(
      'planning',
      planReply(['FindFunction', { name: 'with_tax' }], ['FindClass', { name: 'Cart' }]),
      planReply(['Finish', { reason: 'with_tax is the answer' }], ['FindCodeSnippet', { text: 'TAX_RATE' }]),
    );
    llm.push('evaluation', evalReply(70), evalReply(20), evalReply(92), evalReply(30));
    llm.push('answer', '`with_tax` (shop/pricing.py:13-15) multiplies by `TAX_RATE`.');
    const result = await askQuestion({ question: 'Where is tax added?', model: llm.model(), repositories: repo.repositories, settings: { iterations: 10, maxChildren: 2, ...noPlateau } });
    const { trace } = result;
    expect(result.stopReason).toBe('finish');
    const finish = trace.nodes.find((n) => n.action?.type === 'Finish')!;
    expect(finish).toMatchObject({ createdAt: 2, score: 92, finishCheck: { passed: true, reason: null } });
    expect(trace.iterationsRun).toBe(2);
    expect(trace.iterations.at(-1)!.selectedId).toBe(1);
    expect(trace.nodes.some((n) => n.action?.type === 'FindCodeSnippet')).toBe(false);
    expect(llm.of('evaluation')).toHaveLength(3);
    expect(trace.answerPath).toEqual([0, 1, finish.id]);
    expect(trace.answerEvidence[0]).toMatchObject({ path: 'shop/pricing.py', startLine: 13, endLine: 15, symbol: 'with_tax' });
    expect(result.answer).toBe('`with_tax` (shop/pricing.py:13-15) multiplies by `TAX_RATE`.');
    expect(result.citations).toEqual([
      { text: 'shop/pricing.py:13-15', path: 'shop/pricing.py', startLine: 13, endLine: 15, names: ['with_tax'], valid: true, reason: null },
    ]);
    const answerPrompt = llm.of('answer')[0]!.prompt;
    expect(answerPrompt).toContain('[E1] shop/pricing.py:13-15 (with_tax)');
    expect(answerPrompt).toContain('15 |     return round(amount * (1 + TAX_RATE), 2)');
  });

  it('a Finish that fails its checks is scored down, closed, and the search goes on', async () => {
    llm.push(
      'planning',
      planReply(['FindFunction', { name: 'with_tax' }], ['FindClass', { name: 'Cart' }]),
      planReply(['Finish', { reason: 'probably enough' }]),
      planReply(['FindCodeSnippet', { text: 'TAX_RATE' }]),
    );
    llm.push('evaluation', evalReply(70), evalReply(20), evalReply(40), evalReply(60));
    const result = await askQuestion({ question: 'Where is tax added?', model: llm.model(), repositories: repo.repositories, settings: { iterations: 3, maxChildren: 2, ...noPlateau } });
    const { trace } = result;
    expect(result.stopReason).toBe('iterations');
    const finish = trace.nodes.find((n) => n.action?.type === 'Finish')!;
    expect(finish).toMatchObject({ score: 40, valueSum: 0, exhausted: true, finishCheck: { passed: false, reason: 'Evaluation scored it 40, below 75' } });
    expect(trace.iterationsRun).toBe(3);
    expect(trace.iterations.every((it) => it.selectedId !== finish.id)).toBe(true);
    expect(trace.nodes.map((n) => n.action?.type ?? 'root')).toEqual(['root', 'FindFunction', 'FindClass', 'Finish', 'FindCodeSnippet']);
    expect(trace.answerPath).not.toContain(finish.id);
  });
});
