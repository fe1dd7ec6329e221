/**
 * Everything a reader derives from one index state (a path list, the
 * repository's layout, the file graph), owned by one {@link IndexSnapshot}
 * per store and generation instead of a `WeakMap` of `{ generation, value }`
 * pairs in every module: when the index changes, the whole snapshot is
 * replaced, so no derived value can outlive the state it was computed from.
 */
import { indexGeneration } from './index-generation.js';
import type { IndexStore } from './index-store.js';

/** A named slot of a snapshot; the type parameter is the derived value's type. */
export interface DerivedKey<T> {
  readonly name: string;
  /**
   * True when the value of an earlier state is handed to the next state's
   * `compute`, which may return it unchanged when what it depends on did not
   * change (the documentation corpus over an edit of a code file).
   */
  readonly carried: boolean;
  /** Type only (never set): ties the key to its value's type. */
  readonly __value?: T;
}

/**
 * A key for {@link IndexSnapshot.derive}; create one per derived value, at
 * module level. `carried` keys hand their latest value to the next state's
 * `compute` (one value per key is kept across a write, no more).
 */
export function derivedKey<T>(name: string, options: { carried?: boolean } = {}): DerivedKey<T> {
  return { name, carried: options.carried ?? false };
}

/** The values derived from one index state, each computed on first use. */
export class IndexSnapshot {
  private readonly values = new Map<DerivedKey<unknown>, unknown>();
  /** The latest value of each carried key from earlier states, until this state derives its own. */
  private readonly earlier = new Map<DerivedKey<unknown>, unknown>();

  constructor(
    /** The index generation (index-generation.ts) this snapshot belongs to. */
    readonly generation: string,
    /** The snapshot this one replaces: its carried keys' values are offered to this state's `compute`. */
    replaced?: IndexSnapshot,
  ) {
    if (!replaced) return;
    for (const [key, value] of replaced.earlier) this.earlier.set(key, value);
    for (const [key, value] of replaced.values) if (key.carried) this.earlier.set(key, value);
  }

  /**
   * The value of `key` in this state, computed with `compute` the first time
   * it is asked for. For a carried key `compute` gets the latest value an
   * earlier state derived (undefined when there is none) and returns it only
   * when it still holds for this state.
   */
  derive<T>(key: DerivedKey<T>, compute: (earlier: T | undefined) => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const earlier = this.earlier.get(key) as T | undefined;
    this.earlier.delete(key);
    const value = compute(earlier);
    this.values.set(key, value);
    return value;
  }
}

const snapshots = new WeakMap<IndexStore, IndexSnapshot>();

/** The snapshot of the store's current index state (a new, empty one after every write). */
export function snapshotOf(store: IndexStore): IndexSnapshot {
  const generation = indexGeneration(store);
  let snapshot = snapshots.get(store);
  if (snapshot?.generation !== generation) snapshots.set(store, (snapshot = new IndexSnapshot(generation, snapshot)));
  return snapshot;
}
