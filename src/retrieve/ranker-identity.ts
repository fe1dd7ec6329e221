/**
 * What an evaluation run records of the ranker that ordered its predictions:
 * the kind, and for a kind that reads a model, which model (the sha256 of the
 * model's JSON, the shipped one or the one given). A small module of its own
 * so the library's entry loads neither the model nor its schema until a run asks.
 */
import { DEFAULT_RANKER, type RankerKind } from './ranker-kind.js';
import type { RankerModel } from './learned/learned-ranker.js';

/** The ranker of a search with `ranker` (absent: the default) and, unless `hand`, its model's sha256. */
export async function rankerIdentity(ranker: RankerKind | undefined, given?: RankerModel): Promise<{ ranker: RankerKind; rankerModel?: string }> {
  const kind = ranker ?? DEFAULT_RANKER;
  if (kind === 'hand') return { ranker: kind };
  // The shipped model is read and checked once per process (shipped-ranker.ts); hashing its parse needs no second read.
  const model = given ?? (await import('./shipped-ranker.js')).shippedRankerModel();
  const { createHash } = await import('node:crypto');
  return { ranker: kind, rankerModel: createHash('sha256').update(JSON.stringify(model)).digest('hex') };
}
