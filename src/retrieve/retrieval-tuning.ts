/**
 * The tuning knobs of a search: the weights, factors and opt-in signals that
 * the evaluation harness (`eval locbench --config-json`) and `bench/` set to
 * measure other rankings, and the product never sets. They are not part of the
 * package's API: `searchRepository` takes {@link SearchOptions} (the choices a
 * user makes: mode, filter, documentation, ranker), and the harness calls
 * `searchWithTuning` with {@link TunedSearchOptions}.
 *
 * {@link RetrievalTuning} is nested by pipeline stage, in the order the search
 * runs them (query → lexical → priors → evidence → aggregation → testedCode →
 * fileLevel → titleFiles → symbolRanking). Every knob with a default has it in
 * one object, {@link DEFAULT_TUNING}; {@link resolveTuning} merges a tuning into
 * it field by field. The opt-in signals (`query.unknownNames`,
 * `lexical.feedback`, `titleFiles.queryWeights`, `symbolRanking.coverage`) are
 * off when absent, so they have no entry there. The one zod schema of these
 * knobs is tuning/schema.ts (eval's `--config-json` uses it).
 */
import { DEFAULT_AGGREGATION, type AggregationOptions } from './file-aggregation.js';
import { DEFAULT_FILE_LEVEL, type FileLevelOptions } from './file-level.js';
import type { UnknownNameOptions } from './known-names.js';
import { DEFAULT_MAX_DOCUMENT_FRACTION, DEFAULT_MIN_INFORMATIVE_TERMS } from './lexical-retriever.js';
import { DEFAULT_FIELD_WEIGHTS, DEFAULT_MAX_TERMS, type FieldWeights, type LexicalMemo } from './lexical-retriever.js';
import { DEFAULT_PRIOR_FACTORS, type PathPriorFactors } from './path-prior.js';
import { DEFAULT_QUERY_WEIGHTS, type ParsedQuery, type QueryWeights } from './query-parser.js';
import type { WordVariantScope } from './word-variants.js';
import type { FeedbackOptions } from './query-feedback.js';
import { DEFAULT_SYMBOL_RANKING, type SymbolRankingOptions } from './rank-symbols.js';
import type { RankerModel } from './learned/learned-ranker.js';
import type { ChunkHit, ChunkKind, DocPlacement } from './retrieval-types.js';
import type { RankerKind } from './ranker-kind.js';

/** What a user of the library chooses for one search; everything else is the tuned default. */
export interface SearchOptions {
  /**
   * `issue-aware` (default): weighted code evidence, priors and boosts.
   * `plain`: the reference baseline — every query word once, one BM25 field
   * (the chunk text), function chunks only, no priors or boosts.
   */
  queryMode?: 'issue-aware' | 'plain';
  /** Only chunks of these kinds are retrieved (default: all; `plain` mode: functions). */
  chunkKinds?: ChunkKind[];
  /** Keep only hits whose path passes (a file_pattern from a tool call). */
  pathFilter?: (path: string) => boolean;
  /**
   * Documentation (prose files, doc-search.ts) in the answer: `auto` (default)
   * lets doc-search.ts' `documentPlacement` choose `equal` or `below`; `off` looks for none.
   */
  documents?: 'auto' | DocPlacement | 'off';
  /** Documentation files returned (default 5). */
  maxDocuments?: number;
  /** Stop after ranking files (modules and functions left empty): for a search whose files alone are used. */
  filesOnly?: boolean;
  /**
   * Also return each level's first `features` candidates with their feature
   * vectors (ranking-features.ts), read off this search's own stages; 0 or
   * absent: none. Changes no ranking.
   */
  features?: number;
  /**
   * `auto` (the default, DEFAULT_RANKER): the package's LambdaMART model
   * (models/ranker.json) reorders the levels its `use` names, for queries
   * inside its query domain (learned/query-domain.ts); the hand order elsewhere.
   * `hand`: the hand-tuned combination orders every level.
   * `learned`: the model (learned/learned-ranker.ts) reorders each level's
   * first candidates by their feature vectors, for every query. See docs/retrieval.md.
   */
  ranker?: RankerKind;
  /** Extra retrievers (dense) fused with the lexical hits; see fusion.ts. */
  fuse?: (lexical: ChunkHit[], query: ParsedQuery) => Promise<ChunkHit[]> | ChunkHit[];
}

