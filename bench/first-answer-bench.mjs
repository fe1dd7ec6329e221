#!/usr/bin/env node
// First-answer benchmark: on a never-indexed copy of TREE, how long until the
// first answer with the real scaffold, next to `rg -n` over the same words in
// the same round. The first `reponav search` answers from a focused partial
// index (the files a text scan ranks first and their imports; a tree that
// index would take whole is indexed whole first); the rest is indexed by a detached build, and
// the "whole" figure is the time from that first search until a search answers
// from the complete index. Each round uses a fresh copy; the figures are
// printed per round with the load average, then as medians. The reference a
// user had before, in the same round: a cold `reponav index` of another fresh
// copy, then the search (wall and CPU; the CPU of the first answer ÷ that is
// the figure to read on a loaded machine).
//
// Usage: node bench/first-answer-bench.mjs TREE [--query "WORDS"] [--rounds N] [--keep]
// Needs `npm run build`, rg on PATH (the reference, and the scan) and
// /usr/bin/time (CPU of the search process: the detached build is not in it).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = 'usage: node bench/first-answer-bench.mjs TREE [--query "WORDS"] [--rounds N] [--keep]';
const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(PROJECT, 'dist/cli/main.js');
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { query: { type: 'string' }, rounds: { type: 'string' }, keep: { type: 'boolean' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const tree = positionals[0];
const rounds = wholeNumber(USAGE, 'rounds', opt.rounds) ?? 3;
const { WriterLock } = await import(pathToFileURL(join(PROJECT, 'dist/index/store/writer-lock.js')).href);
const query = opt.query ?? 'request timeout retry';
const words = query.split(/\s+/).filter(Boolean);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Runs a command; wall ms, and with `cpu` the process's user+system CPU ms from /usr/bin/time. */
function run(command, argv, env, cpu = false) {
  const t = process.hrtime.bigint();
  const r = cpu
    ? spawnSync('/usr/bin/time', ['-f', '@cpu %U %S', command, ...argv], { env, encoding: 'utf8', maxBuffer: 512 << 20 })
    : spawnSync(command, argv, { env, encoding: 'utf8', maxBuffer: 512 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const times = /@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  return { ms, cpuMs: times ? (Number(times[1]) + Number(times[2])) * 1000 : null, stdout: r.stdout ?? '', code: r.status };
}

function kindOf(stdout) {
  if (stdout.startsWith('[PARTIAL INDEX]')) return 'partial';
  if (stdout.startsWith('[PROVISIONAL]')) return 'provisional';
  return 'full';
}

async function oneRound(round) {
  const work = mkdtempSync(join(tmpdir(), 'reponav-first-answer-'));
  const root = join(work, 'tree');
  const indexPath = join(work, 'index.db');
  const env = { ...process.env, REPONAV_CACHE_DIR: join(work, 'cache') };
  const rgArgs = ['-n', ...words.flatMap((w) => ['-e', w]), root];
  cpSync(resolve(tree), root, { recursive: true });
  run('rg', rgArgs, env); // warm the page cache for both
  const loadBefore = load();
  const rg = run('rg', rgArgs, env, true);
  const searchArgs = [CLI, 'search', query, '--repo', root, '--index-path', indexPath];
  const started = Date.now();
  const first = run('node', searchArgs, env, true);
  const kind = kindOf(first.stdout);
  let whole = { ms: first.ms, later: null };
  if (kind !== 'full') {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(indexPath) && !new WriterLock(indexPath).isHeld()) {
        const status = run('node', [CLI, 'status', root, '--index-path', indexPath, '--json'], env);
        if (status.code === 0 && JSON.parse(status.stdout).indexedAt) break;
      }
      if (Date.now() - started > 30 * 60_000) throw new Error('background index did not finish in 30 min');
    }
    const later = run('node', searchArgs, env);
    whole = { ms: Date.now() - started, later };
  }
  // The reference a user had before: index the whole tree cold, then search (a fresh copy, same round).
  const coldRoot = join(work, 'cold-tree');
  cpSync(resolve(tree), coldRoot, { recursive: true });
  const coldEnv = { ...env, REPONAV_CACHE_DIR: join(work, 'cold-cache') };
  const coldIndex = join(work, 'cold.db');
  const coldBuild = run('node', [CLI, 'index', coldRoot, '-q', '--index-path', coldIndex], coldEnv, true);
  const coldSearch = run('node', [CLI, 'search', query, '--repo', coldRoot, '--index-path', coldIndex], coldEnv, true);
  const covered = /covers (\d+) of its (\d+) files/.exec(first.stdout);
  const row = {
    round,
    loadBefore,
    loadAfter: load(),
    rgMs: rg.ms,
    rgCpuMs: rg.cpuMs,
    kind,
    covered: covered ? `${covered[1]}/${covered[2]}` : kind === 'full' ? 'all' : '-',
    firstMs: first.ms,
    firstCpuMs: first.cpuMs,
    wholeMs: whole.ms,
    coldMs: coldBuild.ms + coldSearch.ms,
    coldCpuMs: (coldBuild.cpuMs ?? 0) + (coldSearch.cpuMs ?? 0),
    laterKind: whole.later ? kindOf(whole.later.stdout) : 'full',
    head: first.stdout.split('\n').slice(0, 3).join('\n'),
  };
  if (opt.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  return row;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f0 = (x) => (x === null ? '-' : x.toFixed(0));

console.log(`# first-answer-bench: ${resolve(tree)}  query="${query}"  rounds=${rounds}`);
console.log(`cores ${availableParallelism()}, load average ${load()}`);
const rows = [];
for (let i = 1; i <= rounds; i++) {
  const row = await oneRound(i);
  rows.push(row);
  if (i === 1) console.log(row.head);
  console.log(
    `round ${i} (load ${row.loadBefore} -> ${row.loadAfter}): rg -n ${f0(row.rgMs)} ms (cpu ${f0(row.rgCpuMs)}); ` +
      `first answer ${row.kind} (${row.covered} files) ${f0(row.firstMs)} ms (cpu ${f0(row.firstCpuMs)}), ${(row.firstMs / row.rgMs).toFixed(1)}x rg; ` +
      `full answer from the whole index ${f0(row.wholeMs)} ms (${row.laterKind}), ${(row.wholeMs / row.rgMs).toFixed(1)}x rg; ` +
      `first / whole ${(row.firstMs / row.wholeMs).toFixed(2)}; cold index + search ${f0(row.coldMs)} ms (cpu ${f0(row.coldCpuMs)}), ` +
      `first / cold ${(row.firstMs / row.coldMs).toFixed(2)} wall, ${(row.firstCpuMs / row.coldCpuMs).toFixed(2)} cpu`,
  );
}
const m = (key) => median(rows.map((r) => r[key]));
console.log(
  `median of ${rounds}: rg ${f0(m('rgMs'))} ms; first answer (${rows.map((r) => r.kind).join(', ')}) ${f0(m('firstMs'))} ms wall, ` +
    `${f0(median(rows.map((r) => r.firstCpuMs ?? 0)))} ms cpu, ${median(rows.map((r) => r.firstMs / r.rgMs)).toFixed(1)}x rg; ` +
    `whole ${f0(m('wholeMs'))} ms, ${median(rows.map((r) => r.wholeMs / r.rgMs)).toFixed(1)}x rg; first / whole ${median(rows.map((r) => r.firstMs / r.wholeMs)).toFixed(2)}; ` +
    `cold index + search ${f0(m('coldMs'))} ms wall, ${f0(m('coldCpuMs'))} ms cpu; first / cold ${median(rows.map((r) => r.firstMs / r.coldMs)).toFixed(2)} wall, ` +
    `${median(rows.map((r) => r.firstCpuMs / r.coldCpuMs)).toFixed(2)} cpu`,
);
console.log(`load average at the end ${load()}`);
