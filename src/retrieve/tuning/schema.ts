/**
 * The one zod schema of the search's settings: the tuning knobs
 * (../retrieval-tuning.ts' {@link RetrievalTuning}, nested by stage) and the
 * user's choices a JSON object can give. `eval locbench --config-json`
 * composes it with its own settings, and `searchWithTuning` checks a tuning
 * given by untyped code (bench scripts) against it, so a misspelt, mistyped or
 * moved knob is a BAD_INPUT error naming it rather than a search that silently
 * used the default. The key checks at the end fail to compile when a knob is
 * added to a stage's options without being added here (or the reverse).
 */
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import { RANKER_KINDS } from '../ranker-kind.js';
import type { RetrievalTuning, SearchOptions } from '../retrieval-tuning.js';

/** A strict object of optional numbers named `keys` (weights and counts). */
function numbers<const K extends readonly string[]>(keys: K) {
  return z.partial(z.strictObject(Object.fromEntries(keys.map((key) => [key, z.number()])) as { [P in K[number]]: z.ZodMiniNumber }));
}

/** Builds the schemas (once, on first use: a hot command that never checks settings does not pay for ~60 zod objects). */
function build() {
  const queryWeights = numbers(['plain', 'identifier', 'backticked', 'frameFunction', 'pathPart', 'title', 'titleTag', 'maxFrequencyBoost', 'logLine', 'variant']);
  const unknownNames = z.partial(z.strictObject({ mode: z.enum(['definition', 'vocabulary', 'either']), weight: z.number(), paths: z.boolean() }));
  const query = z.partial(z.strictObject({ weights: queryWeights, unknownNames }));

  const fieldWeights = numbers(['path', 'name', 'signature', 'doc', 'body']);
  const wordVariants = z.partial(z.strictObject({ weight: z.number(), scope: z.enum(['all', 'missing']) }));
  const feedback = numbers(['documents', 'terms', 'weight', 'minDocuments']);
  const lexical = z.partial(z.strictObject({
    fieldWeights,
    maxTerms: z.number(),
    commonTermFraction: z.number(),
    minInformativeTerms: z.number(),
    scorer: z.enum(['auto', 'fts5', 'postings']),
    wordVariants,
    feedback,
  }));

  const priors = numbers(['test', 'stub', 'library']);

  const evidence = z.partial(z.strictObject({
    fileName: numbers(['weight', 'maxFiles']),
    pathMention: z.number(),
    frame: z.number(),
    phrase: z.number(),
    definition: numbers(['weight', 'maxDefinitions']),
  }));

  const aggregation = numbers(['alpha', 'm', 'topChunks']);
  const testedCode = numbers(['weight']);

  const fileLevel = z.partial(z.strictObject({
    document: z.enum(['identity', 'content', 'both']),
    method: z.enum(['boost', 'rrf']),
    weight: z.number(),
    k: z.number(),
    candidates: z.number(),
    rankSymbols: z.boolean(),
    titleWeight: z.number(),
  }));

  const titleFiles = z.partial(z.strictObject({ weight: z.number(), queryWeights }));

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

  /** The tuning knobs by stage, in the order the search runs them (retrieval-tuning.ts documents each). */
  const retrievalTuningSettings = { query, lexical, priors, evidence, aggregation, testedCode, fileLevel, titleFiles, symbolRanking };

  /** The user's choices (retrieval-tuning.ts' SearchOptions) that a JSON object can give. */
  const searchChoiceSettings = {
    queryMode: z.enum(['issue-aware', 'plain']),
    chunkKinds: z.array(z.enum(['function', 'class', 'file'])),
    documents: z.enum(['auto', 'below', 'equal', 'off']),
    maxDocuments: z.number().check(z.int(), z.nonnegative(), z.lte(50)),
    filesOnly: z.boolean(),
    /** `auto` (default: the shipped LambdaMART model where its file's `use` says), `hand` or `learned` (the model at every level, every query). */
    ranker: z.enum(RANKER_KINDS),
  };

  /** The settings of a tuned search, choices and knobs: what {@link checkTunedOptions} accepts besides code members. */
  const TunedSettingsSchema = z.partial(z.strictObject({ ...searchChoiceSettings, ...retrievalTuningSettings }));
  return { query, queryWeights, unknownNames, lexical, fieldWeights, wordVariants, feedback, priors, evidence, aggregation, testedCode, fileLevel, titleFiles, coverage, symbolRanking, retrievalTuningSettings, searchChoiceSettings, TunedSettingsSchema };
}

type Schemas = ReturnType<typeof build>;
let schemas: Schemas | undefined;

/**
 * The search's setting schemas: `retrievalTuningSettings` (the knobs by
 * stage, in the order the search runs them; retrieval-tuning.ts documents
 * each), `searchChoiceSettings` (the user's choices a JSON object can give:
 * SearchOptions without its code members) and `TunedSettingsSchema` (both,
 * all optional). Built on first call.
 */
export function tuningSchemas(): Schemas {
  schemas ??= build();
  return schemas;
}

/**
 * Where each knob of the earlier flat settings lives now, so a configuration
 * written for them is refused with the new name rather than a bare "unknown key".
 */
