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
// and zero elsewhere: with little data the model stays the default's order).
// Pairwise's LambdaRank weights come from the starting scores (the default's
// order) and are then held fixed, so each loss is one convex function of the
// weights and, with l2 > 0, strongly convex: it has one minimum.
// Optimiser: Newton's method with a backtracking (Armijo) line search over the
// full batch, in a fixed order. Every accepted step lowers the loss (the line
// search only accepts a sufficient decrease), and on a smooth strongly convex
// loss damped Newton converges to the minimum from any start; training stops
// when the Newton decrement g·H⁻¹g/2 (the loss still to gain, to second order)
// is below `tolerance` × max(1, loss), or when a step no longer lowers the loss
// in floating point, and throws when `epochs` iterations did not get there
// (no unconverged weights are returned). The same features give the same
// weights, bit for bit, on any machine. Features are standardised with the
// training set's means and deviations, which the weights file keeps beside the
// weights.
import { readFileSync } from 'node:fs';
import { goldAtLevel } from '../dist/eval/locbench-metrics.js';

/** The records of comma-separated feature files (bench/ranker-features.mjs' JSONL), in file order. */
export function readFeatureFiles(files) {
  return files.split(',').flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

/**
 * Defaults of {@link trainLevel}: `epochs` is the most Newton iterations
 * (a converged run takes far fewer), `tolerance` the Newton decrement, relative
 * to the loss (at least 1), at which training stops.
 */
export const TRAINING = { epochs: 100, tolerance: 1e-15, l2: 1, anchor: 4, loss: 'softmax', lambda: true };

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

/**
 * Trains one level's scorer → `{ mean, scale, weights, epochs, decrement }`
 * (standardisation, weights, the iterations taken and the final Newton
 * decrement); `options.loss` is 'softmax' (default) or 'pairwise'.
 * `options.onEpoch(epoch, loss, weights)` sees the loss before the first step
 * and after each one; `options.extraEpochs` takes that many Newton steps more
 * after convergence (to check that they change nothing).
 */
export function trainLevel(lists, options = {}) {
  const { epochs, tolerance, l2, anchor, loss, lambda, onEpoch, extraEpochs = 0 } = { ...TRAINING, ...options };
  if (loss !== 'softmax' && loss !== 'pairwise') throw new Error(`unknown loss ${JSON.stringify(loss)}`);
  if (!(l2 > 0)) throw new Error(`l2 must be > 0 (it makes the loss strongly convex), got ${l2}`);
  const { dims, mean, scale, standard } = standardise(lists);
  // Dimension 0 is the default ranking's score over its best (ranker-features.mjs' first feature).
  const prior = Array.from({ length: dims }, (_, d) => (d === 0 ? anchor : 0));
  let weights = [...prior];
  // Pairwise: each list's pairs and their weights, from the starting scores (fixed from here on).
  const pairs = loss === 'pairwise' ? standard.map((list) => pairsOf(list.x.map((row) => dot(weights, row)), list.labels, lambda)) : null;
  const objective = (w, withDerivatives) => lossOf(standard, pairs, prior, l2, w, withDerivatives);
  let current = objective(weights, true);
  onEpoch?.(0, current.value, weights);
  let epoch = 0;
  let decrement = Infinity;
  let extra = 0;
  while (true) {
    const direction = solveCholesky(current.hessian, current.gradient);
    decrement = dot(current.gradient, direction) / 2;
    if (decrement <= tolerance * Math.max(1, Math.abs(current.value))) {
      if (extra >= extraEpochs) break;
      extra++;
    }
    if (epoch >= epochs) throw new Error(`training did not converge in ${epochs} epochs (Newton decrement ${decrement.toExponential(2)} > ${tolerance})`);
    // Backtracking: halve the step until the loss falls by at least a 1e-4 share of what the linear model promises.
    let t = 1;
    let next = null;
    for (let tries = 0; tries < 60; tries++) {
      const candidate = weights.map((w, d) => w - t * direction[d]);
      const value = objective(candidate, false).value;
      if (value <= current.value - 1e-4 * t * 2 * decrement) {
        next = candidate;
        break;
      }
      t /= 2;
    }
    epoch++;
    // No decrease left to find in floating point: the minimum, to machine precision.
    if (!next) break;
    const before = current.value;
    weights = next;
    current = objective(weights, true);
    onEpoch?.(epoch, current.value, weights);
    if (!(current.value < before) && extra === 0) break;
  }
  return { mean, scale, weights: weights.map((w) => Math.round(w * 1e6) / 1e6), epochs: epoch, decrement };
}

/**
 * The loss at `weights` (mean over lists + l2/2 · |w − prior|²) and, when
 * asked, its gradient and Hessian. A list's loss is a function of its scores
 * s = X·w, so its gradient is Xᵀ·c and its Hessian Xᵀ·M·X, with c and M the
 * loss's first and second derivatives in the scores.
 */
function lossOf(standard, pairs, prior, l2, weights, withDerivatives) {
  const dims = weights.length;
  let value = 0;
  const gradient = weights.map((w, d) => l2 * (w - prior[d]));
  const hessian = withDerivatives ? Array.from({ length: dims }, (_, i) => Array.from({ length: dims }, (_, j) => (i === j ? l2 : 0))) : null;
  for (let d = 0; d < dims; d++) value += (l2 / 2) * (weights[d] - prior[d]) ** 2;
  const n = standard.length;
  standard.forEach((list, k) => {
    const scores = list.x.map((row) => dot(weights, row));
    const part = pairs ? pairwiseLoss(scores, pairs[k], withDerivatives) : softmaxLoss(scores, list.labels, withDerivatives);
    value += part.value / n;
    if (!withDerivatives) return;
    list.x.forEach((row, j) => {
      const g = part.coefficients[j] / n;
      if (g !== 0) for (let d = 0; d < dims; d++) gradient[d] += g * row[d];
    });
    // Xᵀ·M·X, with M = Σ_terms m·u·uᵀ over the loss's rank-one curvature terms (u a combination of rows).
    for (const { m, u } of part.curvature) {
      if (m === 0) continue;
      const v = new Array(dims).fill(0);
      for (const [j, a] of u) for (let d = 0; d < dims; d++) v[d] += a * list.x[j][d];
      for (let i = 0; i < dims; i++) {
        const vi = (m / n) * v[i];
        if (vi !== 0) for (let d = 0; d < dims; d++) hessian[i][d] += vi * v[d];
      }
    }
  });
  return { value, gradient, hessian };
}

/**
 * −mean over gold of log p_g under a softmax over the scores; coefficients
 * d/ds_j = p_j − [j gold]/golds; curvature diag(p) − p·pᵀ as Σ_j p_j·(e_j − p)(e_j − p)ᵀ.
 */
function softmaxLoss(scores, labels, withDerivatives) {
  const top = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - top));
  const total = exp.reduce((a, b) => a + b, 0);
  const golds = labels.reduce((a, b) => a + b, 0);
  const logTotal = top + Math.log(total);
  let value = 0;
  scores.forEach((s, j) => {
    if (labels[j] === 1) value += (logTotal - s) / golds;
  });
  if (!withDerivatives) return { value };
  const p = exp.map((e) => e / total);
  const coefficients = scores.map((_, j) => p[j] - labels[j] / golds);
  const curvature = p.map((pj, j) => ({ m: pj, u: p.map((pk, k) => [k, (k === j ? 1 : 0) - pk]).filter(([, a]) => a !== 0) }));
  return { value, coefficients, curvature };
}

