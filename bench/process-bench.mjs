#!/usr/bin/env node
// Process benchmark (issue #15, goal 1): what one `reponav` process costs an
// agent that calls the CLI on every step, against the references it is read
// against, all measured in the same run and interleaved round-robin so machine
// load hits every command alike.
//
//   start-up:  `reponav search|symbols|find|view` on the bundled 8-file sample
//              (index warm, so the work is negligible) / `node -e 0`   target ≤ 2
//   search:    `reponav search WORD --repo TREE` (index warm, no change)
//              / `rg -n WORD TREE`                                       target ≤ 3
//
// Usage: node bench/process-bench.mjs TREE [--word WORD] [--runs N] [--keep]
// TREE is used as it is (nothing is written into it); the index goes to a temp cache.
// Needs `npm run build` and ripgrep (`rg`) on PATH.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const SAMPLE = join(PROJECT, 'sample/bookshop');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const tree = args.find((a, i) => !a.startsWith('--') && !['--word', '--runs'].includes(args[i - 1]));
if (!tree) {
  console.error('usage: node bench/process-bench.mjs TREE [--word WORD] [--runs N] [--keep]');
  process.exit(2);
}
const word = option('--word', 'timeout');
const runs = Number(option('--runs', '9'));
const keep = args.includes('--keep');
const cache = mkdtempSync(join(tmpdir(), 'reponav-process-bench-'));
const env = { ...process.env, REPONAV_CACHE_DIR: cache };

function run(command, argv, cwd = PROJECT) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd, env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && !(command === 'rg' && result.status === 1)) {
    throw new Error(`${command} ${argv.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  }
  return { ms, stdout: result.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${ms.toFixed(0)} ms`;

console.log(`# process-bench: ${resolve(tree)}  word=${word}  runs=${runs}`);
console.log(`cores ${availableParallelism()}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const files = run('git', ['-C', resolve(tree), 'ls-files'], PROJECT);
console.log(`git-tracked files: ${files.stdout.split('\n').filter(Boolean).length}`);

// Warm-up (untimed): build both indexes and let the OS cache the trees.
const indexed = run('node', [CLI, 'index', resolve(tree), '-q', '--json']);
const report = JSON.parse(indexed.stdout);
console.log(`cold index (untimed warm-up): ${(indexed.ms / 1000).toFixed(1)} s, ${report.listed} files`);
run('node', [CLI, 'index', SAMPLE, '-q']);
run('rg', ['-n', word, resolve(tree)]);

const commands = {
  'node -e 0': ['node', ['-e', '0']],
  'reponav search (sample)': ['node', [CLI, 'search', 'discount code', '--repo', SAMPLE, '-q']],
  'reponav symbols (sample)': ['node', [CLI, 'symbols', 'billing/invoice.py', '--repo', SAMPLE]],
  'reponav find (sample)': ['node', [CLI, 'find', 'function', 'reserve', '--repo', SAMPLE]],
  'reponav view (sample)': ['node', [CLI, 'view', 'billing/invoice.py:1-5', '--repo', SAMPLE]],
  [`rg -n ${word} TREE`]: ['rg', ['-n', word, resolve(tree)]],
  [`reponav search ${word} --repo TREE`]: ['node', [CLI, 'search', word, '--repo', resolve(tree), '-q']],
};
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, [command, argv]] of Object.entries(commands)) times[name].push(run(command, argv).ms);
}

const p50 = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
console.log('\n| command | p50 | min | max |');
console.log('|---|---|---|---|');
for (const [name, ts] of Object.entries(times)) console.log(`| ${name} | ${fmt(p50[name])} | ${fmt(Math.min(...ts))} | ${fmt(Math.max(...ts))} |`);

const node0 = p50['node -e 0'];
console.log('\n| ratio | value | target |');
console.log('|---|---|---|');
for (const cmd of ['search', 'symbols', 'find', 'view']) {
  const r = p50[`reponav ${cmd} (sample)`] / node0;
  console.log(`| start-up ${cmd} / node -e 0 | ${r.toFixed(2)} | ≤ 2 ${r <= 2 ? 'met' : 'missed'} |`);
}
const ratio = p50[`reponav search ${word} --repo TREE`] / p50[`rg -n ${word} TREE`];
console.log(`| search process / rg | ${ratio.toFixed(2)} | ≤ 3 ${ratio <= 3 ? 'met' : 'missed'} |`);
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (!keep) rmSync(cache, { recursive: true, force: true });
else console.log(`kept ${cache}`);
