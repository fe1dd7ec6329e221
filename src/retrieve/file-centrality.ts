/**
 * File centrality for the repository map: PageRank over the graph of resolved
 * imports and cross-file calls the index already holds, optionally
 * personalised toward some files. The graph is built once per index state
 * (kept per store and index generation) so a warm call only iterates.
 */
import { graphInputs, indexGeneration, type IndexStore } from '../index/index.js';

/** A call to a name defined in more files than this links to none of them (`get`, `run`, `__init__`). */
export const MAX_DEFINITIONS_PER_CALL = 8;

const DAMPING = 0.85;
const MAX_ITERATIONS = 60;
const TOLERANCE = 1e-10;

/** The file graph in compressed rows (out-edges), with what symbol ranking needs. */
export interface FileGraph {
  paths: string[];
  indexOf: ReadonlyMap<string, number>;
  /** Out-edges of file i are outTo[outStart[i] .. outStart[i+1]), weighted by outWeight; outTotal[i] is their sum. */
  outStart: Int32Array;
  outTo: Int32Array;
  outWeight: Float64Array;
  outTotal: Float64Array;
  /** Per file: how many other files import it. */
  importedBy: Int32Array;
  /** Per simple name: how many files other than its definers call it (a symbol's importance in the map). */
  callersOfName: ReadonlyMap<string, number>;
  /** Ranks with no focus (uniform teleport). */
  baseRanks: Float64Array;
}

const graphs = new WeakMap<IndexStore, { generation: string; graph: FileGraph }>();

/** The file graph of the index's current state (built on first use and after every write). */
export function fileGraph(store: IndexStore): FileGraph {
  const generation = indexGeneration(store);
  const cached = graphs.get(store);
  if (cached && cached.generation === generation) return cached.graph;
  const graph = buildGraph(store);
  graphs.set(store, { generation, graph });
  return graph;
}

function buildGraph(store: IndexStore): FileGraph {
  const { paths, imports, defines, calls } = graphInputs(store);
  const n = paths.length;
  const definers = new Map<string, number[]>();
  defines.forEach((names, file) => {
    for (const name of names) {
      const list = definers.get(name);
      if (!list) definers.set(name, [file]);
      else if (list[list.length - 1] !== file) list.push(file);
    }
  });
  // Edge weights keyed by from * n + to, summed in a fixed order (files, then names sorted). An import
  // counts 1; calls count the square root of their summed weight, so one file calling many names of
  // another does not drown the rest of the graph.
  const importWeights = new Map<number, number>();
  const callWeights = new Map<number, number>();
  const add = (weights: Map<number, number>, from: number, to: number, w: number) => weights.set(from * n + to, (weights.get(from * n + to) ?? 0) + w);
  const importedBy = new Int32Array(n);
  for (const [from, to] of imports) {
    add(importWeights, from, to, 1);
    importedBy[to]++;
  }
  const callersOfName = new Map<string, number>();
  calls.forEach((names, from) => {
    for (const name of names) {
      const targets = definers.get(name);
      if (!targets || targets.length > MAX_DEFINITIONS_PER_CALL) continue;
      let outside = false;
      for (const to of targets) {
        if (to === from) continue;
        outside = true;
        add(callWeights, from, to, 1 / targets.length);
      }
      if (outside) callersOfName.set(name, (callersOfName.get(name) ?? 0) + 1);
    }
  });
  const weights = new Map(importWeights);
  for (const [key, w] of callWeights) weights.set(key, (weights.get(key) ?? 0) + Math.sqrt(w));
  const keys = [...weights.keys()].sort((a, b) => a - b);
  const outStart = new Int32Array(n + 1);
  const outTo = new Int32Array(keys.length);
  const outWeight = new Float64Array(keys.length);
  const outTotal = new Float64Array(n);
  keys.forEach((key, i) => {
    const from = Math.floor(key / n);
    outStart[from + 1]++;
    outTo[i] = key % n;
    outWeight[i] = weights.get(key)!;
    outTotal[from] += outWeight[i];
  });
  for (let i = 0; i < n; i++) outStart[i + 1] += outStart[i];
  const graph: FileGraph = {
    paths,
    indexOf: new Map(paths.map((p, i) => [p, i])),
    outStart,
    outTo,
    outWeight,
    outTotal,
    importedBy,
    callersOfName,
    baseRanks: new Float64Array(0),
  };
  graph.baseRanks = pageRank(graph, null);
  return graph;
}

/**
 * PageRank with teleport to `focus` (file indexes, equally weighted) or, when
 * null or empty, to every file; dangling files teleport the same way.
 * Deterministic: a fixed summation order and iteration count rule.
 */
export function pageRank(graph: FileGraph, focus: readonly number[] | null): Float64Array {
  const n = graph.paths.length;
  const teleport = new Float64Array(n);
  if (focus && focus.length > 0) for (const f of focus) teleport[f] += 1 / focus.length;
  else teleport.fill(n > 0 ? 1 / n : 0);
  let rank = Float64Array.from(teleport);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    next.fill(0);
    for (let from = 0; from < n; from++) {
      const total = graph.outTotal[from];
      if (total === 0) {
        dangling += rank[from];
        continue;
      }
      const share = rank[from] / total;
      for (let e = graph.outStart[from]; e < graph.outStart[from + 1]; e++) next[graph.outTo[e]] += share * graph.outWeight[e];
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const value = (1 - DAMPING) * teleport[i] + DAMPING * (next[i] + dangling * teleport[i]);
      delta += Math.abs(value - rank[i]);
      next[i] = value;
    }
    [rank, next] = [next, rank];
    if (delta < TOLERANCE) break;
  }
  return rank;
}

/** File indexes by rank, best first; equal ranks by path. */
export function rankedFiles(graph: FileGraph, ranks: Float64Array): number[] {
  const order = graph.paths.map((_, i) => i);
  order.sort((a, b) => ranks[b] - ranks[a] || (graph.paths[a] < graph.paths[b] ? -1 : 1));
  return order;
}
