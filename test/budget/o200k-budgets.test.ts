/**
 * Budgets are in o200k_base tokens: every tool's answer on the bundled sample,
 * through callTool at several budgets, counts no more o200k tokens (the real
 * tokenizer, gpt-tokenizer) than its budget; and the estimate is never below
 * o200k's count on windows of this repository's own source, numbered as
 * view_code numbers them or not (bench/budget-tokens.mjs measures the same on
 * other repositories).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/budget/index.js';
import { callTool, createToolRegistry, RepositorySet } from '../../src/tools/index.js';
import { PROJECT_ROOT } from '../cli/harness.js';

const work = mkdtempSync(join(tmpdir(), 'reponav-o200k-'));
let repositories: RepositorySet;
beforeAll(async () => {
  const root = join(work, 'bookshop');
  cpSync(join(PROJECT_ROOT, 'sample/bookshop'), root, { recursive: true });
  repositories = await RepositorySet.open([{ path: root, indexPath: join(work, 'index.db') }]);
  await repositories.select().refresh();
});
afterAll(async () => {
  await repositories.close();
  rmSync(work, { recursive: true, force: true });
});

const QUERIES = ['invoice total tax', 'TypeError when the basket is empty in checkout', 'stock level of a book'];

describe('o200k budgets', () => {
  it('no tool answer on the sample exceeds its budget in o200k tokens', async () => {
    const registry = createToolRegistry();
    const files = repositories.select().index.store.files().map((f) => f.path);
    const names = [...new Set(files.flatMap((f) => repositories.select().index.store.symbolsOf(f).map((s) => s.name)))].slice(0, 8);
    const calls: [string, Record<string, unknown>][] = [];
    for (const query of QUERIES) {
      calls.push(['search', { query }], ['snippet_search', { query }], ['regex_search', { pattern: query.split(' ').join('|') }]);
      calls.push(['find_code_snippet', { text: query.split(' ')[0] }]);
    }
    for (const file of files) calls.push(['list_symbols', { file }], ['view_code', { file }]);
    for (const name of names) calls.push(['find_function', { name }], ['find_references', { name }], ['find_class', { name }]);
    calls.push(['index_status', {}]);
    let checked = 0;
    for (const budget of [100, 200, 400, 1500]) {
      for (const [tool, args] of calls) {
        const result = await callTool(registry, tool, { ...args, budget_tokens: budget }, { repositories });
        if (result.isError) continue;
        expect(countTokens(result.text), `${tool} ${JSON.stringify(args)} at ${budget}`).toBeLessThanOrEqual(budget);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('the estimate is never below o200k on windows of this repository source', () => {
    const dir = join(PROJECT_ROOT, 'src/index');
    let windows = 0;
    // The whole layer, subfolders included, so the sample does not shrink when files move between them.
    const names = (readdirSync(dir, { recursive: true }) as string[]).filter((n) => n.endsWith('.ts')).sort();
    for (const name of names.slice(0, 30)) {
      const lines = readFileSync(join(dir, name), 'utf8').split('\n');
      for (let start = 0; start < lines.length; start += 60) {
        const raw = lines.slice(start, start + 40);
        const numbered = raw.map((l, i) => `${String(start + i + 1).padStart(5)} | ${l}`.trimEnd());
        for (const text of [raw.join('\n'), numbered.join('\n')]) {
          expect(countTokens(text), `${name}:${start + 1}`).toBeLessThanOrEqual(estimateTokens(text));
          windows++;
        }
      }
    }
    expect(windows).toBeGreaterThan(100);
  });
});
