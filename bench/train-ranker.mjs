#!/usr/bin/env node
// Trains the learned ranker (bench/ranker-model.mjs) on feature files and
// writes its weights: one linear scorer per level with the standardisation it
// was trained with, and the feature names in vector order.
//
// From the manifest to the weights (every step deterministic):
//   node bench/training-pool.mjs rebuild --repos $MIRRORS --manifest bench/training-pool.json --out pool.jsonl
//   node bench/ranker-features.mjs --instances pool.jsonl --repos $MIRRORS --index-dir $IDX --rolling --out pool-features.jsonl
//   node bench/train-ranker.mjs --features pool-features.jsonl[,dev-features.jsonl] --out weights.json
//
// Usage:
//   node bench/train-ranker.mjs --features F1.jsonl[,F2.jsonl] --out WEIGHTS.json [--epochs 300] [--l2 1]
import { writeFileSync } from 'node:fs';
import { parseBenchArgs, wholeNumber } from './bench-args.mjs';
import { FEATURE_NAMES, LEVELS } from './ranker-features.mjs';
import { listsOf, readFeatureFiles, TRAINING, trainLevel } from './ranker-model.mjs';

const USAGE = `usage: node bench/train-ranker.mjs --features F1.jsonl[,F2.jsonl] --out WEIGHTS.json [--epochs 300] [--l2 1]
(see the header of bench/train-ranker.mjs)`;
const { values: opt } = parseBenchArgs({ usage: USAGE, options: { features: { type: 'string' }, out: { type: 'string' }, epochs: { type: 'string' }, l2: { type: 'string' } } });
if (!opt.features || !opt.out) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const l2 = opt.l2 === undefined ? TRAINING.l2 : Number(opt.l2);
if (!Number.isFinite(l2) || l2 < 0) {
  process.stderr.write(`--l2 takes a number ≥ 0\n\n${USAGE}\n`);
  process.exit(2);
}
const options = { ...TRAINING, epochs: wholeNumber(USAGE, 'epochs', opt.epochs) ?? TRAINING.epochs, l2 };
const records = readFeatureFiles(opt.features);
const t0 = process.cpuUsage();
const levels = {};
for (const level of LEVELS) {
  const lists = listsOf(records, level);
  levels[level] = { instances: lists.length, ...trainLevel(lists, options) };
}
const cpu = process.cpuUsage(t0);
writeFileSync(opt.out, `${JSON.stringify({ features: FEATURE_NAMES, training: options, records: records.length, levels }, null, 1)}\n`);
process.stderr.write(`${records.length} instances, ${LEVELS.map((l) => `${l} ${levels[l].instances}`).join(', ')} with a gold candidate; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s → ${opt.out}\n`);
