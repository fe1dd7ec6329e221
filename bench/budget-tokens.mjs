#!/usr/bin/env node
// How budget_tokens holds in real tokens: every tool's text, called through
// callTool at several budgets on the given repositories (default: the bundled
// sample), counted in o200k_base tokens (gpt-tokenizer) against the budget.
// Prints per tool the largest o200k/budget ratio and the largest o200k/(chars/4)
// ratio seen. Usage: npm run build && node bench/budget-tokens.mjs [REPO ...]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBenchArgs } from './bench-args.mjs';

let repos = parseBenchArgs({
  usage: 'usage: npm run build && node bench/budget-tokens.mjs [REPO ...]   (every tool at budgets 100-4000, real o200k counts; default: the bundled sample)',
  maxPositionals: Infinity,
}).positionals;
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
const { callTool, createToolRegistry, RepositorySet } = await import('../dist/reponav.js');
const work = mkdtempSync(join(tmpdir(), 'reponav-budget-'));
if (repos.length === 0) {
  const root = join(work, 'bookshop');
  cpSync(new URL('../sample/bookshop', import.meta.url), root, { recursive: true });
  repos = [root];
}
const QUERIES = ['invoice total tax', 'TypeError when the basket is empty in checkout', 'how do I configure the client', 'url_for request context', 'report_warning extractor download'];
const BUDGETS = [100, 300, 800, 1500, 4000];
const registry = createToolRegistry();
const worst = new Map();
const dumped = [];
const note = (tool, text, budget) => {
  if (process.env.DUMP) dumped.push({ tool, budget, text });
  const tokens = countTokens(text);
  const w = worst.get(tool) ?? { overBudget: 0, perEstimate: 0, calls: 0, over: 0 };
  w.calls++;
  w.overBudget = Math.max(w.overBudget, tokens / budget);
  if (text.length > 200) w.perEstimate = Math.max(w.perEstimate, tokens / Math.ceil(text.length / 4));
  if (tokens > budget) w.over++;
  worst.set(tool, w);
};
for (const path of repos) {
  const repositories = await RepositorySet.open([{ path, indexPath: join(work, `${path.split('/').pop()}.db`) }]);
  const call = async (tool, args) => (await callTool(registry, tool, args, { repositories })).text;
  await call('reindex', {});
  const files = repositories.select().index.store.files().map((f) => f.path);
  const symbols = [];
  for (const budget of BUDGETS) {
    for (const query of QUERIES) {
      for (const tool of ['search', 'snippet_search', 'find_code_snippet']) {
        const args = tool === 'find_code_snippet' ? { text: query.split(' ')[0], budget_tokens: budget } : { query, budget_tokens: budget };
        note(tool, await call(tool, args), budget);
      }
      note('regex_search', await call('regex_search', { pattern: query.split(' ').join('|'), budget_tokens: budget }), budget);
    }
    for (const file of files.filter((_, i) => i % Math.max(1, Math.floor(files.length / 25)) === 0)) {
      note('list_symbols', await call('list_symbols', { file, budget_tokens: budget }), budget);
      note('view_code', await call('view_code', { file, budget_tokens: budget }), budget);
      const first = repositories.select().index.store.symbolsOf(file).find((s) => s.kind === 'function' || s.kind === 'method');
      if (first) symbols.push(first.name);
    }
    for (const name of symbols.slice(0, 15)) {
      note('find_function', await call('find_function', { name, budget_tokens: budget }), budget);
      note('find_references', await call('find_references', { name, budget_tokens: budget }), budget);
    }
    note('index_status', await call('index_status', { budget_tokens: budget }), budget);
  }
  await repositories.close();
}
console.log('tool                 calls  over  max o200k/budget  max o200k/(chars/4)');
for (const [tool, w] of [...worst].sort()) {
  console.log(`${tool.padEnd(20)} ${String(w.calls).padStart(5)} ${String(w.over).padStart(5)}  ${w.overBudget.toFixed(3).padStart(16)}  ${w.perEstimate.toFixed(3).padStart(19)}`);
}
if (process.env.DUMP) (await import('node:fs')).writeFileSync(process.env.DUMP, JSON.stringify(dumped));
rmSync(work, { recursive: true, force: true });
