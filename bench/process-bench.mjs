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
//   floors:    `node -e 0` ÷ `rg -n WORD TREE` (no Node.js process can beat
//              this search ratio on the tree), and a Node.js process that
//              loads better-sqlite3, opens the tree's index and runs one FTS
//              query ÷ `node -e 0` (the start-up ratio of any CLI answering
//              from this SQLite index, before any reponav code runs)
//
//   previous:  with --previous DIST (another build's dist/ folder, kept inside
//              this project so it finds node_modules), its `search` start-up,
//              its `search WORD` on the tree (on this build's index) and the
//              modules it loads, next to this build's
//
// Every command is timed as wall time and as CPU time (user + system, from
// /usr/bin/time when installed): on a shared machine the CPU ratio moves less.
// Each reponav command also runs once with bench/module-count-hook.mjs to count
// the ES modules it loads (the hot commands run from a CommonJS bundle through
// dist/cli/launcher.cjs, which that hook does not see: they count main.js alone).
//
//   code cache: the sample `search` with REPONAV_CODE_CACHE=0 (the same build's
//              ES modules, no V8 code cache), next to the cached run
//
// Usage: node bench/process-bench.mjs TREE [--word WORD] [--runs N] [--previous DIST] [--keep]
// TREE is used as it is (nothing is written into it); the index goes to a temp cache.
// Needs `npm run build` and ripgrep (`rg`) on PATH.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const SAMPLE = join(PROJECT, 'sample/bookshop');

const USAGE = 'usage: node bench/process-bench.mjs TREE [--word WORD] [--runs N] [--previous DIST] [--keep]';
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { word: { type: 'string' }, runs: { type: 'string' }, previous: { type: 'string' }, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const option = (name, fallback) => opt[name.slice(2)] ?? fallback;
const tree = positionals[0];
const word = option('--word', 'timeout');
const runs = wholeNumber(USAGE, 'runs', option('--runs', '9'));
const keep = opt.keep === true;
const previous = option('--previous', null);
const PREVIOUS_CLI = previous ? join(resolve(previous), 'cli/main.js') : null;
if (PREVIOUS_CLI && !existsSync(PREVIOUS_CLI)) {
  console.error(`--previous: ${PREVIOUS_CLI} does not exist`);
  process.exit(2);
}
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const HOOK = join(PROJECT, 'bench/module-count-hook.mjs');
const cache = mkdtempSync(join(tmpdir(), 'reponav-process-bench-'));
const env = { ...process.env, REPONAV_CACHE_DIR: cache };

/** Runs a command; wall ms, and CPU ms (user + system) when /usr/bin/time is there. */
function run(command, argv, cwd = PROJECT, extraEnv = {}) {
  const cpuFile = join(cache, 'cpu.txt');
  const [cmd, full] = TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, command, ...argv]] : [command, argv];
  const started = process.hrtime.bigint();
  const result = spawnSync(cmd, full, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && !(command === 'rg' && result.status === 1)) {
    throw new Error(`${command} ${argv.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 400)}`);
  }
  const cpu = TIME ? readFileSync(cpuFile, 'utf8').trim().split('\n').pop().split(' ').reduce((a, b) => a + Number(b) * 1000, 0) : NaN;
  return { ms, cpu, stdout: result.stdout };
}

