import { chunkIdOfSymbol } from '../index/index.js';
import { ReponavError } from '../errors.js';
import { compareHits } from './hit-order.js';
import type { IndexStore } from '../index/index.js';
import { aggregateFiles, DEFAULT_AGGREGATION, type AggregationOptions } from './file-aggregation.js';
import { chunkRowsByIds, DEFAULT_FIELD_WEIGHTS, DEFAULT_MAX_TERMS, lexicalSearch, type FieldWeights, type LexicalMemo } from './lexical-retriever.js';
import { DEFAULT_QUERY_WEIGHTS, parseQuery, type ParsedQuery, type QueryTerm, type QueryWeights } from './query-parser.js';
import { DEFAULT_SYMBOL_RANKING, rankSymbols, type SymbolRankingOptions } from './rank-symbols.js';
import { fileRestrictedHits } from './file-candidates.js';
import type { ChunkHit, ChunkKind, RankedSymbol, RetrievalResult } from './retrieval-types.js';
import { applyDefinitionEvidence } from './definition-evidence.js';
import { promoteTestedCode } from './tested-code.js';
import { codeTokens } from '../index/index.js';
import { extractMessagePhrases, findPhraseMatches } from './message-phrases.js';
import { repositoryLayout } from './repository-layout.js';
import { DEFAULT_PRIOR_FACTORS, isInlineTest, isTestPath, pathPrior, type PathPrior, type PathPriorFactors } from './path-prior.js';
import { applyFeedback, type FeedbackOptions } from './query-feedback.js';
import { DEFAULT_FILE_LEVEL, fuseFileLevel, fuseTitleLevel, orderedFiles, rankFileDocuments, type FileLevelOptions } from './file-level.js';
import { queryContext, type UnknownNameOptions } from './known-names.js';
import { extractLinkedLines, linkedFunctions } from './linked-lines.js';
import { titleTerms, usesTitleFiles, withTitleFiles, type TitleFileOptions } from './title-files.js';
import { indexedPaths, matchIndexedPaths } from './indexed-paths.js';
import { documentPlacement, searchDocuments } from './doc-search.js';
import type { DocHit, DocPlacement } from './retrieval-types.js';
import type { SearchFeatures, SearchTrace } from './ranking-features.js';
import type { RankerModel } from './learned/learned-ranker.js';
import { DEFAULT_RANKER, type RankerKind } from './ranker-kind.js';

export { matchIndexedPaths } from './indexed-paths.js';
export { isTestPath } from './path-prior.js';

/** Every tunable of one search; all optional (the file-level ones in title-files.ts). */
export interface SearchOptions extends TitleFileOptions {
  /**
   * `issue-aware` (default): weighted code evidence, priors and boosts.
   * `plain`: the reference baseline — every query word once, one BM25 field
   * (the chunk text), function chunks only, no priors or boosts.
   */
  queryMode?: 'issue-aware' | 'plain';
  /** Only chunks of these kinds are retrieved (default: all; `plain` mode: functions). */
  chunkKinds?: ChunkKind[];
  aggregation?: Partial<AggregationOptions>;
  fieldWeights?: Partial<FieldWeights>;
  queryWeights?: Partial<QueryWeights>;
  symbolRanking?: Partial<SymbolRankingOptions>;
  /** Keep only hits whose path passes (a file_pattern from a tool call). */
  pathFilter?: (path: string) => boolean;
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
   * the query writes in code form; see definition-evidence.ts. 0 turns it off.
   */
  definitionBoost?: number;
  /** Most non-test definitions a name may have and still count for `definitionBoost`. */
  maxDefinitions?: number;
  /** Share of a ranked test file's score given to the files it tests; see tested-code.ts. 0 turns it off. */
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
   * file-level.ts. Missing fields take {@link DEFAULT_FILE_LEVEL}; `weight` 0 turns it off.
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
   * Documentation (prose files, doc-search.ts) in the answer: `auto` (default)
   * lets {@link documentPlacement} choose `equal` or `below`; `off` looks for none.
   */
  documents?: 'auto' | DocPlacement | 'off';
  /** Documentation files returned (default 5). */
  maxDocuments?: number;
  /**
   * Also return each level's first `features` candidates with their feature
   * vectors (ranking-features.ts), read off this search's own stages; 0 or
   * absent: none. Changes no ranking.
   */
  features?: number;
  /**
   * `hand` (the default, DEFAULT_RANKER): the hand-tuned combination orders the candidates.
   * `learned`: a LambdaMART model (learned/learned-ranker.ts; the package's
   * models/ranker.json unless `rankerModel` is given) reorders each level's
   * first candidates by their feature vectors. See docs/retrieval.md.
   */
  ranker?: RankerKind;
  /** The model `ranker: 'learned'` uses instead of the shipped one (tests, `bench/`). */
  rankerModel?: RankerModel;
  /** Extra retrievers (dense) fused with the lexical hits; see fusion.ts. */
  fuse?: (lexical: ChunkHit[], query: ParsedQuery) => Promise<ChunkHit[]> | ChunkHit[];
}

