/**
 * Reading retrieval evidence the same way in every renderer, and ordering it
 * independently of the order ties arrive in. Retrieval backends (SQLite without
 * a total ORDER BY, parallel scorers) may emit equal scores in any order; every
 * renderer's text must be a pure function of the set of hits so that runs can
 * be cached, replayed and compared across backends.
 */
import type { ChunkHit, FileCandidate, RetrievalResult } from '../retrieve/index.js';

/** Hits best first; ties by path, start line, end line, chunk id (all ascending). */
export function sortHits(hits: readonly ChunkHit[]): ChunkHit[] {
  return [...hits].sort(
    (a, b) =>
      b.score - a.score ||
      compareStrings(a.path, b.path) ||
      a.startLine - b.startLine ||
      a.endLine - b.endLine ||
      a.chunkId - b.chunkId,
  );
}

/** Files best first; ties by path ascending. */
export function sortFiles(files: readonly FileCandidate[]): FileCandidate[] {
  return [...files].sort((a, b) => b.score - a.score || compareStrings(a.path, b.path));
}

/** Evidence of a file: how many of the result's raw hits fall in it. */
export function countEvidence(result: RetrievalResult, path: string): number {
  let n = 0;
  for (const hit of result.hits) if (hit.path === path) n++;
  return n;
}

/**
 * This file's hits (raw hits and the candidate's own list, merged by chunk id),
 * sorted with sortHits. The candidate list is merged because a caller may trim
 * `result.hits` while keeping per-file hits.
 */
export function fileHits(result: RetrievalResult, candidate: FileCandidate | undefined, path: string): ChunkHit[] {
  const byChunk = new Map<number, ChunkHit>();
  const add = (hit: ChunkHit) => {
    if (hit.path !== path) return;
    const prior = byChunk.get(hit.chunkId);
    if (!prior || hit.score > prior.score) byChunk.set(hit.chunkId, hit);
  };
  for (const hit of result.hits) add(hit);
  for (const hit of candidate?.hits ?? []) add(hit);
  return sortHits([...byChunk.values()]);
}

/** Best hit score per qualified symbol name among the given hits (file-remainder chunks are skipped). */
export function symbolHitScores(hits: readonly ChunkHit[]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const hit of hits) {
    if (hit.symbol === null) continue;
    const prior = scores.get(hit.symbol);
    if (prior === undefined || hit.score > prior) scores.set(hit.symbol, hit.score);
  }
  return scores;
}

/** Code-unit string order: unlike localeCompare it is the same on every machine. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
