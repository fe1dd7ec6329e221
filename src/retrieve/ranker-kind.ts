/**
 * Which combination orders a search's candidates, and the default: a module of
 * its own so the default search (and the library's root entry) loads neither
 * the learned ranker nor its features unless they are asked for.
 */

/** `hand`: the tuned combination; `learned`: the shipped LambdaMART model (learned/learned-ranker.ts). */
export type RankerKind = 'hand' | 'learned';
export const RANKER_KINDS = ['hand', 'learned'] as const satisfies readonly RankerKind[];
/**
 * The ranker a search uses when none is asked for: the hand combination. The
 * learned one becomes the default only when it passes the decision rule of
 * docs/retrieval.md ("Learned ranker"), which `bench/train-trees.mjs` prints.
 */
export const DEFAULT_RANKER: RankerKind = 'hand';