/** Σ w·log(1 + e^{−(s_g − s_m)}) over the pairs; curvature σ(1−σ)·w on (e_g − e_m). */
function pairwiseLoss(scores, pairs, withDerivatives) {
  let value = 0;
  const coefficients = withDerivatives ? new Array(scores.length).fill(0) : null;
  const curvature = [];
  for (const [g, m, w] of pairs) {
    const margin = scores[g] - scores[m];
    // log(1 + e^{−x}), stable for large |x|.
    value += w * (margin > 0 ? Math.log1p(Math.exp(-margin)) : -margin + Math.log1p(Math.exp(margin)));
    if (!withDerivatives) continue;
    const sigma = 1 / (1 + Math.exp(margin));
    coefficients[g] -= w * sigma;
    coefficients[m] += w * sigma;
    curvature.push({ m: w * sigma * (1 - sigma), u: [[g, 1], [m, -1]] });
  }
  return { value, coefficients, curvature };
}

/** Solves H·x = b for a symmetric positive definite H (Cholesky; H ⪰ l2·I here). */
function solveCholesky(h, b) {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = h[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) {
        if (!(s > 0)) throw new Error('the Hessian is not positive definite');
        l[i][i] = Math.sqrt(s);
      } else l[i][j] = s / l[j][j];
    }
  }
  const y = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i][k] * y[k];
    y[i] = s / l[i][i];
  }
  const x = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= l[k][i] * x[k];
    x[i] = s / l[i][i];
  }
  return x;
}

/**
 * The (gold, non-gold) pairs of one list with their weights, summing to one:
 * w_gn ∝ |1/log2(2+r_g) − 1/log2(2+r_n)| with r the ranks under `scores`
 * (ties: candidate order) when `lambda`, else uniform. Empty when no pair has weight.
 */
export function pairsOf(scores, labels, lambda = true) {
  const n = scores.length;
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
  return total === 0 ? [] : pairs.map(([g, m, w]) => [g, m, w / total]);
}

/**
 * Per candidate, d(loss)/ds_j of the pair loss Σ w_gn · log(1 + e^{−(s_g − s_n)})
 * over gold g and non-gold n, with the pair weights of {@link pairsOf} taken at these scores.
 */
export function pairwiseCoefficients(scores, labels, lambda = true) {
  return pairwiseLoss(scores, pairsOf(scores, labels, lambda), true).coefficients;
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
