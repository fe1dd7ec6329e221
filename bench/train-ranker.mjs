#!/usr/bin/env node
// Trains the learned ranker (bench/ranker-model.mjs) on feature files and
// writes its weights: one linear scorer per level with the standardisation it
// was trained with, the loss and options, and the feature names in vector order.
//
// From the manifest to the weights (every step deterministic):
//   node bench/training-pool.mjs rebuild --repos $MIRRORS --manifest bench/training-pool.json --out pool.jsonl
//   node bench/ranker-features.mjs --instances pool.jsonl --repos $MIRRORS --index-dir $IDX --rolling --out pool-features.jsonl
//   node bench/train-ranker.mjs --features pool-features.jsonl[,dev-features.jsonl] --loss pairwise --out weights.json
//
// Usage:
//   node bench/train-ranker.mjs --features F1.jsonl[,F2.jsonl] --out WEIGHTS.json
//        [--loss softmax|pairwise] [--uniform-pairs] [--epochs 100] [--l2 1] [--anchor 4]
// --loss: softmax (listwise, the default) or pairwise (RankNet's logistic pair
// loss with LambdaRank's DCG weights; --uniform-pairs: every pair the same).
import { writeFileSync } from 'node:fs';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';
import { FEATURE_NAMES, LEVELS } from './ranker-features.mjs';

const USAGE = `usage: node bench/train-ranker.mjs --features F1.jsonl[,F2.jsonl] --out WEIGHTS.json
       [--loss softmax|pairwise] [--uniform-pairs] [--epochs 100] [--l2 1] [--anchor 4]
(see the header of bench/train-ranker.mjs)`;
const { values: opt } = parseBenchArgs({
  usage: USAGE,
  options: { ...Object.fromEntries(['features', 'out', 'epochs', 'l2', 'anchor', 'loss'].map((n) => [n, { type: 'string' }])), 'uniform-pairs': { type: 'boolean' } },
});
// Loaded after the arguments are read, so --help and a bad flag answer without loading the build.
const { listsOf, readFeatureFiles, rerank, TRAINING, trainLevel } = await import('./ranker-model.mjs');
if (!opt.features || !opt.out) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
/** A number ≥ 0 from a flag, or the trainer's default. */
function nonNegative(name, fallback) {
  if (opt[name] === undefined) return fallback;
  const value = Number(opt[name]);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(`--${name} takes a number ≥ 0\n\n${USAGE}\n`);
    process.exit(2);
  }
  return value;
}
const loss = opt.loss ?? TRAINING.loss;
if (loss !== 'softmax' && loss !== 'pairwise') {
  process.stderr.write(`--loss takes softmax or pairwise\n\n${USAGE}\n`);
  process.exit(2);
}
const options = {
  ...TRAINING,
  epochs: wholeNumber(USAGE, 'epochs', opt.epochs) ?? TRAINING.epochs,
  l2: nonNegative('l2', TRAINING.l2),
  anchor: nonNegative('anchor', TRAINING.anchor),
  loss,
  lambda: !opt['uniform-pairs'],
};
const records = readFeatureFiles(opt.features);
const t0 = process.cpuUsage();
const levels = {};
const checks = [];
for (const level of LEVELS) {
  const lists = listsOf(records, level);
  levels[level] = { instances: lists.length, ...trainLevel(lists, options) };
  // Convergence, checked: one Newton step more must reorder no record's candidates.
  const more = trainLevel(lists, { ...options, extraEpochs: 1 });
  const changed = records.filter((r) => rerank(levels[level], r.levels[level].keys, r.levels[level].x).join('\n') !== rerank(more, r.levels[level].keys, r.levels[level].x).join('\n')).length;
  checks.push(`${level}: ${levels[level].epochs} epochs, Newton decrement ${levels[level].decrement.toExponential(1)}, one more epoch reorders ${changed} of ${records.length}`);
}
const cpu = process.cpuUsage(t0);
const repositories = new Set(records.map((r) => r.repo)).size;
writeFileSync(opt.out, `${JSON.stringify({ features: FEATURE_NAMES, training: options, records: records.length, repositories, levels }, null, 1)}\n`);
process.stderr.write(`${records.length} instances of ${repositories} repositories, ${LEVELS.map((l) => `${l} ${levels[l].instances}`).join(', ')} with a gold candidate; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s → ${opt.out}\n${checks.join('\n')}\n`);