/** A search's full answer: the scaffold's input plus ranked modules and functions. */
export interface SearchResult extends RetrievalResult {
  parsedQuery: ParsedQuery;
  modules: RankedSymbol[];
  functions: RankedSymbol[];
  /** With {@link SearchOptions.features}: the candidates' feature vectors per level. */
  features?: SearchFeatures;
}

/**
 * Runs the default retrieval pipeline: query parsing, weighted BM25 over
 * chunks, evidence boosts for files and frames the query names, optional
 * fusion, then the paper's file aggregation and symbol ranking.
 */
export async function searchRepository(store: IndexStore, queryText: string, options: SearchOptions = {}): Promise<SearchResult> {
  if (options.queryMode === 'plain') {
    // The plain baseline has none of the stages the learned model reads: asking for both is refused, not ignored.
    if ((options.ranker ?? DEFAULT_RANKER) === 'learned' || options.features) throw new ReponavError('BAD_INPUT', 'The plain query mode has no stage values for the learned ranker or features; use the issue-aware mode or the hand ranker.');
    return plainSearch(store, queryText, options);
  }
  if (usesTitleFiles(options)) return withTitleFiles(store, queryText, options, searchRepository);
  const aggregation = { ...DEFAULT_AGGREGATION, ...options.aggregation };
  const context = options.unknownNames ? queryContext(store, options.unknownNames, isTestPath, matchIndexedPaths) : {};
  const queryWeights = { ...DEFAULT_QUERY_WEIGHTS, ...options.queryWeights };
  const parsedQuery = parseQuery(queryText, queryWeights, context);
  const fieldWeights = { ...DEFAULT_FIELD_WEIGHTS, ...options.fieldWeights };
  // Over-fetch when filtering so the filter still leaves topChunks hits.
  const fetch = options.pathFilter ? aggregation.topChunks * 8 : aggregation.topChunks * 2;
  const lexical = {
    limit: fetch,
    fieldWeights,
    chunkKinds: options.chunkKinds,
    maxDocumentFraction: options.commonTermFraction,
    minInformativeTerms: options.minInformativeTerms,
    maxTerms: options.maxTerms,
    memo: options.lexicalMemo,
    scorer: options.lexicalScorer,
    wordVariantWeight: options.wordVariantWeight,
    wordVariantScope: options.wordVariantScope,
  };
  // Each stage's hits are kept only for the features or the learned ranker (the trace is read once, at the end);
  // both load only when asked for, so the default search pays nothing for them.
  const model = (options.ranker ?? DEFAULT_RANKER) === 'learned' ? (options.rankerModel ?? (await import('./shipped-ranker.js')).shippedRankerModel()) : undefined;
  const trace: SearchTrace | undefined = options.features || model ? { hits: {} } : undefined;
  let hits = lexicalSearch(store, parsedQuery, lexical);
  if (options.feedback) hits = applyFeedback(store, hits, parsedQuery, { ...DEFAULT_FEEDBACK, ...options.feedback }, lexical);
  if (options.pathFilter) hits = hits.filter((h) => options.pathFilter!(h.path));
  if (trace) trace.hits.bm25 = hits;
  hits = applyPathPriors(store, hits, options);
  if (trace) trace.hits.priors = hits;
  hits = applyFileNameEvidence(store, hits, parsedQuery, options);
  if (trace) trace.hits['file-name'] = hits;
  hits = applyEvidenceBoosts(store, hits, parsedQuery, options);
  if (trace) trace.hits['path-frame'] = hits;
  hits = applyPhraseEvidence(store, hits, parsedQuery, options);
  if (trace) trace.hits.phrase = hits;
  hits = applyDefinitionEvidence(store, hits, parsedQuery, {
    weight: options.definitionBoost ?? DEFAULT_DEFINITION_BOOST,
    maxDefinitions: options.maxDefinitions ?? 3,
    minLength: 4,
    isTest: isTestPath,
    pathFilter: options.pathFilter,
  });
  if (options.fuse) hits = await options.fuse(hits, parsedQuery);
  hits = hits.slice(0, aggregation.topChunks);
  let files = aggregateFiles(hits, aggregation);
  files = promoteTestedCode(store, files, {
    weight: options.testedCodeWeight ?? DEFAULT_TESTED_CODE_WEIGHT,
    maxTargets: 3,
    isTest: isTestPath,
    pathFilter: options.pathFilter,
  });
  const chunkFiles = files;
  const level = { ...DEFAULT_FILE_LEVEL, ...options.fileLevel };
  const prior = priorOf(store, options) ?? NO_PRIOR;
  if (trace) {
    trace.chunkFiles = chunkFiles;
    trace.prior = prior;
  }
  if ((level.weight > 0 || level.titleWeight > 0) && files.length > 0) {
    // Below the ranking's ordered head the fusions read only the listed files' scores (none, for the title's).
    const rank = (terms: QueryTerm[], keep: ReadonlySet<string>) =>
      rankFileDocuments(store, terms.slice(0, options.maxTerms ?? DEFAULT_MAX_TERMS), level.document, prior, options.pathFilter, orderedFiles(level), keep);
    if (level.weight > 0) {
      const documents = rank(parsedQuery.terms, new Set(files.map((f) => f.path)));
      if (trace) trace.fileDocuments = documents;
      files = fuseFileLevel(files, documents, level);
    }
    const title = level.titleWeight > 0 ? titleTerms(queryText, queryWeights) : [];
    if (title.length > 0) {
      const titled = rank(title, new Set());
      if (trace) trace.titleDocuments = titled;
      files = fuseTitleLevel(files, titled, level.titleWeight);
    }
  }
  const docs = documentsFor(store, queryText, parsedQuery, options);
  if (options.filesOnly) return finish({ query: queryText, queryTokens: parsedQuery.anchorTokens, hits, files, ...docs, parsedQuery, functions: [], modules: [] });
  const symbolFiles = level.rankSymbols ? files : chunkFiles;
  const symbolRanking = { ...DEFAULT_SYMBOL_RANKING, ...options.symbolRanking };
  // Off by default: no restricted query runs, and the ranking is the hit ranking's alone.
  const fileHits = symbolRanking.fileCandidates > 0 ? applyPathPriors(store, fileRestrictedHits(store, files, symbolRanking.fileCandidates, parsedQuery, lexical), options) : undefined;
  const { functions, modules } = rankSymbols(store, symbolFiles, symbolRanking, {
    identifiers: parsedQuery.identifiers,
    terms: parsedQuery.terms,
    frameNames: parsedQuery.frames.flatMap((f) => (f.functionName ? [f.functionName] : [])),
    isTest: isTestPath,
    linked: linkedFunctions(store, extractLinkedLines(parsedQuery.text), (p) => matchIndexedPaths(p, indexedPaths(store))),
    text: parsedQuery.text,
    files,
    fileHits,
  });
  return finish({ query: queryText, queryTokens: parsedQuery.anchorTokens, hits, files, ...docs, parsedQuery, functions, modules });

  /** The answer with its features and, with the learned ranker, its lists reordered. */
  async function finish(result: SearchResult): Promise<SearchResult> {
    if (!trace) return result;
    const { rankingFeatures } = await import('./ranking-features.js');
    // The features describe the hand order's candidates (the learned model reorders those).
    const features = rankingFeatures(store, result, trace, model?.top ?? options.features);
    // Static features are centred over the candidates described, so another count is computed on its own.
    if (options.features) result.features = options.features === (model?.top ?? options.features) ? features : rankingFeatures(store, result, trace, options.features);
    if (!model) return result;
    const { applyLearnedRanker } = await import('./learned/learned-ranker.js');
    return { ...result, ...applyLearnedRanker(model, result, features) };
  }
}

