#!/usr/bin/env node
// The warm search step of bench/scale-bench.mjs, in its own process so its memory and
// CPU are not counted in the cold index's: opens an index the CLI built, runs the
// idle-time scoring warm-up a long-lived process (MCP server) runs after a refresh,
// then searches each query text once, as an agent pasting an issue would (the first
// text warms the process and is left out; every later one is a first sight).
// Prints one JSON line: { firstSightMs: number[], cpuMs: number[], files: number }.
//
// Usage: node bench/scale-search.mjs TREE INDEX_PATH QUERIES.json [--dist DIR]
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseBenchArgs } from './bench-args.mjs';

const PROJECT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node bench/scale-search.mjs TREE INDEX_PATH QUERIES.json [--dist DIR]  (called by bench/scale-bench.mjs)';
const { values: opt, positionals } = parseBenchArgs({ usage: USAGE, options: { dist: { type: 'string' } }, minPositionals: 3, maxPositionals: 3 });
const [tree, indexPath, queriesFile] = positionals;
const dist = resolve(opt.dist ?? join(PROJECT, 'dist'));
const at = (path) => pathToFileURL(join(dist, path)).href;
const { RepositoryIndex } = await import(at('index/repository-index.js'));
const { searchRepository } = await import(at('retrieve/search-repository.js'));
const { renderSearchResult, warmSearch } = await import(at('scaffold/index.js'));

const queries = JSON.parse(readFileSync(queriesFile, 'utf8'));
const repository = await RepositoryIndex.open(resolve(tree), { indexPath, idleWarmers: warmSearch ? [warmSearch] : undefined });
try {
  const report = await repository.refresh();
  if (typeof repository.warmScoring === 'function') await repository.warmScoring();
  const firstSightMs = [];
  const cpuMs = [];
  for (const [i, query] of queries.entries()) {
    const t = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const result = await searchRepository(repository.store, query);
    renderSearchResult(repository.store, result, 'scaffold');
    const used = process.cpuUsage(cpu);
    if (i === 0) continue; // the process's first search pays for JIT and caches later ones reuse
    firstSightMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    cpuMs.push((used.user + used.system) / 1000);
  }
  process.stdout.write(JSON.stringify({ firstSightMs, cpuMs, files: report.listed }) + '\n');
} finally {
  repository.close();
}
