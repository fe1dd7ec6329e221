#!/usr/bin/env node
// Prints one real call of every MCP tool on a copy of the bundled sample
// repository (used for docs/mcp-tools.md); the git tools run after the copy is
// made a git repository with two commits (fixed identity and dates) and an
// uncommitted edit. Usage: node scripts/tool-examples.mjs
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  ['list_files', { depth: 2 }],
  ['repo_map', { budget_tokens: 600 }],
  ['repo_map', { focus: ['web/basket.ts'], budget_tokens: 300 }],
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
// The git tools: the copy becomes a repository with two commits and an uncommitted edit.
const env = { ...process.env, GIT_AUTHOR_DATE: '2026-03-02T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-02T10:00:00Z', GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args) => execFileSync('git', ['-c', 'user.name=Ada Lovelace', '-c', 'user.email=ada@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: root, env });
const edit = (path, change) => writeFileSync(join(root, path), change(readFileSync(join(root, path), 'utf8')));
git('init', '-q');
git('add', '.');
git('commit', '-qm', 'Bookshop');
edit('billing/invoice.py', (t) => `${t}\n\ndef credit_note(invoice):\n    """A credit note cancelling an invoice."""\n    return -invoice.total_cents()\n`);
git('commit', '-qam', 'Add credit notes');
edit('web/basket.ts', (t) => t.replace('export', '// Client-side basket.\nexport'));
const gitCalls = [
  ['changed_files', {}],
  ['changed_files', { from: 'HEAD~1', to: 'HEAD' }],
  ['diff', { file: 'billing/invoice.py', from: 'HEAD~1', to: 'HEAD' }],
  ['file_history', { file: 'billing/invoice.py' }],
  ['blame_lines', { file: 'billing/invoice.py', start: 1, end: 4 }],
];
for (const [name, args] of gitCalls) {
  const result = await callTool(registry, name, args, context);
  process.stdout.write(`### ${name} ${JSON.stringify(args)}${result.isError ? '  (isError)' : ''}\n${result.text.replaceAll(work, '/tmp/…')}\n\n`);
}
repositories.close?.();
rmSync(work, { recursive: true, force: true });
