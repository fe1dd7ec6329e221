/**
 * Data passed from retrieval to the scaffold renderers, the tools and the evaluation harness.
 */

import type { ChunkKind } from '../index/index.js';

/** What a chunk covers (defined by the index, which cuts chunks). */
export type { ChunkKind };

/** One scored chunk from a retriever. Lines are 1-based inclusive. */
export interface ChunkHit {
  chunkId: number;
  path: string;
  kind: ChunkKind;
  /** Qualified name of the symbol (`Class.method`), or null for a file-remainder chunk. */
  symbol: string | null;
  startLine: number;
  endLine: number;
  /** Higher is better. Comparable only within one result. */
  score: number;
}

/** A candidate file after stage-1 aggregation. */
export interface FileCandidate {
  path: string;
  /** Score(f) = α·s(1) + (1−α)·mean(top-m). */
  score: number;
  /** This file's hits among the raw top-N, best first. */
  hits: ChunkHit[];
}

/** A ranked symbol-level prediction (module = `file:Class` / `file:function`; function = `file:Class.method`). */
export interface RankedSymbol {
  path: string;
  qualifiedName: string;
  score: number;
}

/** A documentation file (Markdown, RST, plain text) by its best-matching section; see doc-search.ts. */
export interface DocHit {
  path: string;
  /** The section's heading path (`Testing > The Test Client`), or null for lines before any heading. */
  section: string | null;
  startLine: number;
  endLine: number;
  /** Higher is better; comparable only among the docs of one result. */
  score: number;
}

/** Where an answer lists documentation: after all code (`below`) or merged with it by relative score (`equal`). */
export type DocPlacement = 'below' | 'equal';

/** Everything one query produced. */
export interface RetrievalResult {
  query: string;
  /** Lower-cased word tokens of the query used for anchor matching (identifiers split and whole). */
  queryTokens: string[];
  /** Raw chunk hits, best first (at most `topChunks`). */
  hits: ChunkHit[];
  /** Aggregated files, best first. */
  files: FileCandidate[];
  /** Documentation files, best first (none when the search did not look for any). */
  docs?: DocHit[];
  /** Where `docs` go in an answer (default `below`). */
  docPlacement?: DocPlacement;
}
