/**
 * LambdaMART (Burges 2010, "From RankNet to LambdaRank to LambdaMART"):
 * gradient-boosted regression trees whose gradients are LambdaRank's λs, so
 * each tree moves scores toward a better NDCG of every candidate list.
 *
 * Written here rather than taken from a library: the npm registry has no
 * maintained LambdaMART (the boosting packages there are XGBoost/LightGBM
 * bindings with native builds, or classification-only), and the part the
 * product runs at query time is {@link ensembleScore}, a few lines. Training is
 * deterministic: no sampling, ties broken by feature index and row order.
 */

/** One regression tree in parallel arrays; node 0 is the root. `feature[n] < 0` marks a leaf. */
export interface RegressionTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  /** A leaf's output (shrinkage already applied); 0 at split nodes. */
  value: number[];
}

/** A candidate list: feature vectors and relevance labels (1 relevant, 0 not). */
export interface RankingList {
  x: readonly (readonly number[])[];
  y: readonly number[];
  /** Scores boosting starts from (default 0 for every candidate): the trees then add to this ranker's order. */
  base?: readonly number[];
}

export interface LambdaMartOptions {
  /** Trees to grow. */
  trees: number;
  /** Learning rate applied to every leaf. */
  shrinkage: number;
  /** Most leaves per tree (grown best-first). */
  leaves: number;
  /** Fewest rows in a leaf. */
  minLeaf: number;
  /** NDCG truncation: pairs ranked both below this position change nothing (0: the whole list). */
  ndcgAt: number;
}

export const DEFAULT_LAMBDAMART: LambdaMartOptions = { trees: 100, shrinkage: 0.1, leaves: 8, minLeaf: 40, ndcgAt: 10 };

/** The output of one tree for one vector. */
export function treeValue(tree: RegressionTree, x: readonly number[]): number {
  let node = 0;
  while (tree.feature[node]! >= 0) node = x[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
  return tree.value[node]!;
}

/** The ensemble's score of one vector: `base` plus the sum of its trees' outputs. */
export function ensembleScore(trees: readonly RegressionTree[], x: readonly number[], base = 0): number {
  let s = base;
  for (const tree of trees) s += treeValue(tree, x);
  return s;
}

/**
 * Trains `options.trees` trees on `lists` (lists without a relevant candidate
 * teach nothing and are skipped). `onTree(i, trees)` is called after each tree
 * (early stopping is the caller's: it scores held-out lists with a prefix of the trees).
 */
export function trainLambdaMart(lists: readonly RankingList[], options: Partial<LambdaMartOptions> = {}, onTree?: (index: number, trees: readonly RegressionTree[]) => void): RegressionTree[] {
  const o = { ...DEFAULT_LAMBDAMART, ...options };
  const useful = lists.filter((l) => l.y.some((v) => v > 0) && l.y.some((v) => v === 0));
  const rows: (readonly number[])[] = [];
  const initial: number[] = [];
  const listOf: { start: number; n: number; y: readonly number[] }[] = [];
  for (const list of useful) {
    listOf.push({ start: rows.length, n: list.x.length, y: list.y });
    rows.push(...list.x);
    for (let i = 0; i < list.x.length; i++) initial.push(list.base?.[i] ?? 0);
  }
  const trees: RegressionTree[] = [];
  if (rows.length === 0) return trees;
  const width = rows[0]!.length;
  // Each feature's rows in ascending value order, computed once (the split search walks them).
  const order = Array.from({ length: width }, (_, f) => Array.from(rows.keys()).sort((a, b) => rows[a]![f]! - rows[b]![f]! || a - b));
  // Boosting starts from the lists' base scores (another ranker's), so the trees learn corrections to it.
  const scores = Float64Array.from(initial);
  const lambda = new Float64Array(rows.length);
  const weight = new Float64Array(rows.length);
  for (let t = 0; t < o.trees; t++) {
    lambda.fill(0);
    weight.fill(0);
    for (const list of listOf) lambdas(list, scores, lambda, weight, o.ndcgAt);
    const tree = fitTree(rows, order, lambda, weight, o);
    for (let i = 0; i < rows.length; i++) scores[i] += treeValue(tree, rows[i]!);
    trees.push(tree);
    onTree?.(t, trees);
  }
  return trees;
}

/** LambdaRank's gradients (λ, toward a higher score) and second derivatives of one list, added into `lambda` and `weight`. */
function lambdas(list: { start: number; n: number; y: readonly number[] }, scores: Float64Array, lambda: Float64Array, weight: Float64Array, ndcgAt: number): void {
  const { start, n, y } = list;
  const byScore = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[start + b]! - scores[start + a]! || a - b);
  const rank = new Array<number>(n);
  byScore.forEach((i, r) => (rank[i] = r));
  const cut = ndcgAt > 0 ? ndcgAt : n;
  const discount = (r: number) => (r < cut ? 1 / Math.log2(r + 2) : 0);
  const relevant = y.filter((v) => v > 0).length;
  let ideal = 0;
  for (let r = 0; r < Math.min(relevant, cut); r++) ideal += discount(r);
  if (ideal === 0) return;
  for (let i = 0; i < n; i++) {
    if (!(y[i]! > 0)) continue;
    for (let j = 0; j < n; j++) {
      if (y[j]! > 0) continue;
      const delta = Math.abs(discount(rank[i]!) - discount(rank[j]!)) / ideal;
      if (delta === 0) continue;
      const rho = 1 / (1 + Math.exp(scores[start + i]! - scores[start + j]!));
      lambda[start + i] += delta * rho;
      lambda[start + j] -= delta * rho;
      const h = delta * rho * (1 - rho);
      weight[start + i] += h;
      weight[start + j] += h;
    }
  }
}

