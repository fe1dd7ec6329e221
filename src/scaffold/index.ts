/**
 * Public surface of the scaffold layer: the RepoNav scaffold (text and JSON),
 * the RQ2 comparison interfaces, the list_symbols skeleton, and the selection
 * helpers they are built from (token budgets live in src/budget/).
 */
export type {
  ResolvedScaffoldOptions,
  ScaffoldAnchor,
  ScaffoldFile,
  ScaffoldFileBlock,
  ScaffoldModel,
  ScaffoldOptions,
  ScaffoldSymbolRef,
  ScaffoldTarget,
  TargetSource,
} from './scaffold-types.js';
export { buildScaffoldModel, DEFAULT_SCAFFOLD_OPTIONS, resolveScaffoldOptions } from './build-scaffold-model.js';
export { NEXT_STEP_CUE, NO_CANDIDATES_LINE, renderScaffold, renderScaffoldModel } from './render-scaffold.js';
export {
  renderScaffoldJson,
  scaffoldModelToJson,
  type ScaffoldJson,
  type ScaffoldJsonAnchor,
  type ScaffoldJsonFile,
  type ScaffoldJsonSymbol,
  type ScaffoldJsonTarget,
} from './render-json.js';
export { FILE_CHUNK_LABEL, renderSnippets, type ReadLines, type SnippetOptions } from './render-snippet.js';
export { renderFileOnly, type FileListOptions } from './render-file-only.js';
export { renderInline, type InlineOptions } from './render-inline.js';
export {
  INTERFACE_MODES,
  renderInterface,
  type InterfaceMode,
  type InterfaceOptions,
} from './render-interface.js';
export {
  buildSkeletonJson,
  cleanSignature,
  importEntries,
  renderSkeleton,
  skeletonEntries,
  type SkeletonEntry,
  type SkeletonInput,
  type SkeletonJson,
  type SkeletonOptions,
} from './render-skeleton.js';
export {
  matchQueryTokens,
  MIN_QUERY_TOKEN_LENGTH,
  nameForms,
  normalizeQueryTokens,
  splitIdentifier,
} from './query-token-match.js';
export { compareAnchorCandidates, kindPriority, rankAnchorCandidates, selectAnchors, type AnchorCandidate } from './select-anchors.js';
export { selectGlimpse, type GlimpseCandidate } from './select-glimpse.js';
export { selectTargets } from './select-targets.js';
export { sameFileCalls, type CallNeighbours } from './same-file-calls.js';
export { countEvidence, fileHits, sortFiles, sortHits, symbolHitScores } from './hit-evidence.js';
export { loadScaffoldFiles, renderSearchResult, storeLineReader } from './render-search-result.js';
export {
  buildSearchResultJson,
  RANKED_LIMIT,
  rankedSpanSchema,
  scaffoldJsonSchema,
  searchResultJsonSchema,
  type RankedRetrievalResult,
  type RankedSpan,
  type SearchResultJson,
} from './search-result-json.js';
export { displayPath, formatNameList, formatScore } from './text-format.js';
export { warmSearch } from './warm-search.js';
