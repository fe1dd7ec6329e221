/**
 * The retrieval settings `reponav eval locbench --config-json` accepts: every
 * plain `TunedSearchOptions` setting (the user's choices and the tuning knobs), checked by value and by name, so a misspelt
 * or mistyped setting is a BAD_INPUT error naming it rather than a run that
 * silently used the default. The key checks at the end fail to compile when a
 * setting is added to TunedSearchOptions (or to one of its option objects) without
 * being added here, or left out on purpose in {@link NOT_SETTINGS}.
 */
import * as z from '../zod-mini.js';
import { RANKER_KINDS, type TunedSearchOptions } from '../retrieve/index.js';

/** A strict object of optional numbers named `keys` (weights and counts). */
function numbers<const K extends readonly string[]>(keys: K) {
  return z.partial(z.strictObject(Object.fromEntries(keys.map((key) => [key, z.number()])) as { [P in K[number]]: z.ZodMiniNumber }));
}

const aggregation = numbers(['alpha', 'm', 'topChunks']);
const fieldWeights = numbers(['path', 'name', 'signature', 'doc', 'body']);
const queryWeights = numbers(['plain', 'identifier', 'backticked', 'frameFunction', 'pathPart', 'title', 'titleTag', 'maxFrequencyBoost', 'logLine', 'variant']);

const coverage = z.partial(z.strictObject({
  weight: z.number(),
  files: z.number(),
  mode: z.enum(['flat', 'share']),
  minTerms: z.number(),
  minSpread: z.number(),
  exponent: z.number(),
  shape: z.enum(['score', 'rank']),
  depth: z.number(),
  idf: z.boolean(),
  candidates: z.boolean(),
  maxInTop: z.number(),
}));

const symbolRanking = z.partial(z.strictObject({
  fileWeight: z.number(),
  topFiles: z.number(),
  memberWeight: z.number(),
  callWeight: z.number(),
  callSources: z.number(),
  maxCallResolutions: z.number(),
  callScope: z.enum(['ranked', 'file']),
  nameWeight: z.number(),
  implicitInheritance: z.boolean(),
  sizeWeight: z.number(),
  sizePrior: z.enum(['log', 'percentile']),
  testFactor: z.number(),
  linkWeight: z.number(),
  classWeight: z.number(),
  eponymWeight: z.number(),
  titleModulePairs: z.boolean(),
  coverage,
  fileCandidates: z.number(),
}));

const feedback = numbers(['documents', 'terms', 'weight', 'minDocuments']);

const fileLevel = z.partial(z.strictObject({
  document: z.enum(['identity', 'content', 'both']),
  method: z.enum(['boost', 'rrf']),
  weight: z.number(),
  k: z.number(),
  candidates: z.number(),
  rankSymbols: z.boolean(),
  titleWeight: z.number(),
}));

const unknownNames = z.partial(z.strictObject({ mode: z.enum(['definition', 'vocabulary', 'either']), weight: z.number(), paths: z.boolean() }));

/** The `TunedSearchOptions` settings, as `--config-json` gives them. */
const searchSettings = {
  queryMode: z.enum(['issue-aware', 'plain']),
  chunkKinds: z.array(z.enum(['function', 'class', 'file'])),
  aggregation,
  fieldWeights,
  queryWeights,
  symbolRanking,
  pathMentionBoost: z.number(),
  frameBoost: z.number(),
  testFileFactor: z.number(),
  nonLibraryFactor: z.number(),
  fileNameBoost: z.number(),
  stemMaxFiles: z.number(),
  stubFileFactor: z.number(),
  phraseBoost: z.number(),
  definitionBoost: z.number(),
  maxDefinitions: z.number(),
  testedCodeWeight: z.number(),
  commonTermFraction: z.number(),
  minInformativeTerms: z.number(),
  feedback,
  fileLevel,
  unknownNames,
  wordVariantWeight: z.number(),
  wordVariantScope: z.enum(['all', 'missing']),
  maxTerms: z.number(),
  lexicalScorer: z.enum(['auto', 'fts5', 'postings']),
  documents: z.enum(['auto', 'below', 'equal', 'off']),
  maxDocuments: z.number().check(z.int(), z.nonnegative(), z.lte(50)),
  fileQueryWeights: queryWeights,
  titleFileWeight: z.number(),
  filesOnly: z.boolean(),
  /** `auto` (default: the shipped LambdaMART model where its file's `use` says), `hand` or `learned` (the model at every level, every query). */
  ranker: z.enum(RANKER_KINDS),
};

/** Retrieval settings accepted in `--config-json` (all optional; defaults are the tuned ones). */
export const RetrievalSettingsSchema = z.partial(z.strictObject({
  ...searchSettings,
  /** Folder for the per-repository commit indexes; default: the user cache. */
  indexDir: z.string(),
  /** How many predictions per level are written. */
  maxPredictions: z.number().check(z.int(), z.positive()),
  /**
   * Also record raw chunk hits per instance, so `eval analyze` can recompute
   * file aggregation for other α, m and depths without searching again:
   * `raw_hits`, the search's own aggregated hits (its top `topChunks`), and
   * when this number is larger, `raw_hits_deep`, the top this-many hits of a
   * second search at that depth. Predictions are unchanged; off by default.
   */
  recordHits: z.number().check(z.int(), z.positive(), z.lte(1000)),
}));

/** Accepted retrieval settings. */
export type RetrievalSettings = z.infer<typeof RetrievalSettingsSchema>;

/** The search settings of `settings` (the others are the localizer's own). */
export function searchOptionsOf(settings: RetrievalSettings): TunedSearchOptions {
  const { indexDir: _indexDir, maxPredictions: _maxPredictions, recordHits: _recordHits, ...search } = settings;
  return search;
}

/** TunedSearchOptions members that are code or shared state, not settings a JSON object can give. */
type NOT_SETTINGS = 'pathFilter' | 'lexicalMemo' | 'fuse' | 'features' | 'rankerModel';

type Options<K extends keyof TunedSearchOptions> = NonNullable<TunedSearchOptions[K]>;
/** `true` when the schema names exactly the keys of `Options` (a mismatch names them in the compile error). */
type SameKeys<Schema, Options> = [Exclude<keyof Options, keyof Schema>, Exclude<keyof Schema, keyof Options>] extends [never, never]
  ? true
  : { missing: Exclude<keyof Options, keyof Schema>; unknown: Exclude<keyof Schema, keyof Options> };
const settingKeys: [
  SameKeys<typeof searchSettings, Omit<TunedSearchOptions, NOT_SETTINGS>>,
  SameKeys<z.infer<typeof aggregation>, Options<'aggregation'>>,
  SameKeys<z.infer<typeof fieldWeights>, Options<'fieldWeights'>>,
  SameKeys<z.infer<typeof queryWeights>, Options<'queryWeights'>>,
  SameKeys<z.infer<typeof symbolRanking>, Options<'symbolRanking'>>,
  SameKeys<z.infer<typeof coverage>, NonNullable<Options<'symbolRanking'>['coverage']>>,
  SameKeys<z.infer<typeof feedback>, Options<'feedback'>>,
  SameKeys<z.infer<typeof fileLevel>, Options<'fileLevel'>>,
  SameKeys<z.infer<typeof unknownNames>, Options<'unknownNames'>>,
] = [true, true, true, true, true, true, true, true, true];
void settingKeys;
