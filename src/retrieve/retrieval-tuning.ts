/**
 * The tuning knobs of a search: the weights, factors and opt-in signals that
 * the evaluation harness (`eval locbench --config-json`) and `bench/` set to
 * measure other rankings, and the product never sets. They are not part of the
 * package's API: `searchRepository` takes {@link SearchOptions} (the choices a
 * user makes: mode, filter, documentation, ranker), and the harness calls
 * `searchWithTuning` with {@link TunedSearchOptions}. The defaults the search
 * fills in itself are in {@link DEFAULT_TUNING} (read through
 * {@link resolveTuning}); the opt-in signals are off when absent, and the few
 * knobs handed to one stage as given (`commonTermFraction`,
 * `minInformativeTerms`, `lexicalScorer`, `wordVariantScope`,
 * `titleFileWeight`) take that stage's default.
 */
import { DEFAULT_AGGREGATION, type AggregationOptions } from './file-aggregation.js';
import { DEFAULT_FILE_LEVEL, type FileLevelOptions } from './file-level.js';
import type { UnknownNameOptions } from './known-names.js';
import { DEFAULT_FIELD_WEIGHTS, DEFAULT_MAX_TERMS, type FieldWeights, type LexicalMemo } from './lexical-retriever.js';
import { DEFAULT_PRIOR_FACTORS, type PathPriorFactors } from './path-prior.js';
import { DEFAULT_QUERY_WEIGHTS, type ParsedQuery, type QueryWeights } from './query-parser.js';
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

/** The knobs the evaluation harness and `bench/` tune; absent ones take {@link DEFAULT_TUNING}. */
export interface RetrievalTuning {
  aggregation?: Partial<AggregationOptions>;
  fieldWeights?: Partial<FieldWeights>;
  queryWeights?: Partial<QueryWeights>;
  symbolRanking?: Partial<SymbolRankingOptions>;
  /** Boost of a chunk in a file the query names, as a fraction of the best raw score. */
  pathMentionBoost?: number;
  /** Boost of a chunk whose function a stack frame names in a file the frame names. */
  frameBoost?: number;
  /** Score multiplier for chunks in test files (tests rarely hold the code a query is about). */
  testFileFactor?: number;
  /**
   * Score multiplier for chunks outside the library the repository's packaging
   * metadata declares (examples, benchmarks, docs code, scripts); 1 turns it
   * off, and it never applies when the library is unknown. See repository-layout.ts.
   */
  nonLibraryFactor?: number;
  /**
   * Boost, as a fraction of the best raw score, of chunks in a file whose name
   * is a query term that names at most `stemMaxFiles` files (a file's own identity).
   */
  fileNameBoost?: number;
  /** Most files a name may have and still count as naming one file for `fileNameBoost`. */
  stemMaxFiles?: number;
  /** Score multiplier for declaration stubs (`.pyi`, `.d.ts`): they mirror code defined elsewhere. */
  stubFileFactor?: number;
  /** Boost of a chunk containing a message quoted in the query, as a fraction of the best raw score (scaled by phrase length). */
  phraseBoost?: number;
  /**
   * Boost, as a fraction of the best raw score, of the definitions of a name
   * the query writes in code form; see definition-evidence.ts. 0 (default) turns it off.
   */
  definitionBoost?: number;
  /** Most non-test definitions a name may have and still count for `definitionBoost`. */
  maxDefinitions?: number;
  /** Share of a ranked test file's score given to the files it tests; see tested-code.ts. 0 (default) turns it off. */
  testedCodeWeight?: number;
  /**
   * Query terms found in at least this fraction of the chunks are not sent to
   * BM25 (default 0.5: exactly those FTS5 gives an IDF of ~0); 1 keeps all. See lexical-retriever.ts.
   */
  commonTermFraction?: number;
  /** `commonTermFraction` applies only when at least this many other terms remain (default 16: a short query keeps its common words). */
  minInformativeTerms?: number;
  /**
   * Pseudo-relevance feedback (query-feedback.ts): names shared by the first
   * hits are searched as extra terms. Off unless given; missing fields take
   * {@link DEFAULT_FEEDBACK}.
   */
  feedback?: Partial<FeedbackOptions>;
  /**
   * A file-level ranking (the file as one document: its path and defined
   * names, or its whole text) fused with the chunk aggregation; see
   * file-level.ts. Missing fields take DEFAULT_FILE_LEVEL; `weight` 0 turns it off.
   */
  fileLevel?: Partial<FileLevelOptions>;
  /** Names written as code that the repository does not know weigh `weight` (known-names.ts). Off unless given. */
  unknownNames?: Partial<UnknownNameOptions>;
  /**
   * Weight of each query word's word-form variants (index tokens with the same
   * light stem: `caching` → `cache`, `caches`) relative to the word, in BM25;
   * 0 (default) sends none. See word-variants.ts.
   */
  wordVariantWeight?: number;
  /** `missing`: only query words no chunk holds get variants (default `all`). */
  wordVariantScope?: 'all' | 'missing';
  /** At most this many query terms (highest weight first) are sent to BM25 (default 96). */
  maxTerms?: number;
  /**
   * Who computes BM25: `auto` (default), `fts5` or `postings` (the same scores,
   * bitwise; see src/index/lexical/term-postings.ts). Only for tests and benchmarks.
   */
  lexicalScorer?: 'auto' | 'fts5' | 'postings';
  /** BM25 results shared across searches of one query under several settings (tuning only); see LexicalMemo. */
  lexicalMemo?: LexicalMemo;
  /**
   * Query weights of a second search whose files replace the ranked files;
   * modules and functions keep the first search's. Off unless given (title-files.ts).
   */
  fileQueryWeights?: Partial<QueryWeights>;
  /** Weight of a title-only search's files fused into the ranked files (default 0: off); modules and functions unchanged. */
  titleFileWeight?: number;
  /** The model `ranker: 'learned'` uses instead of the shipped one (tests, `bench/`). */
  rankerModel?: RankerModel;
}

