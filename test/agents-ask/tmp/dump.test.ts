import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { askQuestion } from '../../../src/agents/ask/index.js';
import { openFixtureRepo } from '../helpers/fixture-repo.js';
import { evalReply, planReply, startScriptedLlm } from '../helpers/scripted-llm.js';

it('dump', async () => {
  const repo = await openFixtureRepo();
  const llm = await startScriptedLlm();
  llm.push('planning', planReply(['FindClass', { name: 'Cart' }], ['FindFunction', { name: 'with_tax' }], ['SemanticSearch', { query: 'discount code' }]),
    planReply(['ViewCode', { file: 'shop/cart.py', start: 16, end: 19 }], ['FindFunction', { name: 'apply_discount' }], ['FindCodeSnippet', { text: 'TAX_RATE' }]));
  llm.push('evaluation', evalReply(60), evalReply(80), evalReply(40), evalReply(20), evalReply(30), evalReply(10));
  const r = await askQuestion({ question: 'How does the cart compute its total with tax and discounts?', model: llm.model('gpt-4o-mini'), repositories: repo.repositories, settings: { iterations: 2 } });
  writeFileSync('/tmp/ask-trace.json', JSON.stringify(r.trace, null, 2));
  writeFileSync('/tmp/ask-prompts.txt', llm.calls.map((c) => `===== ${c.role} =====\n${c.prompt}`).join('\n\n'));
  await llm.close(); await repo.close();
});
