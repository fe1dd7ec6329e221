#!/usr/bin/env node
// repo_map benchmark: index a tree once, then time the repo_map tool through callTool (the path an MCP
// server takes) warm, with no focus and with a focus, beside the search tool on a few queries in the
// same process, and print p50/p95 and the ratio to search. The first repo_map call of the process
// (which builds the file graph) is printed apart; later calls reuse the graph until the index changes.
// The freshness check every tool call starts with is timed alone too, to tell it from the tool's own work.
//
// Usage:
//   node bench/repo-map-bench.mjs TREE [--runs N] [--index DIR]
//   node bench/repo-map-bench.mjs GITDIR --commit REV [--runs N] [--index DIR]
// --index DIR keeps the index there and reuses it on the next run. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = `usage: node bench/repo-map-bench.mjs TREE|GITDIR [--commit REV] [--runs N] [--index DIR]
  Times repo_map (no focus, and focused) warm against the search tool in the same run.`;

const { values, positionals } = parseBenchArgs({
  usage: USAGE,
  options: { commit: { type: 'string' }, runs: { type: 'string' }, index: { type: 'string' } },
  minPositionals: 1,
  maxPositionals: 1,
});
const runs = wholeNumber(USAGE, 'runs', values.runs) ?? 30;
const target = resolve(positionals[0]);
const { RepositorySet, callTool, createToolRegistry } = await import('../dist/reponav.js');

const work = values.index ? resolve(values.index) : mkdtempSync(join(tmpdir(), 'reponav-map-bench-'));
const repositories = await RepositorySet.open([{ path: target, commit: values.commit, indexPath: join(work, 'index.db') }]);
const registry = createToolRegistry();
const context = { repositories };
const started = performance.now();
await repositories.select().refresh();
const indexMs = performance.now() - started;
const status = repositories.select().index.store.counts();

// CPU time (user + system) of this process beside wall time: on a machine shared with other work, wall
// time is mostly waiting for a core.
async function timed(name, args) {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const result = await callTool(registry, name, args, context);
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - t;
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  return { ms, cpuMs: (used.user + used.system) / 1000, result };
}

const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const first = await timed('repo_map', {});
const firstMap = first.result.data;
// A focus: the best-ranked file of the unfocused map and one symbol of it.
const focusFile = firstMap.files[0]?.path;
const focusSymbol = firstMap.files[1]?.symbols[0]?.qualifiedName;
const focus = [focusFile, focusSymbol].filter(Boolean);
const queries = ['retry logic for HTTP requests', 'parse the configuration file', 'where is the cache invalidated', 'convert a datetime to a timestamp'];
for (const query of queries) await timed('search', { query }); // warm-up, untimed

const series = { 'repo_map': [], 'repo_map 2000': [], 'repo_map focus': [], search: [], 'freshness check alone': [] };
const cpuSeries = { 'repo_map': [], 'repo_map 2000': [], 'repo_map focus': [], search: [], 'freshness check alone': [] };
const record = (name, { ms, cpuMs }) => {
  series[name].push(ms);
  cpuSeries[name].push(cpuMs);
};
for (let i = 0; i < runs; i++) {
  record('repo_map', await timed('repo_map', {}));
  record('repo_map 2000', await timed('repo_map', { budget_tokens: 2000 }));
  record('repo_map focus', await timed('repo_map', { focus }));
  record('search', await timed('search', { query: queries[i % queries.length] }));
  // What every tool call pays before its handler runs: the no-change check of the tree.
  const t = performance.now();
  const cpu = process.cpuUsage();
  await repositories.select().refresh();
  const used = process.cpuUsage(cpu);
  record('freshness check alone', { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 });
}

const out = (line) => process.stdout.write(`${line}\n`);
out(`tree: ${target}${values.commit ? ` @ ${values.commit}` : ''}`);
out(`indexed files: ${status.files}, symbols: ${status.symbols}; refresh ${(indexMs / 1000).toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
out(`first repo_map of the process (builds the file graph): ${first.ms.toFixed(0)} ms; ranked files: ${firstMap.totalFiles}; shown at 1000 tokens: ${firstMap.files.length}`);
out(`focus: ${JSON.stringify(focus)}; warm runs: ${runs} each, interleaved`);
out('| call | wall p50 ms | wall p95 ms | p95 / search p95 | CPU p50 ms | CPU p95 ms | CPU p95 / search CPU p95 |');
out('|---|---:|---:|---:|---:|---:|---:|');
const searchP95 = percentile(series.search, 95);
const searchCpuP95 = percentile(cpuSeries.search, 95);
for (const [name, xs] of Object.entries(series)) {
  const cpu = cpuSeries[name];
  out(
    `| ${name} | ${percentile(xs, 50).toFixed(1)} | ${percentile(xs, 95).toFixed(1)} | ${(percentile(xs, 95) / searchP95).toFixed(2)} | ` +
      `${percentile(cpu, 50).toFixed(1)} | ${percentile(cpu, 95).toFixed(1)} | ${(percentile(cpu, 95) / searchCpuP95).toFixed(2)} |`,
  );
}
await repositories.close();
if (!values.index) rmSync(work, { recursive: true, force: true });
