#!/usr/bin/env node
// Prints one real call of every MCP tool on a copy of the bundled sample
// repository (used for docs/mcp-tools.md). Usage: node scripts/tool-examples.mjs
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callTool, createToolRegistry, RepositorySet } from '../dist/reponav.js';

const work = mkdtempSync(join(tmpdir(), 'reponav-tools-'));
const root = join(work, 'bookshop');
cpSync(new URL('../sample/bookshop', import.meta.url), root, { recursive: true });
const repositories = await RepositorySet.open([{ path: root, indexPath: join(work, 'index.db') }]);
const registry = createToolRegistry();
const context = { repositories };
const calls = [
  ['search', { query: 'retry when reserving stock fails' }],
  ['snippet_search', { query: 'retry when reserving stock fails', top_k: 3 }],
  ['semantic_search', { query: 'where is VAT added to the invoice total', top_k: 3 }],
  ['list_symbols', { file: 'billing/invoice.py' }],
  ['find_class', { name: 'Catalogue' }],
  ['find_function', { name: 'Invoice.total_cents' }],
  ['find_references', { name: 'parse_discount_code' }],
  ['find_code_snippet', { text: 'normalize_isbn(' }],
  ['regex_search', { pattern: 'def \\w+_cents|percent > \\d+' }],
  ['view_code', { symbol: 'StockLedger.reserve' }],
  ['view_code', { file: 'web/basket.ts', start: 1, end: 8 }],
  ['index_status', {}],
  ['reindex', {}],
  ['view_code', { file: '../../etc/passwd' }],
  ['find_code_snippet', { text: '' }],
  ['regex_search', { pattern: '(\\w+)\\1' }],
];
for (const [name, args] of calls) {
  const result = await callTool(registry, name, args, context);
  process.stdout.write(`### ${name} ${JSON.stringify(args)}${result.isError ? '  (isError)' : ''}\n${result.text.replaceAll(work, '/tmp/…')}\n\n`);
}
repositories.close?.();
rmSync(work, { recursive: true, force: true });