/** Who computes BM25: the same scores, bitwise, either way (src/index/lexical/term-postings.ts). */
export type LexicalScorer = 'auto' | 'fts5' | 'postings';

/** The parse of the query (query-parser.ts). */
export interface QueryTuning {
  /** Weights of each kind of query evidence. */
  weights: QueryWeights;
  /** Names written as code that the repository does not know weigh `weight` (known-names.ts). Opt-in: off when absent. */
  unknownNames?: Partial<UnknownNameOptions>;
}

/** The BM25 stage (lexical-retriever.ts). */
export interface LexicalTuning {
  fieldWeights: FieldWeights;
  /** At most this many query terms (highest weight first) are sent to BM25. */
  maxTerms: number;
  /**
   * Query terms found in at least this fraction of the chunks are not sent to
   * BM25 (0.5: exactly those FTS5 gives an IDF of ~0); 1 keeps all.
   */
  commonTermFraction: number;
  /** `commonTermFraction` applies only when at least this many other terms remain (a short query keeps its common words). */
  minInformativeTerms: number;
  /** Who computes BM25 (only for tests and benchmarks). */
  scorer: LexicalScorer;
  /**
   * Word-form variants of each query word (index tokens with the same light
   * stem: `caching` → `cache`, `caches`), weighted `weight` relative to the
   * word (0: none); `scope` `missing`: only words no chunk holds. See word-variants.ts.
   */
  wordVariants: { weight: number; scope: WordVariantScope };
  /**
   * Pseudo-relevance feedback (query-feedback.ts): names shared by the first
   * hits are searched as extra terms. Opt-in: off when absent; missing fields
   * take {@link DEFAULT_FEEDBACK}.
   */
  feedback?: Partial<FeedbackOptions>;
}

/** Hit evidence added after BM25 (hit-evidence.ts, definition-evidence.ts), as fractions of the best raw score. */
export interface EvidenceTuning {
  /** Chunks of a file whose name is a query term naming at most `maxFiles` files (a file's own identity). */
  fileName: { weight: number; maxFiles: number };
  /** Chunks in a file the query names. */
  pathMention: number;
  /** A chunk whose function a stack frame names in a file the frame names. */
  frame: number;
  /** A chunk containing a message quoted in the query (scaled by phrase length). */
  phrase: number;
  /** Definitions of a name the query writes in code form, for names with at most `maxDefinitions` non-test definitions; weight 0 is off. */
  definition: { weight: number; maxDefinitions: number };
}

/** The knobs the evaluation harness and `bench/` tune, by stage; absent ones take {@link DEFAULT_TUNING}. */
export interface RetrievalTuning {
  query?: { weights?: Partial<QueryWeights>; unknownNames?: Partial<UnknownNameOptions> };
  lexical?: {
    fieldWeights?: Partial<FieldWeights>;
    maxTerms?: number;
    commonTermFraction?: number;
    minInformativeTerms?: number;
    scorer?: LexicalScorer;
    wordVariants?: Partial<LexicalTuning['wordVariants']>;
    feedback?: Partial<FeedbackOptions>;
  };
  /**
   * Score multipliers by path (path-prior.ts): `test` for chunks in test files,
   * `stub` for declaration stubs (`.pyi`, `.d.ts`), `library` for code outside
   * the library the packaging metadata declares (never applies when it is unknown).
   */
  priors?: Partial<PathPriorFactors>;
  evidence?: {
    fileName?: Partial<EvidenceTuning['fileName']>;
    pathMention?: number;
    frame?: number;
    phrase?: number;
    definition?: Partial<EvidenceTuning['definition']>;
  };
  aggregation?: Partial<AggregationOptions>;
  /** Share of a ranked test file's score given to the files it tests (tested-code.ts); 0 is off. */
  testedCode?: { weight?: number };
  /** A file-level ranking (the file as one document) fused with the chunk aggregation (file-level.ts); `weight` 0 is off. */
  fileLevel?: Partial<FileLevelOptions>;
  /**
   * File evidence from the title (title-files.ts): `weight`, a title-only
   * search's files fused into the ranked files (0: off); `queryWeights`, the
   * weights of a second search whose files replace the ranked files (opt-in:
   * off when absent). Modules and functions are unchanged either way.
   */
  titleFiles?: { weight?: number; queryWeights?: Partial<QueryWeights> };
  symbolRanking?: Partial<SymbolRankingOptions>;
  /** BM25 results shared across searches of one query under several settings (code, not a setting); see LexicalMemo. */
  lexicalMemo?: LexicalMemo;
  /** The model `ranker: 'learned'` uses instead of the shipped one (code, not a setting: tests, `bench/`). */
  rankerModel?: RankerModel;
}