export const MOVED_TUNING_KEYS: Readonly<Record<string, string>> = {
  queryWeights: 'query.weights',
  unknownNames: 'query.unknownNames',
  fieldWeights: 'lexical.fieldWeights',
  maxTerms: 'lexical.maxTerms',
  commonTermFraction: 'lexical.commonTermFraction',
  minInformativeTerms: 'lexical.minInformativeTerms',
  lexicalScorer: 'lexical.scorer',
  wordVariantWeight: 'lexical.wordVariants.weight',
  wordVariantScope: 'lexical.wordVariants.scope',
  feedback: 'lexical.feedback',
  testFileFactor: 'priors.test',
  stubFileFactor: 'priors.stub',
  nonLibraryFactor: 'priors.library',
  fileNameBoost: 'evidence.fileName.weight',
  stemMaxFiles: 'evidence.fileName.maxFiles',
  pathMentionBoost: 'evidence.pathMention',
  frameBoost: 'evidence.frame',
  phraseBoost: 'evidence.phrase',
  definitionBoost: 'evidence.definition.weight',
  maxDefinitions: 'evidence.definition.maxDefinitions',
  testedCodeWeight: 'testedCode.weight',
  titleFileWeight: 'titleFiles.weight',
  fileQueryWeights: 'titleFiles.queryWeights',
};

/** One zod issue as a sentence part: where it is and what is wrong, naming unknown keys (and a moved knob's new place). */
export function settingIssueMessage(issue: z.$ZodIssue): string {
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  if (issue.code === 'unrecognized_keys') {
    const named = issue.keys.map((key) => {
      const moved = issue.path.length === 0 ? MOVED_TUNING_KEYS[key] : undefined;
      return moved ? `'${key}' (now '${moved}')` : `'${key}'`;
    });
    return `${where}unknown setting${named.length === 1 ? '' : 's'} ${named.join(', ')}`;
  }
  return `${where}${issue.message}`;
}

/** Members of the tuned options that are code or shared state, never checked as settings. */
const CODE_MEMBERS: ReadonlySet<string> = new Set<keyof TunedOptionsCode>(['pathFilter', 'fuse', 'features', 'lexicalMemo', 'rankerModel']);
type TunedOptionsCode = Pick<SearchOptions, 'pathFilter' | 'fuse' | 'features'> & Pick<RetrievalTuning, 'lexicalMemo' | 'rankerModel'>;

/**
 * Throws BAD_INPUT naming every unknown, moved or mistyped setting of
 * `options` (code members — filters, hooks, the memo, a model — are not
 * settings and pass). For `searchWithTuning`, whose callers include untyped scripts.
 */
export function checkTunedOptions(options: object): void {
  const settings: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(options)) {
    if (CODE_MEMBERS.has(key)) continue;
    settings[key] = value;
    any = true;
  }
  if (!any) return;
  const parsed = tuningSchemas().TunedSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new ReponavError('BAD_INPUT', `Search settings: ${parsed.error.issues.map(settingIssueMessage).join('; ')}.`);
}

// Compile-time key checks: each schema names exactly its options' keys (a mismatch names them in the error).
type Knobs<T> = NonNullable<T>;
type SameKeys<Schema, Options> = [Exclude<keyof Options, keyof Schema>, Exclude<keyof Schema, keyof Options>] extends [never, never]
  ? true
  : { missing: Exclude<keyof Options, keyof Schema>; unknown: Exclude<keyof Schema, keyof Options> };
type S = Schemas;
type Tuning = Required<Omit<RetrievalTuning, 'lexicalMemo' | 'rankerModel'>>;
const settingKeys: [
  SameKeys<S['retrievalTuningSettings'], Tuning>,
  SameKeys<S['searchChoiceSettings'], Omit<SearchOptions, keyof TunedOptionsCode>>,
  SameKeys<z.infer<S['query']>, Knobs<Tuning['query']>>,
  SameKeys<z.infer<S['queryWeights']>, Knobs<Knobs<Tuning['query']>['weights']>>,
  SameKeys<z.infer<S['unknownNames']>, Knobs<Knobs<Tuning['query']>['unknownNames']>>,
  SameKeys<z.infer<S['lexical']>, Knobs<Tuning['lexical']>>,
  SameKeys<z.infer<S['fieldWeights']>, Knobs<Knobs<Tuning['lexical']>['fieldWeights']>>,
  SameKeys<z.infer<S['wordVariants']>, Knobs<Knobs<Tuning['lexical']>['wordVariants']>>,
  SameKeys<z.infer<S['feedback']>, Knobs<Knobs<Tuning['lexical']>['feedback']>>,
  SameKeys<z.infer<S['priors']>, Knobs<Tuning['priors']>>,
  SameKeys<z.infer<S['evidence']>, Knobs<Tuning['evidence']>>,
  SameKeys<Knobs<z.infer<S['evidence']>['fileName']>, Knobs<Knobs<Tuning['evidence']>['fileName']>>,
  SameKeys<Knobs<z.infer<S['evidence']>['definition']>, Knobs<Knobs<Tuning['evidence']>['definition']>>,
  SameKeys<z.infer<S['aggregation']>, Knobs<Tuning['aggregation']>>,
  SameKeys<z.infer<S['testedCode']>, Knobs<Tuning['testedCode']>>,
  SameKeys<z.infer<S['fileLevel']>, Knobs<Tuning['fileLevel']>>,
  SameKeys<z.infer<S['titleFiles']>, Knobs<Tuning['titleFiles']>>,
  SameKeys<z.infer<S['symbolRanking']>, Knobs<Tuning['symbolRanking']>>,
  SameKeys<z.infer<S['coverage']>, Knobs<Knobs<Tuning['symbolRanking']>['coverage']>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void settingKeys;
