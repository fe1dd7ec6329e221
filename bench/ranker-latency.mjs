#!/usr/bin/env node
// What the learned model costs a search: the same texts searched with the hand
// ranking and with `--ranker learned` (or `--ranker auto`, the default: the
// model only where its file's `use` says), alternated in one process on one
// warm index, CPU time per search (process.cpuUsage), and the per-text extra
// (that ranker − hand) as p50 / p95. The extra is the feature vectors
// (ranking-features.ts) and the trees (the target: < 2 ms per query).
//
// Usage:
//   node bench/ranker-latency.mjs TREE_OR_GIT_DIR [--commit REV] --texts A.jsonl[,...] [--repo OWNER/NAME] [--runs 3] [--ranker learned|auto]
// --texts: LocBench-format instance files; their problem statements are the
// queries (with --repo, only that repository's).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';

const USAGE = 'usage: node bench/ranker-latency.mjs TREE_OR_GIT_DIR [--commit REV] --texts A.jsonl[,...] [--repo OWNER/NAME] [--runs 3] [--ranker learned|auto]';
const { values: opt, positionals } = parseBenchArgs({
  usage: USAGE,
  options: Object.fromEntries(['commit', 'texts', 'repo', 'runs', 'ranker'].map((n) => [n, { type: 'string' }])),
  minPositionals: 1,
  maxPositionals: 1,
});
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { RepositoryIndex } = await import('../dist/index/repository-index.js');
const { searchRepository } = await import('../dist/retrieve/search-repository.js');
if (!opt.texts) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const runs = wholeNumber(USAGE, 'runs', opt.runs) ?? 3;
const kind = opt.ranker ?? 'learned';
if (kind !== 'learned' && kind !== 'auto') {
  process.stderr.write(`--ranker must be learned or auto, not '${kind}'\n${USAGE}\n`);
  process.exit(2);
}
const texts = opt.texts.split(',').flatMap((file) =>
  readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)).filter((i) => !opt.repo || i.repo === opt.repo).map((i) => i.problem_statement),
);
if (texts.length === 0) {
  process.stderr.write('no texts: check --texts and --repo\n');
  process.exit(1);
}
const repository = await RepositoryIndex.open(positionals[0], opt.commit ? { commit: opt.commit } : {});
await repository.refresh();
const store = repository.store;
const cpuMs = async (fn) => {
  const t0 = process.cpuUsage();
  await fn();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
};
// Warm both paths once (the model file, the index's derived values).
for (const text of texts.slice(0, 3)) {
  await searchRepository(store, text, { ranker: 'hand' });
  await searchRepository(store, text, { ranker: kind });
}
const hand = [];
const other = [];
const extra = [];
for (let r = 0; r < runs; r++) {
  for (const text of texts) {
    const order = r % 2 === 0 ? ['hand', kind] : [kind, 'hand'];
    const t = {};
    for (const k of order) t[k] = await cpuMs(() => searchRepository(store, text, { ranker: k }));
    hand.push(t.hand);
    other.push(t[kind]);
    extra.push(t[kind] - t.hand);
  }
}
const fileCount = store.files().length;
repository.close();
const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const f = (x) => x.toFixed(2);
console.log(`${texts.length} texts × ${runs} runs, ${fileCount} indexed files; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`hand     CPU p50 ${f(q(hand, 0.5))} ms  p95 ${f(q(hand, 0.95))} ms`);
console.log(`${kind.padEnd(8)} CPU p50 ${f(q(other, 0.5))} ms  p95 ${f(q(other, 0.95))} ms`);
console.log(`extra (${kind} − hand, per text and run) p50 ${f(q(extra, 0.5))} ms  p95 ${f(q(extra, 0.95))} ms; ${kind} ÷ hand p50 ${(q(other, 0.5) / q(hand, 0.5)).toFixed(3)}`);