/** Default number of documentation files in an answer. */
const DEFAULT_MAX_DOCUMENTS = 5;

/** The result's documentation and where it goes, per `options.documents`. */
function documentsFor(store: IndexStore, queryText: string, parsedQuery: ParsedQuery, options: SearchOptions): { docs: DocHit[]; docPlacement: DocPlacement } {
  const mode = options.documents ?? 'auto';
  if (mode === 'off') return { docs: [], docPlacement: 'below' };
  const docPlacement = mode === 'auto' ? documentPlacement(store, queryText, options.pathFilter) : mode;
  const limit = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  return { docs: searchDocuments(store, parsedQuery.terms, { pathFilter: options.pathFilter, limit }), docPlacement };
}

/** The reference baseline: plain BM25 over function chunks with the paper's aggregation. */
async function plainSearch(store: IndexStore, queryText: string, options: SearchOptions): Promise<SearchResult> {
  const aggregation = { ...DEFAULT_AGGREGATION, ...options.aggregation };
  const tokens = [...new Set(codeTokens(queryText))].filter((t) => !/^\d+$/.test(t));
  const parsedQuery = { ...parseQuery(queryText), terms: tokens.map((token) => ({ token, weight: 1 })) };
  const fieldWeights = { path: 0, name: 0, signature: 0, doc: 0, body: 1, ...options.fieldWeights };
  let hits = lexicalSearch(store, parsedQuery, {
    limit: aggregation.topChunks,
    fieldWeights,
    chunkKinds: options.chunkKinds ?? ['function'],
    maxTerms: 100_000,
    // The reference baseline stays plain BM25 over every word.
    maxDocumentFraction: options.commonTermFraction ?? 1,
    scorer: options.lexicalScorer,
  });
  if (options.pathFilter) hits = hits.filter((h) => options.pathFilter!(h.path));
  const files = aggregateFiles(hits, aggregation);
  const { functions, modules } = rankSymbols(store, files, { ...DEFAULT_SYMBOL_RANKING, fileWeight: 0, memberWeight: 0, nameWeight: 0, ...options.symbolRanking });
  return { query: queryText, queryTokens: parsedQuery.anchorTokens, hits, files, parsedQuery, functions, modules };
}