/** A search's options as the evaluation harness gives them: the user's choices and the tuning knobs. */
export type TunedSearchOptions = SearchOptions & RetrievalTuning;

/** Feedback settings used for the fields a `feedback` option leaves out. */
export const DEFAULT_FEEDBACK: FeedbackOptions = { documents: 5, terms: 5, weight: 1, minDocuments: 2 };

/**
 * Default of `fileNameBoost`: chosen by leave-one-repository-out on 10 of 12
 * folds; file and function Acc@5 +0.044 each, no repository lower (docs/retrieval.md).
 */
export const DEFAULT_FILE_NAME_BOOST = 0.3;

/**
 * The defaults the search fills in (resolveTuning): the ranking the product
 * ships. The nested objects are their stages' own defaults; the opt-in
 * signals (`feedback`, `unknownNames`, `fileQueryWeights`, `wordVariantWeight`)
 * are off when absent, so they have none here.
 */
export const DEFAULT_TUNING = {
  aggregation: DEFAULT_AGGREGATION,
  fieldWeights: DEFAULT_FIELD_WEIGHTS,
  queryWeights: DEFAULT_QUERY_WEIGHTS,
  symbolRanking: DEFAULT_SYMBOL_RANKING,
  fileLevel: DEFAULT_FILE_LEVEL,
  pathMentionBoost: 0.3,
  frameBoost: 1.0,
  testFileFactor: DEFAULT_PRIOR_FACTORS.test,
  nonLibraryFactor: DEFAULT_PRIOR_FACTORS.library,
  stubFileFactor: DEFAULT_PRIOR_FACTORS.stub,
  fileNameBoost: DEFAULT_FILE_NAME_BOOST,
  stemMaxFiles: 2,
  phraseBoost: 0.5,
  definitionBoost: 0,
  maxDefinitions: 3,
  testedCodeWeight: 0,
  maxTerms: DEFAULT_MAX_TERMS,
} as const;

/** The tuning of one search with every default filled in (the nested objects merged field by field). */
export interface ResolvedTuning {
  aggregation: AggregationOptions;
  fieldWeights: FieldWeights;
  queryWeights: QueryWeights;
  symbolRanking: SymbolRankingOptions;
  fileLevel: FileLevelOptions;
  pathMentionBoost: number;
  frameBoost: number;
  priors: PathPriorFactors;
  fileNameBoost: number;
  stemMaxFiles: number;
  phraseBoost: number;
  definitionBoost: number;
  maxDefinitions: number;
  testedCodeWeight: number;
  maxTerms: number;
}

/** `options`' tuning with {@link DEFAULT_TUNING} filled in. */
export function resolveTuning(options: RetrievalTuning): ResolvedTuning {
  const d = DEFAULT_TUNING;
  return {
    aggregation: { ...d.aggregation, ...options.aggregation },
    fieldWeights: { ...d.fieldWeights, ...options.fieldWeights },
    queryWeights: { ...d.queryWeights, ...options.queryWeights },
    symbolRanking: { ...d.symbolRanking, ...options.symbolRanking },
    fileLevel: { ...d.fileLevel, ...options.fileLevel },
    pathMentionBoost: options.pathMentionBoost ?? d.pathMentionBoost,
    frameBoost: options.frameBoost ?? d.frameBoost,
    priors: {
      test: options.testFileFactor ?? d.testFileFactor,
      stub: options.stubFileFactor ?? d.stubFileFactor,
      library: options.nonLibraryFactor ?? d.nonLibraryFactor,
    },
    fileNameBoost: options.fileNameBoost ?? d.fileNameBoost,
    stemMaxFiles: options.stemMaxFiles ?? d.stemMaxFiles,
    phraseBoost: options.phraseBoost ?? d.phraseBoost,
    definitionBoost: options.definitionBoost ?? d.definitionBoost,
    maxDefinitions: options.maxDefinitions ?? d.maxDefinitions,
    testedCodeWeight: options.testedCodeWeight ?? d.testedCodeWeight,
    maxTerms: options.maxTerms ?? d.maxTerms,
  };
}