/** A search's options as the evaluation harness gives them: the user's choices and the tuning knobs. */
export type TunedSearchOptions = SearchOptions & RetrievalTuning;

/** The tuning of one search with every default filled in; the opt-in signals stay absent unless given. */
export interface ResolvedTuning {
  query: QueryTuning;
  lexical: LexicalTuning;
  priors: PathPriorFactors;
  evidence: EvidenceTuning;
  aggregation: AggregationOptions;
  testedCode: { weight: number };
  fileLevel: FileLevelOptions;
  titleFiles: { weight: number; queryWeights?: Partial<QueryWeights> };
  symbolRanking: SymbolRankingOptions;
}

/** Feedback settings used for the fields a `lexical.feedback` option leaves out. */
export const DEFAULT_FEEDBACK: FeedbackOptions = { documents: 5, terms: 5, weight: 1, minDocuments: 2 };

/**
 * Default of `evidence.fileName.weight`: chosen by leave-one-repository-out on 10 of 12
 * folds; file and function Acc@5 +0.044 each, no repository lower (docs/retrieval.md).
 */
export const DEFAULT_FILE_NAME_BOOST = 0.3;

/**
 * The one defaults object: the ranking the product ships. The nested stage
 * options are their stages' own defaults (each module documents why its
 * values); the opt-in signals have no entry (off when absent).
 */
export const DEFAULT_TUNING: ResolvedTuning = {
  query: { weights: DEFAULT_QUERY_WEIGHTS },
  lexical: {
    fieldWeights: DEFAULT_FIELD_WEIGHTS,
    maxTerms: DEFAULT_MAX_TERMS,
    commonTermFraction: DEFAULT_MAX_DOCUMENT_FRACTION,
    minInformativeTerms: DEFAULT_MIN_INFORMATIVE_TERMS,
    scorer: 'auto',
    wordVariants: { weight: 0, scope: 'all' },
  },
  priors: DEFAULT_PRIOR_FACTORS,
  evidence: {
    fileName: { weight: DEFAULT_FILE_NAME_BOOST, maxFiles: 2 },
    pathMention: 0.3,
    frame: 1.0,
    phrase: 0.5,
    definition: { weight: 0, maxDefinitions: 3 },
  },
  aggregation: DEFAULT_AGGREGATION,
  testedCode: { weight: 0 },
  fileLevel: DEFAULT_FILE_LEVEL,
  // Off: on the 12 development repositories, on top of fileLevel's title document, 0.5 gave file
  // Acc@5 0.815 → 0.859 (7 won / 1 lost) but the one loss was the worst repository's (mypy
  // 0.636 → 0.545, below its 0.60 floor); see docs/retrieval.md.
  titleFiles: { weight: 0 },
  symbolRanking: DEFAULT_SYMBOL_RANKING,
};

/** True for an object literal (not an array, a function or a class instance such as the memo). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * `given` over `defaults`, objects merged field by field at every depth; an
 * absent or undefined field keeps the default. The result shares no object
 * with `defaults`, so a caller changing its resolved tuning changes no default.
 */
function merge(defaults: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(defaults), ...Object.keys(given)])) {
    const base = defaults[key];
    const value = given[key];
    if (value === undefined) out[key] = isPlainObject(base) ? merge(base, {}) : base;
    else out[key] = isPlainObject(value) ? merge(isPlainObject(base) ? base : {}, value) : value;
  }
  return out;
}

/**
 * `options`' tuning with {@link DEFAULT_TUNING} filled in, field by field at
 * every depth (a given `symbolRanking.coverage` is merged later by its stage,
 * which owns its defaults). Only the stages are read (the user's choices and
 * code members are not tuning); validation is tuning/schema.ts' job.
 */
export function resolveTuning(options: RetrievalTuning): ResolvedTuning {
  const stages = Object.fromEntries((Object.keys(DEFAULT_TUNING) as (keyof ResolvedTuning)[]).map((key) => [key, options[key]]));
  return merge(DEFAULT_TUNING as unknown as Record<string, unknown>, stages) as unknown as ResolvedTuning;
}