function applyPathPriors(store: IndexStore, hits: ChunkHit[], options: SearchOptions): ChunkHit[] {
  const factors = priorFactors(options);
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

/** Every path's factor when no prior applies (one function, so file-level.ts' per-prior table is built once). */
const NO_PRIOR: PathPrior = () => 1;

/** The score factor of a path (tests, stubs, code outside the library), or null when every factor is 1; built once per index state (path-prior.ts). */
function priorOf(store: IndexStore, options: SearchOptions): PathPrior | null {
  return pathPrior(store, priorFactors(options));
}

/** The path prior's factors of a search's options, defaults filled in. */
function priorFactors(options: SearchOptions): PathPriorFactors {
  return {
    test: options.testFileFactor ?? DEFAULT_PRIOR_FACTORS.test,
    stub: options.stubFileFactor ?? DEFAULT_PRIOR_FACTORS.stub,
    library: options.nonLibraryFactor ?? DEFAULT_PRIOR_FACTORS.library,
  };
}

/** Feedback settings used for the fields a `feedback` option leaves out. */
export const DEFAULT_FEEDBACK: FeedbackOptions = { documents: 5, terms: 5, weight: 1, minDocuments: 2 };

/** Default of {@link SearchOptions.definitionBoost}. */
export const DEFAULT_DEFINITION_BOOST = 0;
/** Default of {@link SearchOptions.testedCodeWeight}. */
export const DEFAULT_TESTED_CODE_WEIGHT = 0;
/**
 * Default of {@link SearchOptions.fileNameBoost}: chosen by leave-one-repository-out
 * on 10 of 12 folds; file and function Acc@5 +0.044 each, no repository lower (docs/retrieval.md).
 */
export const DEFAULT_FILE_NAME_BOOST = 0.3;

function applyFileNameEvidence(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, options: SearchOptions): ChunkHit[] {
  const weight = options.fileNameBoost ?? DEFAULT_FILE_NAME_BOOST;
  if (hits.length === 0 || weight === 0) return hits;
  const maxFiles = options.stemMaxFiles ?? 2;
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

function applyPhraseEvidence(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, options: SearchOptions): ChunkHit[] {
  const weight = options.phraseBoost ?? 0.5;
  if (hits.length === 0 || weight === 0) return hits;
  const matches = findPhraseMatches(store, extractMessagePhrases(query.text));
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
    if (options.pathFilter && !options.pathFilter(chunk.path)) continue;
    out.push({ chunkId: chunk.id, path: chunk.path, kind: chunk.kind, symbol: chunk.symbol, startLine: chunk.startLine, endLine: chunk.endLine, score: boostOf.get(chunk.id)! });
  }
  return out.sort(compareHits);
}

function applyEvidenceBoosts(store: IndexStore, hits: ChunkHit[], query: ParsedQuery, options: SearchOptions): ChunkHit[] {
  if (hits.length === 0 || (query.paths.length === 0 && query.frames.length === 0)) return hits;
  const best = hits[0].score;
  const pathBoost = (options.pathMentionBoost ?? 0.3) * best;
  const frameBoost = (options.frameBoost ?? 1.0) * best;
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
