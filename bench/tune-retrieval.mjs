#!/usr/bin/env node
// Sweeps retrieval settings over a LocBench split in one pass: each commit is
// indexed once, then every configuration is searched and scored.
// Usage: node bench/tune-retrieval.mjs INSTANCES.jsonl REPOS_DIR CONFIGS.json [--limit N]
// CONFIGS.json: [{"label": "...", "options": { SearchOptions }}, ...]
import { readFileSync } from 'node:fs';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = 'usage: node bench/tune-retrieval.mjs INSTANCES.jsonl REPOS_DIR CONFIGS.json [--limit N]';
const { values: opt, positionals } = parseBenchArgs({ usage: USAGE, options: { limit: { type: 'string' } }, minPositionals: 3, maxPositionals: 3 });
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { RepositoryIndex } = await import('../dist/index/repository-index.js');
const { searchWithTuning } = await import('../dist/retrieve/search-repository.js');
const { readLocbenchInstances } = await import('../dist/eval/locbench-instances.js');
const { findRepoGitDir } = await import('../dist/eval/repo-lookup.js');
const { MetricAccumulator, scoreInstance } = await import('../dist/eval/locbench-metrics.js');
const [instancesPath, reposDir, configsPath] = positionals;
const limit = wholeNumber(USAGE, 'limit', opt.limit) ?? Infinity;
const configs = JSON.parse(readFileSync(configsPath, 'utf8'));
const { instances } = await readLocbenchInstances(instancesPath);
const accumulators = configs.map(() => new MetricAccumulator());
const byRepo = new Map();
for (const instance of instances.slice(0, limit)) {
  if (!byRepo.has(instance.repo)) byRepo.set(instance.repo, []);
  byRepo.get(instance.repo).push(instance);
}
const started = Date.now();
for (const [repo, list] of byRepo) {
  const found = findRepoGitDir(reposDir, repo);
  if (!found.ok) throw new Error(found.reason);
  list.sort((a, b) => (a.base_commit < b.base_commit ? -1 : 1));
  let repository = null;
  for (const instance of list) {
    if (!repository) repository = await RepositoryIndex.open(found.gitDir, { commit: instance.base_commit });
    else await repository.switchCommit(instance.base_commit);
    await repository.refresh();
    for (let i = 0; i < configs.length; i++) {
      const result = await searchWithTuning(repository.store, instance.problem_statement, configs[i].options ?? {});
      const prediction = {
        found_files: result.files.map((f) => f.path),
        found_modules: result.modules.map((m) => `${m.path}:${m.qualifiedName}`),
        found_entities: result.functions.map((f) => `${f.path}:${f.qualifiedName}`),
      };
      accumulators[i].add(scoreInstance(instance.edit_functions, prediction));
    }
  }
  repository?.close();
}
const pad = (s, n) => String(s).padEnd(n);
console.log(pad('config', 28), 'file@1 file@3 file@5 mod@5  mod@10 fn@5   fn@10');
configs.forEach((config, i) => {
  const m = accumulators[i].result();
  const f = (level, k) => (m[level].scores[`Acc@${k}`] ?? 0).toFixed(3).padEnd(6);
  console.log(pad(config.label, 28), f('file', 1), f('file', 3), f('file', 5), f('module', 5), f('module', 10), f('function', 5), f('function', 10));
});
console.error(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
