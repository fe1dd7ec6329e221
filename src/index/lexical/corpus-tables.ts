/**
 * The tables a scoring corpus (postings-corpus.ts) is built from and carries:
 * BM25's constants, each slot's length norm, the chunk id → slot table and
 * the scratch arrays its queries reuse. Pure functions of their arguments.
 */
/** The arrays a corpus's queries reuse (a query leaves them cleared). */
export interface CorpusScratch {
  /** Scratch accumulators, one per slot. */
  group: Float64Array;
  total: Float64Array;
  mark: Uint8Array;
  /** Scratch lists of slots: every slot a query touched, and those of the group being summed. */
  touched: Int32Array;
  inGroup: Int32Array;
}

/** BM25 constants of fts5_aux.c. */
export const K1 = 1.2;
export const B = 0.75;

/** k1 × (1 − b + b × |D| / avgdl) of each slot, as FTS5 computes it. */
export function lengthNorms(lengths: Float64Array, avgdl: number): Float64Array {
  const norms = new Float64Array(lengths.length);
  for (let slot = 0; slot < lengths.length; slot++) norms[slot] = K1 * (1 - B + (B * lengths[slot]!) / avgdl);
  return norms;
}

/** Chunk ids a slot table has room for beyond the largest (a one-file edit adds tens). */
const ID_HEADROOM = 4096;

/** The slot of each chunk id (ids below 0 are removed chunks' slots and get none). */
export function slotTables(ids: Float64Array): { slotById: Int32Array | null; slotOf: Map<number, number> | null } {
  const count = ids.length;
  let maxId = 0;
  for (let slot = 0; slot < count; slot++) if (ids[slot]! > maxId) maxId = ids[slot]!;
  // Chunk ids are mostly dense: a typed table turns the per-occurrence id lookup of parsePostings into an index.
  if (Number.isSafeInteger(maxId) && maxId >= 0 && maxId <= 4 * count + 1024) {
    // Room for the ids of chunks added later: a carried corpus copies the table instead of building it again.
    const slotById = new Int32Array(maxId + 1 + ID_HEADROOM).fill(-1);
    for (let slot = 0; slot < count; slot++) if (ids[slot]! >= 0) slotById[ids[slot]!] = slot;
    return { slotById, slotOf: null };
  }
  const slotOf = new Map<number, number>();
  for (let slot = 0; slot < count; slot++) if (ids[slot]! >= 0) slotOf.set(ids[slot]!, slot);
  return { slotById: null, slotOf };
}

/**
 * Scratch arrays for `count` slots: `previous`'s when they are long enough (a
 * carried corpus takes them over; every query leaves them cleared), else new
 * ones with room for the slots a few edits add.
 */
export function scratch(count: number, previous?: CorpusScratch): CorpusScratch {
  if (previous && previous.group.length >= count) {
    const { group, total, mark, touched, inGroup } = previous;
    return { group, total, mark, touched, inGroup };
  }
  const size = previous ? count + ID_HEADROOM : count;
  return { group: new Float64Array(size), total: new Float64Array(size), mark: new Uint8Array(size), touched: new Int32Array(size), inGroup: new Int32Array(size) };
}
