/**
 * The learned ranker at query time: a LambdaMART model per level (lambdamart.ts)
 * reorders the hand combination's first candidates by their feature vectors
 * (ranking-features.ts). The model is data (`models/ranker.json` in the
 * package, read by shipped-ranker.ts; written by `bench/train-trees.mjs`); this module validates it and
 * scores with it, nothing else.
 */
import { readFileSync } from 'node:fs';
import * as z from '../../zod-mini.js';
import { ReponavError } from '../../errors.js';
import { FEATURE_NAMES, RANKING_LEVELS, symbolKey, type RankingLevel, type SearchFeatures } from '../ranking-features.js';
import { ensembleScore, type RegressionTree } from './lambdamart.js';
import type { FileCandidate, RankedSymbol } from '../retrieval-types.js';

export { DEFAULT_RANKER, RANKER_KINDS, type RankerKind } from '../ranker-kind.js';

const Tree = z.strictObject({
  feature: z.array(z.number().check(z.int(), z.gte(-1))),
  threshold: z.array(z.number()),
  left: z.array(z.number().check(z.int())),
  right: z.array(z.number().check(z.int())),
  value: z.array(z.number()),
});

const Level = z.strictObject({
  /** The feature names the trees index, in order; must equal FEATURE_NAMES of the level. */
  features: z.array(z.string()),
  /**
   * The score boosting started from: `scale` × ln(the named feature), which is
   * the hand order's `hand-rank` (1/(1+rank), never 0 for a candidate), so
   * with no trees the model keeps the hand order exactly.
   */
  base: z.strictObject({ feature: z.literal('hand-rank'), scale: z.number().check(z.positive()) }),
  trees: z.array(Tree),
});

/**
 * Where the default ranker (`auto`) applies the model: the levels at which it
 * passed the decision rule of docs/retrieval.md, for queries of the kind it
 * was trained and judged on (query-domain.ts). Written by
 * `bench/train-trees.mjs` from the rule it prints.
 */
const Use = z.strictObject({
  levels: z.array(z.enum(RANKING_LEVELS)),
  query: z.strictObject({ maxWords: z.number().check(z.int(), z.positive()), traces: z.boolean() }),
});

/** The model file's schema. */
export const RankerModelSchema = z.strictObject({
  format: z.literal('reponav-ranker/1'),
  /** How many of each level's first candidates the model reorders. */
  top: z.number().check(z.int(), z.positive()),
  levels: z.strictObject({ file: Level, module: Level, function: Level }),
  /** Absent: the model is used only when asked for (`ranker: 'learned'`), never by `auto`. */
  use: z.optional(Use),
  /** How the model was made (training set, options, the command); not read at query time. */
  provenance: z.record(z.string(), z.unknown()),
});
export type RankerModel = z.infer<typeof RankerModelSchema>;

/** A model file that cannot be used: unreadable, malformed, or trained on other features (code BAD_INPUT). */
export class RankerModelError extends ReponavError {
  constructor(message: string) {
    super('BAD_INPUT', message);
    this.name = 'RankerModelError';
  }
}

/** Checks a parsed model: the schema, the feature names of every level, and every tree's shape. */
export function validateRankerModel(data: unknown, source: string): RankerModel {
  const parsed = RankerModelSchema.safeParse(data);
  if (!parsed.success) throw new RankerModelError(`The ranker model ${source} is not a reponav ranker model: ${parsed.error.issues[0]?.path.join('.') || 'root'}: ${parsed.error.issues[0]?.message}.`);
  const model = parsed.data;
  for (const level of RANKING_LEVELS) {
    const { features, trees } = model.levels[level];
    const expected = FEATURE_NAMES[level];
    if (features.length !== expected.length || features.some((f, i) => f !== expected[i])) {
      throw new RankerModelError(`The ranker model ${source} was trained on other ${level} features than this version computes; retrain it with bench/train-trees.mjs.`);
    }
    trees.forEach((tree, t) => checkTree(tree, features.length, `${source} ${level} tree ${t}`));
  }
  return model;
}

function checkTree(tree: RegressionTree, width: number, where: string): void {
  const n = tree.feature.length;
  if ([tree.threshold, tree.left, tree.right, tree.value].some((a) => a.length !== n)) throw new RankerModelError(`The ranker model ${where} has arrays of different lengths.`);
  for (let i = 0; i < n; i++) {
    if (tree.feature[i]! < 0) continue;
    // Children come after their parent, so evaluation always ends at a leaf.
    if (tree.feature[i]! >= width || !(tree.left[i]! > i && tree.left[i]! < n && tree.right[i]! > i && tree.right[i]! < n)) {
      throw new RankerModelError(`The ranker model ${where} has a malformed node ${i}.`);
    }
  }
}

/** Reads and validates a model file. */
export function loadRankerModel(path: string): RankerModel {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RankerModelError(`The ranker model ${path} cannot be read: ${(error as Error).message}.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RankerModelError(`The ranker model ${path} is not JSON.`);
  }
  return validateRankerModel(data, path);
}

/** The base score of a candidate whose `hand-rank` feature is `handRank` (training uses the same function). */
export function baseScore(scale: number, handRank: number): number {
  return scale * Math.log(Math.max(handRank, 1e-9));
}

/** The three lists a learned ranking reorders. */
export interface RankableLists {
  files: FileCandidate[];
  modules: RankedSymbol[];
  functions: RankedSymbol[];
}

/**
 * `lists` with each of `levels`' first `model.top` candidates reordered by the
 * model's score of their feature vectors (ties keep the hand order); the
 * reordered candidates take the hand ranking's scores in order, so scores stay
 * descending and their spread is the hand ranking's. Candidates after the first
 * `top`, and every level not in `levels`, keep their places.
 */
export function applyLearnedRanker(model: RankerModel, lists: RankableLists, features: SearchFeatures, levels: readonly RankingLevel[] = RANKING_LEVELS): RankableLists {
  const reorder = <T extends { score: number }>(level: RankingLevel, list: T[], keyOf: (item: T) => string): T[] => {
    if (!levels.includes(level)) return list;
    const { trees, base } = model.levels[level];
    const baseAt = FEATURE_NAMES[level].indexOf(base.feature);
    const { keys, x } = features[level];
    if (trees.length === 0 || keys.length < 2) return list;
    const head = list.slice(0, keys.length);
    if (head.some((item, i) => keyOf(item) !== keys[i])) throw new RankerModelError(`The ${level} features do not describe the ${level} list (a search must compute them with the same candidates).`);
    const scored = head.map((item, i) => ({ item, i, s: ensembleScore(trees, x[i]!, baseScore(base.scale, x[i]![baseAt]!)) }));
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
    return [...scored.map(({ item }, i) => ({ ...item, score: head[i]!.score })), ...list.slice(keys.length)];
  };
  return {
    files: reorder('file', lists.files, (f) => f.path),
    modules: reorder('module', lists.modules, symbolKey),
    functions: reorder('function', lists.functions, symbolKey),
  };
}