interface Split { feature: number; threshold: number; gain: number }

/** A least-squares regression tree on the λs, grown best-first to `leaves` leaves; leaf values are Newton steps (Σλ / Σweight) × shrinkage. */
function fitTree(rows: readonly (readonly number[])[], order: readonly number[][], lambda: Float64Array, weight: Float64Array, o: LambdaMartOptions): RegressionTree {
  const tree: RegressionTree = { feature: [-1], threshold: [0], left: [-1], right: [-1], value: [0] };
  const nodeOf = new Int32Array(rows.length);
  const open = new Map<number, Split | null>([[0, bestSplit(rows, order, lambda, nodeOf, 0, o.minLeaf)]]);
  let leaves = 1;
  while (leaves < o.leaves) {
    let node = -1;
    for (const [n, split] of open) if (split && (node < 0 || split.gain > open.get(node)!.gain)) node = n;
    if (node < 0) break;
    const split = open.get(node)!;
    open.delete(node);
    const left = tree.feature.length;
    const right = left + 1;
    for (const child of [left, right]) {
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(0);
      void child;
    }
    tree.feature[node] = split.feature;
    tree.threshold[node] = split.threshold;
    tree.left[node] = left;
    tree.right[node] = right;
    for (let i = 0; i < rows.length; i++) if (nodeOf[i] === node) nodeOf[i] = rows[i]![split.feature]! <= split.threshold ? left : right;
    open.set(left, bestSplit(rows, order, lambda, nodeOf, left, o.minLeaf));
    open.set(right, bestSplit(rows, order, lambda, nodeOf, right, o.minLeaf));
    leaves++;
  }
  const sumL = new Map<number, number>();
  const sumW = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    sumL.set(nodeOf[i]!, (sumL.get(nodeOf[i]!) ?? 0) + lambda[i]!);
    sumW.set(nodeOf[i]!, (sumW.get(nodeOf[i]!) ?? 0) + weight[i]!);
  }
  for (const [node, l] of sumL) {
    const w = sumW.get(node)!;
    tree.value[node] = w > 1e-12 ? (o.shrinkage * l) / w : 0;
  }
  return tree;
}

/** The split of `node`'s rows with the largest drop in squared error of the λs, or null when none leaves `minLeaf` rows on both sides. */
function bestSplit(rows: readonly (readonly number[])[], order: readonly number[][], lambda: Float64Array, nodeOf: Int32Array, node: number, minLeaf: number): Split | null {
  let n = 0;
  let total = 0;
  for (let i = 0; i < rows.length; i++) if (nodeOf[i] === node) {
    n++;
    total += lambda[i]!;
  }
  if (n < 2 * minLeaf) return null;
  let best: Split | null = null;
  const base = (total * total) / n;
  for (let f = 0; f < order.length; f++) {
    let count = 0;
    let sum = 0;
    let previous = Number.NaN;
    for (const i of order[f]!) {
      if (nodeOf[i] !== node) continue;
      const v = rows[i]![f]!;
      // A threshold goes between two distinct values, with enough rows on each side.
      if (count >= minLeaf && n - count >= minLeaf && v !== previous) {
        const gain = (sum * sum) / count + ((total - sum) * (total - sum)) / (n - count) - base;
        if (gain > 1e-12 && (!best || gain > best.gain)) best = { feature: f, threshold: (previous + v) / 2, gain };
      }
      count++;
      sum += lambda[i]!;
      previous = v;
    }
  }
  return best;
}
