// The learned ranker's model: per level (file, module, function) one linear
// scorer over bench/ranker-features.mjs' candidate features, trained with one of
// two losses:
//   softmax  (listwise) each gold candidate's log-probability under a softmax
//            over the instance's candidates;
//   pairwise (RankNet, with LambdaRank's weights by default) the logistic loss
//            of every (gold, non-gold) pair's score difference, each pair
//            weighed by how much swapping the two would change the list's DCG
//            under the current scores (lambda: false weighs every pair the same);
//            each instance's pair weights sum to one.
// Both: every instance weighs the same, L2 toward the default ranking (the
// weights start at, and are pulled toward, `anchor` on the default's own score
// and zero elsewhere: with little data the model stays the default's order),
// full-batch gradient descent in a fixed order: the same features give the same
// weights, bit for bit, on any machine. Features are standardised with the
// training set's means and deviations, which the weights file keeps beside the
// weights.
import { readFileSync } from 'node:fs';
import { goldAtLevel } from '../dist/eval/locbench-metrics.js';

/** The records of comma-separated feature files (bench/ranker-features.mjs' JSONL), in file order. */
export function readFeatureFiles(files) {
  return files.split(',').flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

/** Defaults of {@link trainLevel}. */
export const TRAINING = { epochs: 300, rate: 0.5, l2: 1, anchor: 4, loss: 'softmax', lambda: true };

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

/** The training set's per-dimension mean and deviation, and the lists standardised with them. */
function standardise(lists) {
  const dims = lists[0]?.x[0]?.length ?? 0;
  const mean = new Array(dims).fill(0);
  const scale = new Array(dims).fill(0);
  let n = 0;
  for (const list of lists) for (const row of list.x) { n++; row.forEach((v, d) => (mean[d] += v)); }
  for (let d = 0; d < dims; d++) mean[d] /= Math.max(1, n);
  for (const list of lists) for (const row of list.x) row.forEach((v, d) => (scale[d] += (v - mean[d]) ** 2));
  for (let d = 0; d < dims; d++) scale[d] = Math.sqrt(scale[d] / Math.max(1, n)) || 1;
  const standard = lists.map((list) => ({ labels: list.labels, x: list.x.map((row) => row.map((v, d) => (v - mean[d]) / scale[d])) }));
  return { dims, mean, scale, standard };
}

/** Trains one level's scorer → `{ mean, scale, weights }` (standardisation, then weights); `options.loss` is 'softmax' (default) or 'pairwise'. */
export function trainLevel(lists, options = {}) {
  const { epochs, rate, l2, anchor, loss, lambda } = { ...TRAINING, ...options };
  if (loss !== 'softmax' && loss !== 'pairwise') throw new Error(`unknown loss ${JSON.stringify(loss)}`);
  const { dims, mean, scale, standard } = standardise(lists);
  // Dimension 0 is the default ranking's score over its best (ranker-features.mjs' first feature).
  const prior = Array.from({ length: dims }, (_, d) => (d === 0 ? anchor : 0));
  const weights = [...prior];
  const step = loss === 'softmax' ? softmaxCoefficients : (scores, labels) => pairwiseCoefficients(scores, labels, lambda);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = weights.map((w, d) => l2 * (w - prior[d]));
    for (const list of standard) {
      const coefficients = step(list.x.map((row) => dot(weights, row)), list.labels);
      list.x.forEach((row, j) => {
        const g = coefficients[j] / standard.length;
        if (g !== 0) for (let d = 0; d < dims; d++) gradient[d] += g * row[d];
      });
    }
    for (let d = 0; d < dims; d++) weights[d] -= rate * gradient[d];
  }
  return { mean, scale, weights: weights.map((w) => Math.round(w * 1e6) / 1e6) };
}

/** d(−mean over gold of log p_g)/ds_j = p_j − [j gold]/golds, per candidate. */
function softmaxCoefficients(scores, labels) {
  const top = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - top));
  const total = exp.reduce((a, b) => a + b, 0);
  const golds = labels.reduce((a, b) => a + b, 0);
  return scores.map((_, j) => exp[j] / total - labels[j] / golds);
}

/**
 * Per candidate, d(loss)/ds_j of the pair loss Σ w_gn · log(1 + e^{−(s_g − s_n)})
 * over gold g and non-gold n; w_gn ∝ |1/log2(2+r_g) − 1/log2(2+r_n)| with r the
 * ranks under the current scores (ties: candidate order) when `lambda`, else
 * uniform; the weights sum to one per instance.
 */
export function pairwiseCoefficients(scores, labels, lambda = true) {
  const n = scores.length;
  const coefficients = new Array(n).fill(0);
  const rank = new Array(n);
  if (lambda) {
    const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
    order.forEach((i, r) => (rank[i] = r));
  }
  const gain = (i) => 1 / Math.log2(2 + rank[i]);
  const pairs = [];
  let total = 0;
  for (let g = 0; g < n; g++) {
    if (labels[g] !== 1) continue;
    for (let m = 0; m < n; m++) {
      if (labels[m] === 1) continue;
      const w = lambda ? Math.abs(gain(g) - gain(m)) : 1;
      pairs.push([g, m, w]);
      total += w;
    }
  }
  if (total === 0) return coefficients;
  for (const [g, m, w] of pairs) {
    // d/ds_g log(1+e^{−(s_g−s_m)}) = −σ(s_m − s_g)
    const sigma = 1 / (1 + Math.exp(scores[g] - scores[m]));
    coefficients[g] -= (w / total) * sigma;
    coefficients[m] += (w / total) * sigma;
  }
  return coefficients;
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
