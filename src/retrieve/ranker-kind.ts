/**
 * Which combination orders a search's candidates, and the default: a module of
 * its own so that a search the model does not apply to (and the library's root
 * entry) loads neither the learned ranker nor its features.
 */

/**
 * `hand`: the tuned combination at every level, for every query.
 * `learned`: the shipped LambdaMART model (learned/learned-ranker.ts) reorders every level, for every query.
 * `auto`: the model reorders the levels its file's `use` names, for queries of
 * the kind it was trained and judged on (learned/query-domain.ts); the hand
 * order everywhere else. Which levels pass is decided by the rule of
 * docs/retrieval.md ("Learned ranker"), which `bench/train-trees.mjs` prints and writes into the model file.
 */
export type RankerKind = 'hand' | 'learned' | 'auto';
export const RANKER_KINDS = ['auto', 'hand', 'learned'] as const satisfies readonly RankerKind[];
/** The ranker a search uses when none is asked for. */
export const DEFAULT_RANKER: RankerKind = 'auto';
