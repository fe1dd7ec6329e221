/**
 * File centrality for the repository map: PageRank over the graph of resolved
 * imports and cross-file calls the index already holds, optionally
 * personalised toward some files. The graph is built once per index state
 * (kept per store and index generation) so a warm call only iterates.
 */
import { derivedKey, graphInputs, mapSymbolsOf, snapshotOf, type IndexStore, type MapSymbolRow } from '../index/index.js';

/** A call to a name defined in more files than this links to none of them (`get`, `run`, `__init__`). */
export const MAX_DEFINITIONS_PER_CALL = 8;

const DAMPING = 0.85;
const MAX_ITERATIONS = 60;
const TOLERANCE = 1e-10;
/**
 * With a focus the walk restarts at the focus files, so ranks settle in fewer
 * steps, and a focused map is computed per call (the unfocused ranks once per
 * index state): a looser stop keeps it fast; the order of files whose ranks
 * differ by less than this may differ from a fully converged run, which no
 * output's determinism depends on (same input, same iterations).
 */
const FOCUS_MAX_ITERATIONS = 30;
const FOCUS_TOLERANCE = 1e-7;

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
  /** File indexes by baseRanks, best first (rankedFiles of baseRanks). */
  baseOrder: number[];
  /**
   * Map lines' symbol rows by path, read on first use: the graph belongs to
   * one index state, so rows kept with it are never stale, and the central
   * files every map shows are read once.
   */
  symbolRows: Map<string, MapSymbolRow[]>;
}

const GRAPH = derivedKey<FileGraph>('file graph');

/** The file graph of the index's current state (built on first use and after every write). */
export function fileGraph(store: IndexStore): FileGraph {
  return snapshotOf(store).derive(GRAPH, () => buildGraph(store));
}

function buildGraph(store: IndexStore): FileGraph {
  const { paths, imports, defines, calls } = graphInputs(store);
  const n = paths.length;
  // Names are interned to numbers and a file's edges summed in arrays indexed by file (reset after each
  // file) rather than in Maps keyed by strings: on an 11k-file index that was most of the graph's cost.
  const nameIds = new Map<string, number>();
  const definers: number[][] = [];
  const names: string[] = [];
  defines.forEach((defined, file) => {
    for (const name of defined) {
      const id = nameIds.get(name);
      if (id === undefined) {
        nameIds.set(name, definers.length);
        definers.push([file]);
        names.push(name);
      } else if (definers[id][definers[id].length - 1] !== file) definers[id].push(file);
    }
  });
  const importedBy = new Int32Array(n);
  const importCount = new Float64Array(n);
  const importStart = new Int32Array(n + 1);
  for (const [from] of imports) importStart[from + 1]++;
  for (let i = 0; i < n; i++) importStart[i + 1] += importStart[i];
  const importTo = new Int32Array(imports.length);
  const filled = importStart.slice(0, n);
  for (const [from, to] of imports) {
    importTo[filled[from]++] = to;
    importedBy[to]++;
  }
  // Edges are built file by file (rows of the compressed form come out in order, no global sort). An
  // import counts 1; calls count the square root of their summed weight (1 / definers per name), so one
  // file calling many names of another does not drown the rest of the graph. Sums run in the same order
  // as ever (names sorted, definers by path), so the weights are the same to the last bit.
  const callers = new Int32Array(names.length);
  const called = new Float64Array(n);
  const touched = new Uint8Array(n);
  const outStart = new Int32Array(n + 1);
  const outTo: number[] = [];
  const outWeight: number[] = [];
  const outTotal = new Float64Array(n);
  const targets: number[] = [];
  for (let from = 0; from < n; from++) {
    targets.length = 0;
    for (let e = importStart[from]; e < importStart[from + 1]; e++) {
      const to = importTo[e];
      if (!touched[to]) {
        touched[to] = 1;
        targets.push(to);
      }
      importCount[to] += 1;
    }
    for (const name of calls[from]) {
      const id = nameIds.get(name);
      if (id === undefined) continue;
      const definedIn = definers[id];
      if (definedIn.length > MAX_DEFINITIONS_PER_CALL) continue;
      let outside = false;
      for (const to of definedIn) {
        if (to === from) continue;
        outside = true;
        if (!touched[to]) {
          touched[to] = 1;
          targets.push(to);
        }
        called[to] += 1 / definedIn.length;
      }
      if (outside) callers[id]++;
    }
    targets.sort((a, b) => a - b);
    for (const to of targets) {
      const weight = called[to] > 0 ? importCount[to] + Math.sqrt(called[to]) : importCount[to];
      outTo.push(to);
      outWeight.push(weight);
      outTotal[from] += weight;
      touched[to] = 0;
      called[to] = 0;
      importCount[to] = 0;
    }
    outStart[from + 1] = outTo.length;
  }
  const callersOfName = new Map<string, number>();
  for (let id = 0; id < names.length; id++) if (callers[id] > 0) callersOfName.set(names[id], callers[id]);
  const graph: FileGraph = {
    paths,
    indexOf: new Map(paths.map((p, i) => [p, i])),
    outStart,
    outTo: Int32Array.from(outTo),
    outWeight: Float64Array.from(outWeight),
    outTotal,
    importedBy,
    callersOfName,
    baseRanks: new Float64Array(0),
    baseOrder: [],
    symbolRows: new Map(),
  };
  graph.baseRanks = pageRank(graph, null);
  graph.baseOrder = rankedFiles(graph, graph.baseRanks);
  return graph;
}

