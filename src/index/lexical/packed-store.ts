/**
 * The packed postings of one index state, as the corpus holds them: apart from
 * packed-postings.ts (which packs and unpacks them and reads the corpus's
 * slots) so that postings-corpus.ts can name the type without importing its
 * reader back.
 */

/** The packed postings of one index state (packed-postings.ts says how a record is laid out). */
export interface PackedPostings {
  /** Record number of each packed term. */
  records: Map<string, number>;
  /** Per record: its slice buffer, where its postings start, where its offsets start, where they end, its postings count (−1: FTS5 must score it). */
  buffer: number[];
  start: number[];
  split: number[];
  end: number[];
  count: number[];
  buffers: Uint8Array[];
  /** Bytes held in the slice buffers. */
  bytes: number;
  /** Whether every term of the vocabulary is packed (then a term not held and not pending occurs nowhere). */
  complete: boolean;
  /**
   * Terms whose postings changed since they were packed (a carried corpus's
   * edit, postings-corpus.ts): not held, and to be read from the index, not
   * taken as absent, until packed again.
   */
  pending: Set<string>;
}

/** An empty store, to be filled by {@link packRows}. */
export function emptyPacked(): PackedPostings {
  return { records: new Map(), buffer: [], start: [], split: [], end: [], count: [], buffers: [], bytes: 0, complete: false, pending: new Set() };
}

