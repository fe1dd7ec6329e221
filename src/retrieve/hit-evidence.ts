/**
 * The chunk-hit stages of the issue-aware search between BM25 and file
 * aggregation: path priors, a file named by the query, paths and stack frames
 * the query writes, and quoted messages. Each takes the hits best first and
 * returns them rescored, best first; the weights are the search's resolved
 * tuning (retrieval-tuning.ts).
 */
import { chunkIdOfSymbol, type IndexStore } from '../index/index.js';
import { compareHits } from './hit-order.js';
import { indexedPaths, matchIndexedPaths } from './indexed-paths.js';
import { chunkRowsByIds } from './lexical-retriever.js';
import { findPhraseMatches } from './message-phrases.js';
import { isInlineTest, pathPrior, type PathPrior, type PathPriorFactors } from './path-prior.js';
import type { ParsedQuery } from './query-parser.js';
import { repositoryLayout } from './repository-layout.js';
import type { EvidenceTuning } from './retrieval-tuning.js';
import type { ChunkHit } from './retrieval-types.js';

/** Every path's factor when no prior applies (one function, so file-level.ts' per-prior table is built once). */
export const NO_PRIOR: PathPrior = () => 1;

/** Hits multiplied by their path's prior (and a test inside a library file by the test factor), best first. */
export function applyPathPriors(store: IndexStore, hits: ChunkHit[], factors: PathPriorFactors): ChunkHit[] {
  const prior = pathPrior(store, factors);
  if (!prior) return hits;
  return hits
    .map((hit) => {
      // A test inside a library file (Rust's `mod tests`) is a test like one in a test file.
      const factor = prior(hit.path) * (hit.symbol !== null && isInlineTest(hit.path, hit.symbol) ? factors.test : 1);
      return factor === 1 ? hit : { ...hit, score: hit.score * factor };
    })
    .sort(compareHits);
}

/** Hits in a file whose name is a query term naming at most `maxFiles` files, boosted by `weight` × the best score. */
export function applyFileNameEvidence(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, { weight, maxFiles }: EvidenceTuning['fileName']): ChunkHit[] {
  if (hits.length === 0 || weight === 0) return hits;
  const layout = repositoryLayout(store);
  const named = new Set<string>();
  for (const term of query.terms) {
    const count = layout.stemCounts.get(term.token);
    if (count !== undefined && count <= maxFiles && term.token.length >= 3) for (const path of layout.pathsByStem.get(term.token)!) named.add(path);
  }
  if (named.size === 0) return hits;
  const boost = weight * hits[0].score;
  return hits
    .map((hit) => (named.has(hit.path) ? { ...hit, score: hit.score + boost } : hit))
    .sort(compareHits);
}

/** Chunks holding a message the query quotes, boosted (and added when BM25 missed them) by `weight` × the best score. */
export function applyPhraseEvidence(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, weight: number, pathFilter: ((path: string) => boolean) | undefined): ChunkHit[] {
  if (hits.length === 0 || weight === 0) return hits;
  const matches = findPhraseMatches(store, query.phrases);
  if (matches.length === 0) return hits;
  const best = hits[0].score;
  const boostOf = new Map<number, number>();
  for (const match of matches) {
    const boost = weight * best * Math.min(1, match.tokens / 4);
    for (const id of match.chunkIds) boostOf.set(id, Math.max(boostOf.get(id) ?? 0, boost));
  }
  const out = hits.map((hit) => (boostOf.has(hit.chunkId) ? { ...hit, score: hit.score + boostOf.get(hit.chunkId)! } : hit));
  const present = new Set(hits.map((h) => h.chunkId));
  const missing = [...boostOf.keys()].filter((id) => !present.has(id));
  for (const chunk of chunkRowsByIds(store, missing).values()) {
    if (pathFilter && !pathFilter(chunk.path)) continue;
    out.push({ chunkId: chunk.id, path: chunk.path, kind: chunk.kind, symbol: chunk.symbol, startLine: chunk.startLine, endLine: chunk.endLine, score: boostOf.get(chunk.id)! });
  }
  return out.sort(compareHits);
}

/** Hits in files the query names (`pathMention`) and functions its stack frames name (`frame`, added when missing), as fractions of the best score. */
export function applyEvidenceBoosts(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, tuning: Pick<EvidenceTuning, 'pathMention' | 'frame'>): ChunkHit[] {
  if (hits.length === 0 || (query.paths.length === 0 && query.frames.length === 0)) return hits;
  const best = hits[0].score;
  const pathBoost = tuning.pathMention * best;
  const frameBoost = tuning.frame * best;
  const indexed = indexedPaths(store);
  const mentioned = new Set<string>();
  for (const written of query.paths) for (const path of matchIndexedPaths(written, indexed)) mentioned.add(path);
  const frameTargets = new Map<string, Set<string>>();
  for (const frame of query.frames) {
    if (!frame.functionName) continue;
    for (const path of matchIndexedPaths(frame.file, indexed)) {
      const names = frameTargets.get(path) ?? new Set<string>();
      names.add(frame.functionName.split('.').pop()!);
      frameTargets.set(path, names);
    }
  }
  const boosted = hits.map((hit) => {
    let score = hit.score;
    if (mentioned.has(hit.path)) score += pathBoost;
    const names = frameTargets.get(hit.path);
    if (names && hit.symbol && names.has(hit.symbol.split('.').pop()!)) score += frameBoost;
    return score === hit.score ? hit : { ...hit, score };
  });
  // A frame's function may not be among the lexical hits at all: add it.
  for (const [path, names] of frameTargets) {
    for (const symbol of store.symbolsOf(path)) {
      if (!names.has(symbol.name)) continue;
      if (boosted.some((h) => h.path === path && h.symbol === symbol.qualifiedName)) continue;
      const chunkId = chunkIdOfSymbol(store, path, symbol.qualifiedName);
      if (chunkId === null) continue;
      boosted.push({
        chunkId, path, kind: 'function', symbol: symbol.qualifiedName,
        startLine: symbol.startLine, endLine: symbol.endLine, score: frameBoost,
      });
    }
  }
  return boosted.sort(compareHits);
}
