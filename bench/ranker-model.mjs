// The learned ranker's model: per level (file, module, function) one linear
// scorer over bench/ranker-features.mjs' candidate features, trained with a
// listwise softmax loss (each gold candidate's log-probability under a softmax
// over the instance's candidates; every instance weighs the same), L2 toward
// the default ranking (the weights start at, and are pulled toward, `anchor`
// on the default's own score and zero elsewhere: with little data the model
// stays the default's order), full-batch gradient descent in a fixed order: the same
// features give the same weights, bit for bit, on any machine. Features are
// standardised with the training set's means and deviations, which the weights
// file keeps beside the weights.
import { readFileSync } from 'node:fs';
import { goldAtLevel } from '../dist/eval/locbench-metrics.js';

/** The records of comma-separated feature files (bench/ranker-features.mjs' JSONL), in file order. */
export function readFeatureFiles(files) {
  return files.split(',').flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

/** Defaults of {@link trainLevel}. */
export const TRAINING = { epochs: 300, rate: 0.5, l2: 1, anchor: 4 };

/** Gold keys of one feature record at one level (LocBench's derivation, src/eval/locbench-metrics.ts). */
export function goldKeys(record, level) {
  return new Set(goldAtLevel(record.gold, level));
}

/** Training lists of one level: per record its candidate vectors and which are gold (records with no gold candidate are left out). */
export function listsOf(records, level) {
  const lists = [];
  for (const record of records) {
    const gold = goldKeys(record, level);
    const { keys, x } = record.levels[level];
    const labels = keys.map((k) => (gold.has(k) ? 1 : 0));
    if (labels.some((l) => l === 1)) lists.push({ x, labels });
  }
  return lists;
}

/** Trains one level's scorer → `{ mean, scale, weights }` (standardisation, then weights). */
export function trainLevel(lists, options = {}) {
  const { epochs, rate, l2, anchor } = { ...TRAINING, ...options };
  const dims = lists[0]?.x[0]?.length ?? 0;
  const mean = new Array(dims).fill(0);
  const scale = new Array(dims).fill(0);
  let n = 0;
  for (const list of lists) for (const row of list.x) { n++; row.forEach((v, d) => (mean[d] += v)); }
  for (let d = 0; d < dims; d++) mean[d] /= Math.max(1, n);
  for (const list of lists) for (const row of list.x) row.forEach((v, d) => (scale[d] += (v - mean[d]) ** 2));
  for (let d = 0; d < dims; d++) scale[d] = Math.sqrt(scale[d] / Math.max(1, n)) || 1;
  const standard = lists.map((list) => ({ labels: list.labels, x: list.x.map((row) => row.map((v, d) => (v - mean[d]) / scale[d])) }));
  // Dimension 0 is the default ranking's score over its best (ranker-features.mjs' first feature).
  const prior = Array.from({ length: dims }, (_, d) => (d === 0 ? anchor : 0));
  const weights = [...prior];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = weights.map((w, d) => l2 * (w - prior[d]));
    for (const list of standard) {
      const scores = list.x.map((row) => dot(weights, row));
      const top = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - top));
      const total = exp.reduce((a, b) => a + b, 0);
      const golds = list.labels.reduce((a, b) => a + b, 0);
      // d(-mean over gold of log p_g)/ds_j = p_j - [j gold]/golds
      list.x.forEach((row, j) => {
        const g = (exp[j] / total - list.labels[j] / golds) / standard.length;
        for (let d = 0; d < dims; d++) gradient[d] += g * row[d];
      });
    }
    for (let d = 0; d < dims; d++) weights[d] -= rate * gradient[d];
  }
  return { mean, scale, weights: weights.map((w) => Math.round(w * 1e6) / 1e6) };
}

function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A level's candidate keys reordered by the model (ties keep the default's order). */
export function rerank(model, keys, x) {
  const scored = keys.map((key, i) => ({ key, i, s: dot(model.weights, x[i].map((v, d) => (v - model.mean[d]) / model.scale[d])) }));
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.map((c) => c.key);
}
