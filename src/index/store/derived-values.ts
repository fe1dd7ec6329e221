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
  /** Type only (never set): ties the key to its value's type. */
  readonly __value?: T;
}

/** A key for {@link IndexSnapshot.derive}; create one per derived value, at module level. */
export function derivedKey<T>(name: string): DerivedKey<T> {
  return { name };
}

/** The values derived from one index state, each computed on first use. */
export class IndexSnapshot {
  private readonly values = new Map<DerivedKey<unknown>, unknown>();

  constructor(
    /** The index generation (index-generation.ts) this snapshot belongs to. */
    readonly generation: string,
  ) {}

  /** The value of `key` in this state, computed with `compute` the first time it is asked for. */
  derive<T>(key: DerivedKey<T>, compute: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = compute();
    this.values.set(key, value);
    return value;
  }
}

const snapshots = new WeakMap<IndexStore, IndexSnapshot>();

/** The snapshot of the store's current index state (a new, empty one after every write). */
export function snapshotOf(store: IndexStore): IndexSnapshot {
  const generation = indexGeneration(store);
  let snapshot = snapshots.get(store);
  if (snapshot?.generation !== generation) snapshots.set(store, (snapshot = new IndexSnapshot(generation)));
  return snapshot;
}
