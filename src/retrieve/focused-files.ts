/**
 * Which files a focused first index takes before the rest of a never-indexed
 * tree, so the first search can be answered from a real (partial) index within
 * a few seconds: first the files the provisional text scan ranks best (seeds),
 * then their neighbours — the files the seeds import (once the seeds are
 * parsed, their imports are known), the files named after a query word, and
 * the next files of the scan's ranking — all within one budget of files and
 * bytes (parsing costs about in proportion to bytes). Pure: the caller scans,
 * parses and indexes.
 */

/** How much a focused first index may take. */
export interface FocusBudget {
  /** Most files in all (seeds and neighbours). */
  maxFiles: number;
  /** Most bytes in all. */
  maxBytes: number;
  /** Most seeds. */
  maxSeeds: number;
  /** Most bytes the seeds may take (the rest is kept for their neighbours). */
  maxSeedBytes: number;
}

/**
 * The default budget: parsing, chunking and writing a cold file costs on the
 * order of 1 s of one core's CPU per MB of Python (more under load), so about
 * 1 MB keeps the first answer, with the process start, the scan and the search
 * itself, near its target of ~3 s (bench/first-answer-bench.mjs measures it).
 */
export const DEFAULT_FOCUS_BUDGET: FocusBudget = { maxFiles: 150, maxBytes: 1_000_000, maxSeeds: 40, maxSeedBytes: 600_000 };

/**
 * Whether a focused first index of `files` (a listed tree) can leave any file
 * out: true when the tree has more files than the seeds may number or more
 * bytes than they may take. When it cannot, the focused run would be the
 * whole index under a "partial" label: index the whole tree first instead.
 * This, not a file count, is what keeps a small tree (a few hundred files)
 * from paying a whole cold index before its first answer.
 */
export function focusLeavesFiles(files: readonly { size: number }[], budget: FocusBudget = DEFAULT_FOCUS_BUDGET): boolean {
  if (files.length > Math.min(budget.maxSeeds, budget.maxFiles)) return true;
  let bytes = 0;
  for (const file of files) bytes += file.size;
  return bytes > Math.min(budget.maxSeedBytes, budget.maxBytes);
}

/** Sizes in bytes of the listed files; a path it does not know is not in the tree. */
export type SizeOf = (path: string) => number | undefined;

/** The seeds: the scan's files in rank order, each taken while it fits the seed budget (a file too large is passed over). */
export function focusSeeds(ranked: readonly string[], sizeOf: SizeOf, budget: FocusBudget = DEFAULT_FOCUS_BUDGET): string[] {
  const seeds: string[] = [];
  let bytes = 0;
  const most = Math.min(budget.maxSeeds, budget.maxFiles);
  for (const path of new Set(ranked)) {
    if (seeds.length >= most) break;
    const size = sizeOf(path);
    if (size === undefined || bytes + size > Math.min(budget.maxSeedBytes, budget.maxBytes)) continue;
    seeds.push(path);
    bytes += size;
  }
  return seeds;
}

/** What the neighbours are chosen from. */
export interface NeighbourInput {
  /** The seeds, best first. */
  seeds: readonly string[];
  /** Per seed, the listed files its imports resolve to. */
  imports: ReadonlyMap<string, readonly string[]>;
  /** The scan's whole ranking, best first (its files after the seeds fill what budget is left). */
  ranked: readonly string[];
}

/**
 * The neighbours, best first, within what the seeds left of the budget: files
 * imported by seeds (a seed at rank r adds 1/(r+1), so what the best seeds
 * import comes first), then the scan's next files in rank order.
 */
export function focusNeighbours(input: NeighbourInput, sizeOf: SizeOf, budget: FocusBudget = DEFAULT_FOCUS_BUDGET): string[] {
  const taken = new Set(input.seeds);
  let bytes = 0;
  for (const seed of input.seeds) bytes += sizeOf(seed) ?? 0;
  const score = new Map<string, number>();
  input.seeds.forEach((seed, rank) => {
    for (const target of input.imports.get(seed) ?? []) score.set(target, (score.get(target) ?? 0) + 1 / (rank + 1));
  });
  const near = [...score.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([path]) => path);
  const neighbours: string[] = [];
  for (const path of [...near, ...input.ranked]) {
    if (taken.size >= budget.maxFiles) break;
    const size = sizeOf(path);
    if (taken.has(path) || size === undefined || bytes + size > budget.maxBytes) continue;
    taken.add(path);
    neighbours.push(path);
    bytes += size;
  }
  return neighbours;
}

/**
 * Listed files whose name without its extension is one of `words` (compared
 * lowercased; words of 3 letters or more), for each word that names at most
 * two files (as the index's own boost of a file named by the query, a word
 * naming many files says little): `retry.py` for a query that says "retry".
 * Tests are left to the scan's ranking, which already weighs them down.
 */
export function filesNamedAfter(words: readonly string[], paths: Iterable<string>, isTest: (path: string) => boolean): string[] {
  const wanted = new Set(words.map((w) => w.toLowerCase()).filter((w) => w.length >= 3));
  if (wanted.size === 0) return [];
  const byWord = new Map<string, string[]>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    const stem = (dot > 0 ? name.slice(0, dot) : name).toLowerCase();
    if (!wanted.has(stem) || isTest(path)) continue;
    const named = byWord.get(stem);
    if (named) named.push(path);
    else byWord.set(stem, [path]);
  }
  return [...byWord.values()].filter((named) => named.length <= 2).flat().sort();
}