/** How many ES modules `node argv…` loads (see module-count-hook.mjs). */
function moduleCount(argv, extraEnv = {}) {
  const log = join(cache, 'modules.txt');
  rmSync(log, { force: true });
  run('node', ['--import', HOOK, ...argv], PROJECT, { ...extraEnv, REPONAV_MODULE_LOG: log });
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  return { total: urls.length, builtin: urls.filter((u) => u.startsWith('node:')).length };
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
// The hot commands write their V8 code cache (into the temp cache) at the end of their first run.
for (const argv of [['search', 'discount code', '--repo', SAMPLE, '-q'], ['symbols', 'billing/invoice.py', '--repo', SAMPLE], ['find', 'function', 'reserve', '--repo', SAMPLE], ['view', 'billing/invoice.py:1-5', '--repo', SAMPLE]]) {
  run('node', [CLI, ...argv]);
}
// The tree's index in the temp cache (one folder per repository: NAME-HASH/worktree.db).
const indexDir = readdirSync(cache).find((d) => d.startsWith(`${basename(resolve(tree))}-`));
const treeIndex = indexDir ? join(cache, indexDir, 'worktree.db') : null;
const FLOOR = `const D=require('better-sqlite3');const d=new D(process.argv[1],{readonly:true});d.prepare('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 20').all(process.argv[2]);d.close()`;

const commands = {
  'node -e 0': ['node', ['-e', '0']],
  'reponav search (sample)': ['node', [CLI, 'search', 'discount code', '--repo', SAMPLE, '-q']],
  'reponav symbols (sample)': ['node', [CLI, 'symbols', 'billing/invoice.py', '--repo', SAMPLE]],
  'reponav find (sample)': ['node', [CLI, 'find', 'function', 'reserve', '--repo', SAMPLE]],
  'reponav view (sample)': ['node', [CLI, 'view', 'billing/invoice.py:1-5', '--repo', SAMPLE]],
  'reponav search (sample), REPONAV_CODE_CACHE=0': ['node', [CLI, 'search', 'discount code', '--repo', SAMPLE, '-q'], { REPONAV_CODE_CACHE: '0' }],
  [`rg -n ${word} TREE`]: ['rg', ['-n', word, resolve(tree)]],
  [`reponav search ${word} --repo TREE`]: ['node', [CLI, 'search', word, '--repo', resolve(tree), '-q']],
};
const floorName = 'floor: node + better-sqlite3 + one FTS query on the index';
if (treeIndex && existsSync(treeIndex)) commands[floorName] = ['node', ['-e', FLOOR, treeIndex, word]];
if (PREVIOUS_CLI) {
  commands['previous build: reponav search (sample)'] = ['node', [PREVIOUS_CLI, 'search', 'discount code', '--repo', SAMPLE, '-q']];
  commands[`previous build: reponav search ${word} --repo TREE`] = ['node', [PREVIOUS_CLI, 'search', word, '--repo', resolve(tree), '-q']];
}
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const cpus = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, [command, argv, extraEnv]] of Object.entries(commands)) {
    const { ms, cpu } = run(command, argv, PROJECT, extraEnv);
    times[name].push(ms);
    cpus[name].push(cpu);
  }
}

const p50 = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const cpu50 = Object.fromEntries(Object.entries(cpus).map(([k, v]) => [k, median(v)]));
const modules = Object.fromEntries(
  Object.entries(commands)
    .filter(([name, [command]]) => command === 'node' && name !== 'node -e 0' && name !== floorName)
    .map(([name, [, argv, extraEnv]]) => [name, moduleCount(argv, extraEnv)]),
);
console.log('\n| command | wall p50 | min | max | CPU p50 | ES modules (node: built-ins) |');
console.log('|---|---|---|---|---|---|');
for (const [name, ts] of Object.entries(times)) {
  const m = modules[name] ? `${modules[name].total} (${modules[name].builtin})` : '';
  console.log(`| ${name} | ${fmt(p50[name])} | ${fmt(Math.min(...ts))} | ${fmt(Math.max(...ts))} | ${fmt(cpu50[name])} | ${m} |`);
}

const node0 = p50['node -e 0'];
// /usr/bin/time counts CPU in 10 ms steps: a reference under one step has no CPU ratio.
const both = (a, b) => `${(p50[a] / p50[b]).toFixed(2)} (CPU ${cpu50[b] > 0 ? (cpu50[a] / cpu50[b]).toFixed(2) : 'n/a'})`;
console.log('\n| ratio (wall p50, CPU p50 in brackets) | value | target |');
console.log('|---|---|---|');
for (const cmd of ['search', 'symbols', 'find', 'view']) {
  const r = p50[`reponav ${cmd} (sample)`] / node0;
  console.log(`| start-up ${cmd} / node -e 0 | ${both(`reponav ${cmd} (sample)`, 'node -e 0')} | ≤ 2 ${r <= 2 ? 'met' : 'missed'} |`);
}
console.log(`| start-up search, code cache / REPONAV_CODE_CACHE=0 (same build) | ${both('reponav search (sample)', 'reponav search (sample), REPONAV_CODE_CACHE=0')} | |`);
const searchName = `reponav search ${word} --repo TREE`;
const ratio = p50[searchName] / p50[`rg -n ${word} TREE`];
console.log(`| search process / rg | ${both(searchName, `rg -n ${word} TREE`)} | ≤ 3 ${ratio <= 3 ? 'met' : 'missed'} |`);
console.log(`| floor: node -e 0 / rg (no Node.js process does better on this tree) | ${both('node -e 0', `rg -n ${word} TREE`)} | |`);
if (p50[floorName]) console.log(`| floor: node + better-sqlite3 + one FTS query / node -e 0 | ${both(floorName, 'node -e 0')} | |`);
if (PREVIOUS_CLI) {
  const prev = 'previous build: reponav search (sample)';
  console.log(`| start-up search, previous build / node -e 0 | ${both(prev, 'node -e 0')} | |`);
  console.log(`| start-up search, this build / previous build | ${both('reponav search (sample)', prev)} | |`);
  console.log(`| search process on the tree, this build / previous build | ${both(searchName, `previous build: reponav search ${word} --repo TREE`)} | |`);
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (!keep) rmSync(cache, { recursive: true, force: true });
else console.log(`kept ${cache}`);
