#!/usr/bin/env node
// Runs the official MCP Inspector CLI against every reponav tool, over stdio
// and over Streamable HTTP, on a temporary copy of sample/bookshop, and prints
// one line per call (docs/mcp-tools.md carries a real run). Exit 1 if any call
// failed or answered isError.
//
// The Inspector is installed once into node_modules/.cache/reponav-inspector at
// INSPECTOR_VERSION: 1.0.3 is the newest that runs on Node 20 (2.x needs Node
// 22.19; 1.x declares >=22.7.5 but runs on 20, so npm only warns).
// Usage: npm run build && npm run check:inspector
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INSPECTOR_VERSION = '1.0.3';
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const prefix = join(root, 'node_modules', '.cache', 'reponav-inspector');
const inspector = join(prefix, 'node_modules', '.bin', 'mcp-inspector');

if (!existsSync(inspector)) {
  mkdirSync(prefix, { recursive: true });
  process.stderr.write(`Installing @modelcontextprotocol/inspector@${INSPECTOR_VERSION} into ${prefix} …\n`);
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`], { stdio: 'inherit' });
}

const work = mkdtempSync(join(tmpdir(), 'reponav-inspector-'));
const repo = join(work, 'bookshop');
cpSync(join(root, 'sample', 'bookshop'), repo, { recursive: true });
const env = { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache') };

/** One call per tool (semantic_search is offered only with an embedder or when named in --tools). */
const calls = [
  ['search', { query: 'discount codes above 50% should be rejected' }],
  ['snippet_search', { query: 'retry when reserving stock fails', top_k: 2 }],
  ['semantic_search', { query: 'where is VAT added to the invoice total', top_k: 3 }],
  ['list_symbols', { file: 'billing/invoice.py' }],
  ['find_class', { name: 'StockLedger' }],
  ['find_function', { name: 'Invoice.total_cents' }],
  ['find_references', { name: 'parse_discount_code' }],
  ['find_code_snippet', { text: 'normalize_isbn(' }],
  ['regex_search', { pattern: 'def \\w+_cents' }],
  ['view_code', { symbol: 'StockLedger.reserve' }],
  ['index_status', {}],
  ['reindex', {}],
];
const toolFlags = ['--tools', calls.map(([name]) => name).join(',')];

function toolArgs(args) {
  return Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
}

function runInspector(target, extra) {
  return new Promise((resolve) => {
    const child = spawn(inspector, ['--cli', ...target, ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

let failures = 0;
async function check(label, target) {
  const listed = await runInspector(target, ['--method', 'tools/list']);
  const names = listed.code === 0 ? JSON.parse(listed.out).tools.map((t) => t.name) : [];
  const listOk = calls.every(([name]) => names.includes(name));
  if (!listOk) failures++;
  process.stdout.write(`${label} tools/list: ${listOk ? 'ok' : 'FAILED'} (${names.length} tools)\n`);
  for (const [name, args] of calls) {
    const r = await runInspector(target, ['--method', 'tools/call', '--tool-name', name, ...toolArgs(args)]);
    let verdict = 'FAILED';
    let first = (r.err.trim().split('\n').pop() ?? '').slice(0, 100);
    if (r.code === 0) {
      const result = JSON.parse(r.out);
      const text = (result.content ?? []).map((c) => c.text ?? '').join('\n');
      verdict = result.isError ? 'isError' : 'ok';
      first = text.split('\n')[0].replaceAll(work, '/tmp/…').slice(0, 100);
      if (result.structuredContent) first += '  [+structuredContent]';
    }
    if (verdict !== 'ok') failures++;
    process.stdout.write(`${label} ${name}: ${verdict} — ${first}\n`);
  }
}

await check('stdio', ['node', cli, 'mcp', '--repo', repo, '-q', ...toolFlags]);

const port = await freePort();
const server = spawn(process.execPath, [cli, 'mcp', '--repo', repo, '-q', ...toolFlags, '--http', String(port)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise((resolve) => setTimeout(resolve, 1500));
await check('http', [`http://127.0.0.1:${port}/mcp`, '--transport', 'http']);
server.kill();

rmSync(work, { recursive: true, force: true });
process.stdout.write(failures === 0 ? `Inspector ${INSPECTOR_VERSION}: every tool passed over stdio and HTTP.\n` : `Inspector ${INSPECTOR_VERSION}: ${failures} failures.\n`);
process.exit(failures === 0 ? 0 : 1);
