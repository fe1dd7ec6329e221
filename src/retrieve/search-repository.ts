import { ReponavError } from '../errors.js';
import type { IndexStore } from '../index/index.js';
import { codeTokens } from '../index/index.js';
import { aggregateFiles } from './file-aggregation.js';
import { lexicalSearch } from './lexical-retriever.js';
import { parseQuery, type ParsedQuery, type QueryTerm } from './query-parser.js';
import { rankSymbols } from './rank-symbols.js';
import { fileRestrictedHits } from './file-candidates.js';
import type { RankedSymbol, RetrievalResult } from './retrieval-types.js';
import { applyDefinitionEvidence } from './definition-evidence.js';
import { promoteTestedCode } from './tested-code.js';
import { isTestPath, pathPrior } from './path-prior.js';
import { applyFeedback } from './query-feedback.js';
import { fuseFileLevel, fuseTitleLevel, orderedFiles, rankFileDocuments } from './file-level.js';
import { queryContext } from './known-names.js';
import { linkedFunctions } from './linked-lines.js';
import { titleTerms, usesTitleFiles, withTitleFiles } from './title-files.js';
import { indexedPaths, matchIndexedPaths } from './indexed-paths.js';
import { documentPlacement, searchDocuments } from './doc-search.js';
import type { DocHit, DocPlacement } from './retrieval-types.js';
import type { RankingLevel, SearchFeatures, SearchTrace } from './ranking-features.js';
import { DEFAULT_RANKER, RANKER_KINDS } from './ranker-kind.js';
import type { RankerModel } from './learned/learned-ranker.js';
import { DEFAULT_FEEDBACK, DEFAULT_TUNING, resolveTuning, type SearchOptions, type TunedSearchOptions } from './retrieval-tuning.js';
import { applyEvidenceBoosts, applyFileNameEvidence, applyPathPriors, applyPhraseEvidence, NO_PRIOR } from './hit-evidence.js';
import { queryTitle } from './module-names.js';

export type { RetrievalTuning, SearchOptions, TunedSearchOptions } from './retrieval-tuning.js';
export { DEFAULT_FEEDBACK, DEFAULT_FILE_NAME_BOOST, DEFAULT_TUNING } from './retrieval-tuning.js';
export { matchIndexedPaths } from './indexed-paths.js';
export { isTestPath } from './path-prior.js';

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
 * fusion, then the paper's file aggregation and symbol ranking. The ranking's
 * weights are the shipped ones ({@link DEFAULT_TUNING}).
 */
export function searchRepository(store: IndexStore, queryText: string, options: SearchOptions = {}): Promise<SearchResult> {
  // A key from untyped code that is not a user's choice (a tuning knob, a misspelling) is refused, not ignored.
  const unknown = Object.keys(options).filter((key) => !Object.hasOwn(SEARCH_OPTION_KEYS, key));
  if (unknown.length > 0) {
    return Promise.reject(new ReponavError('BAD_INPUT', `Unknown search option ${unknown.map((k) => `'${k}'`).join(', ')}; searchRepository takes ${Object.keys(SEARCH_OPTION_KEYS).join(', ')} (the ranking's weights are tuned by the evaluation harness, \`reponav eval locbench --config-json\`).`));
  }
  return tunedSearch(store, queryText, options);
}

/** Every key of {@link SearchOptions} (`satisfies`: a key added to the interface and not here, or the reverse, fails to compile). */
const SEARCH_OPTION_KEYS = {
  queryMode: true, chunkKinds: true, pathFilter: true, documents: true, maxDocuments: true,
  filesOnly: true, features: true, ranker: true, fuse: true,
} as const satisfies Record<keyof SearchOptions, true>;

/**
 * {@link searchRepository} with the tuning knobs the evaluation harness and
 * `bench/` set (retrieval-tuning.ts); absent knobs take {@link DEFAULT_TUNING},
 * so with none it is the default search, bit for bit.
 */
export async function searchWithTuning(store: IndexStore, queryText: string, options: TunedSearchOptions = {}): Promise<SearchResult> {
  // Callers include untyped scripts: a misspelt or moved knob is refused, not read as the default.
  // The schemas load here, not with the module: the package's entries and the hot commands take no tuning.
  const { checkTunedOptions } = await import('./tuning/index.js');
  checkTunedOptions(options);
  return tunedSearch(store, queryText, options);
}