/** Shares of the teleport with a focus: the focus files, their direct neighbours (either direction), every file. */
const FOCUS_SHARE = 0.6;
const NEIGHBOUR_SHARE = 0.2;

/**
 * The teleport vector: uniform without a focus; with one, FOCUS_SHARE on the
 * focus files, NEIGHBOUR_SHARE on the files they import or call and the files
 * that import or call them (importers get nothing from a focus file's rank
 * otherwise), and the rest uniform, so files the focus does not reach still
 * rank by centrality instead of tying at zero.
 */
function teleportOf(graph: FileGraph, focus: readonly number[] | null): Float64Array {
  const n = graph.paths.length;
  const teleport = new Float64Array(n);
  if (n === 0) return teleport;
  if (!focus || focus.length === 0) return teleport.fill(1 / n);
  const chosen = new Set(focus);
  // Flags by file instead of Set lookups per edge (every edge is visited); each file gets its share once,
  // so the order the neighbours are found in does not matter.
  const isChosen = new Uint8Array(n);
  for (const f of chosen) isChosen[f] = 1;
  const isNeighbour = new Uint8Array(n);
  let neighbourCount = 0;
  for (let from = 0; from < n; from++) {
    for (let e = graph.outStart[from]; e < graph.outStart[from + 1]; e++) {
      const to = graph.outTo[e];
      const other = isChosen[from] && !isChosen[to] ? to : isChosen[to] && !isChosen[from] ? from : -1;
      if (other >= 0 && !isNeighbour[other]) {
        isNeighbour[other] = 1;
        neighbourCount++;
      }
    }
  }
  const focusShare = neighbourCount > 0 ? FOCUS_SHARE : FOCUS_SHARE + NEIGHBOUR_SHARE;
  teleport.fill((1 - FOCUS_SHARE - NEIGHBOUR_SHARE) / n);
  for (const f of chosen) teleport[f] += focusShare / chosen.size;
  for (let f = 0; f < n; f++) if (isNeighbour[f]) teleport[f] += NEIGHBOUR_SHARE / neighbourCount;
  return teleport;
}

/**
 * PageRank with teleport to `focus` (file indexes; see teleportOf) or, when
 * null or empty, to every file; dangling files teleport the same way.
 * Deterministic: a fixed summation order and iteration count rule.
 */
export function pageRank(graph: FileGraph, focus: readonly number[] | null): Float64Array {
  const n = graph.paths.length;
  const teleport = teleportOf(graph, focus);
  const focused = !!focus && focus.length > 0;
  const maxIterations = focused ? FOCUS_MAX_ITERATIONS : MAX_ITERATIONS;
  const tolerance = focused ? FOCUS_TOLERANCE : TOLERANCE;
  let rank = Float64Array.from(teleport);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
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
    if (delta < tolerance) break;
  }
  return rank;
}

/** Most files whose symbol rows a graph keeps (the central files of every map fit many times over). */
const MAX_KEPT_SYMBOL_FILES = 2000;

/** The map symbol rows of `path` in the index state `graph` was built from (see FileGraph.symbolRows). */
export function mapSymbolRows(graph: FileGraph, store: IndexStore, path: string): MapSymbolRow[] {
  let rows = graph.symbolRows.get(path);
  if (!rows) {
    rows = mapSymbolsOf(store, path);
    if (graph.symbolRows.size < MAX_KEPT_SYMBOL_FILES) graph.symbolRows.set(path, rows);
  }
  return rows;
}

/** File indexes by rank, best first; equal ranks by path. */
export function rankedFiles(graph: FileGraph, ranks: Float64Array): number[] {
  const order = graph.paths.map((_, i) => i);
  order.sort((a, b) => ranks[b] - ranks[a] || (graph.paths[a] < graph.paths[b] ? -1 : 1));
  return order;
}