/** {@link searchWithTuning} after its check (searchRepository has checked its own keys). */
async function tunedSearch(store: IndexStore, queryText: string, options: TunedSearchOptions): Promise<SearchResult> {
  if (options.queryMode === 'plain') {
    // The plain baseline has none of the stages the learned model reads: asking for both is refused, not ignored.
    if ((options.ranker ?? DEFAULT_RANKER) === 'learned' || options.features) throw new ReponavError('BAD_INPUT', 'The plain query mode has no stage values for the learned ranker or features; use the issue-aware mode or the hand ranker.');
    return plainSearch(store, queryText, options);
  }
  const tuning = resolveTuning(options);
  if (usesTitleFiles(tuning.titleFiles)) return withTitleFiles(store, queryText, options, tuning.titleFiles, tunedSearch);
  const { aggregation } = tuning;
  const queryWeights = tuning.query.weights;
  const unknownNames = tuning.query.unknownNames;
  const context = unknownNames ? queryContext(store, unknownNames, isTestPath, matchIndexedPaths) : {};
  const parsedQuery = parseQuery(queryText, queryWeights, context);
  // Over-fetch when filtering so the filter still leaves topChunks hits.
  const fetch = options.pathFilter ? aggregation.topChunks * 8 : aggregation.topChunks * 2;
  const lexicalTuning = tuning.lexical;
  const lexical = {
    limit: fetch,
    fieldWeights: lexicalTuning.fieldWeights,
    chunkKinds: options.chunkKinds,
    maxDocumentFraction: lexicalTuning.commonTermFraction,
    minInformativeTerms: lexicalTuning.minInformativeTerms,
    maxTerms: lexicalTuning.maxTerms,
    memo: options.lexicalMemo,
    scorer: lexicalTuning.scorer,
    wordVariantWeight: lexicalTuning.wordVariants.weight,
    wordVariantScope: lexicalTuning.wordVariants.scope,
  };
  // Each stage's hits are kept only for the features or the learned ranker (the trace is read once, at the end);
  // both load only when a search needs them, so a search the model does not apply to pays nothing for them.
  const learned = await learnedRanking(options, parsedQuery);
  const model = learned?.model;
  const trace: SearchTrace | undefined = options.features || model ? { hits: {} } : undefined;
  let hits = lexicalSearch(store, parsedQuery, lexical);
  if (lexicalTuning.feedback) hits = applyFeedback(store, hits, parsedQuery, { ...DEFAULT_FEEDBACK, ...lexicalTuning.feedback }, lexical);
  if (options.pathFilter) hits = hits.filter((h) => options.pathFilter!(h.path));
  if (trace) trace.hits.bm25 = hits;
  hits = applyPathPriors(store, hits, tuning.priors);
  if (trace) trace.hits.priors = hits;
  const { evidence } = tuning;
  hits = applyFileNameEvidence(store, hits, parsedQuery, evidence.fileName);
  if (trace) trace.hits['file-name'] = hits;
  hits = applyEvidenceBoosts(store, hits, parsedQuery, evidence);
  if (trace) trace.hits['path-frame'] = hits;
  hits = applyPhraseEvidence(store, hits, parsedQuery, evidence.phrase, options.pathFilter);
  if (trace) trace.hits.phrase = hits;
  hits = applyDefinitionEvidence(store, hits, parsedQuery, {
    weight: evidence.definition.weight,
    maxDefinitions: evidence.definition.maxDefinitions,
    minLength: 4,
    isTest: isTestPath,
    pathFilter: options.pathFilter,
  });
  if (options.fuse) hits = await options.fuse(hits, parsedQuery);
  hits = hits.slice(0, aggregation.topChunks);
  let files = aggregateFiles(hits, aggregation);
  files = promoteTestedCode(store, files, {
    weight: tuning.testedCode.weight,
    maxTargets: 3,
    isTest: isTestPath,
    pathFilter: options.pathFilter,
  });
  const chunkFiles = files;
  const level = tuning.fileLevel;
  const prior = pathPrior(store, tuning.priors) ?? NO_PRIOR;
  if (trace) {
    trace.chunkFiles = chunkFiles;
    trace.prior = prior;
  }
  if ((level.weight > 0 || level.titleWeight > 0) && files.length > 0) {
    // Below the ranking's ordered head the fusions read only the listed files' scores (none, for the title's).
    const rank = (terms: QueryTerm[], keep: ReadonlySet<string>) =>
      rankFileDocuments(store, terms.slice(0, lexicalTuning.maxTerms), level.document, prior, options.pathFilter, orderedFiles(level), keep);
    if (level.weight > 0) {
      const documents = rank(parsedQuery.terms, new Set(files.map((f) => f.path)));
      if (trace) trace.fileDocuments = documents;
      files = fuseFileLevel(files, documents, level);
    }
    const title = level.titleWeight > 0 ? titleTerms(parsedQuery, queryWeights) : [];
    if (title.length > 0) {
      const titled = rank(title, new Set());
      if (trace) trace.titleDocuments = titled;
      files = fuseTitleLevel(files, titled, level.titleWeight);
    }
  }
  const docs = documentsFor(store, parsedQuery, options);
  if (options.filesOnly) return finish({ query: queryText, queryTokens: parsedQuery.anchorTokens, hits, files, ...docs, parsedQuery, functions: [], modules: [] });
  const symbolFiles = level.rankSymbols ? files : chunkFiles;
  const symbolRanking = tuning.symbolRanking;
  // Off by default: no restricted query runs, and the ranking is the hit ranking's alone.
  const fileHits = symbolRanking.fileCandidates > 0 ? applyPathPriors(store, fileRestrictedHits(store, files, symbolRanking.fileCandidates, parsedQuery, lexical), tuning.priors) : undefined;
  const { functions, modules } = rankSymbols(store, symbolFiles, symbolRanking, {
    identifiers: parsedQuery.identifiers,
    terms: parsedQuery.terms,
    frameNames: parsedQuery.frames.flatMap((f) => (f.functionName ? [f.functionName] : [])),
    isTest: isTestPath,
    linked: linkedFunctions(store, parsedQuery.links, (p) => matchIndexedPaths(p, indexedPaths(store))),
    title: queryTitle(parsedQuery),
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
    return { ...result, ...applyLearnedRanker(model, result, features, learned!.levels) };
  }
}

/**
 * The model and the levels it reorders for this query (absent: all), or undefined when the
 * hand order stands at every level (`hand`; `auto` for a query outside the
 * model's domain, or a model that names no level).
 */
async function learnedRanking(options: TunedSearchOptions, parsedQuery: ParsedQuery): Promise<{ model: RankerModel; levels?: readonly RankingLevel[] } | undefined> {
  const kind = options.ranker ?? DEFAULT_RANKER;
  const load = async () => options.rankerModel ?? (await import('./shipped-ranker.js')).shippedRankerModel();
  switch (kind) {
    case 'hand':
      return undefined;
    case 'learned':
      return { model: await load() };
    case 'auto': {
      const model = await load();
      const use = model.use;
      // A files-only search has no modules or functions to reorder: it needs the model only at file level.
      const levels = (use?.levels ?? []).filter((level) => !options.filesOnly || level === 'file');
      if (!use || levels.length === 0) return undefined;
      const { inQueryDomain } = await import('./learned/query-domain.js');
      return inQueryDomain(parsedQuery, use.query) ? { model, levels } : undefined;
    }
    default: {
      const unknown: never = kind;
      throw new ReponavError('BAD_INPUT', `Unknown ranker '${String(unknown)}'; use one of ${RANKER_KINDS.join(', ')}.`);
    }
  }
}

/** Default number of documentation files in an answer. */
const DEFAULT_MAX_DOCUMENTS = 5;

/** The result's documentation and where it goes, per `options.documents`. */
function documentsFor(store: IndexStore, parsedQuery: ParsedQuery, options: SearchOptions): { docs: DocHit[]; docPlacement: DocPlacement } {
  const mode = options.documents ?? 'auto';
  if (mode === 'off') return { docs: [], docPlacement: 'below' };
  const docPlacement = mode === 'auto' ? documentPlacement(store, parsedQuery, options.pathFilter) : mode;
  const limit = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  return { docs: searchDocuments(store, parsedQuery.terms, { pathFilter: options.pathFilter, limit }), docPlacement };
}

/** The reference baseline: plain BM25 over function chunks with the paper's aggregation. */
async function plainSearch(store: IndexStore, queryText: string, options: TunedSearchOptions): Promise<SearchResult> {
  const aggregation = { ...DEFAULT_TUNING.aggregation, ...options.aggregation };
  const tokens = [...new Set(codeTokens(queryText))].filter((t) => !/^\d+$/.test(t));
  const parsedQuery = { ...parseQuery(queryText), terms: tokens.map((token) => ({ token, weight: 1 })) };
  const fieldWeights = { path: 0, name: 0, signature: 0, doc: 0, body: 1, ...options.lexical?.fieldWeights };
  let hits = lexicalSearch(store, parsedQuery, {
    limit: aggregation.topChunks,
    fieldWeights,
    chunkKinds: options.chunkKinds ?? ['function'],
    maxTerms: 100_000,
    // The reference baseline stays plain BM25 over every word.
    maxDocumentFraction: options.lexical?.commonTermFraction ?? 1,
    scorer: options.lexical?.scorer,
  });
  if (options.pathFilter) hits = hits.filter((h) => options.pathFilter!(h.path));
  const files = aggregateFiles(hits, aggregation);
  const { functions, modules } = rankSymbols(store, files, { ...DEFAULT_TUNING.symbolRanking, fileWeight: 0, memberWeight: 0, nameWeight: 0, ...options.symbolRanking });
  return { query: queryText, queryTokens: parsedQuery.anchorTokens, hits, files, parsedQuery, functions, modules };
}

