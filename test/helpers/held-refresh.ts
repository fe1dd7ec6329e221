/**
 * Holds an index's refreshes until the test releases them, so "the call
 * stopped waiting while indexing" is a fact of the test, not a race: with an
 * index wait of 0 ms a refresh whose steps are all synchronous (grammars
 * already loaded by an earlier file in the same fork, a tiny tree) finishes
 * before the wait's timer fires, and the call answers from the index.
 */
import { vi } from 'vitest';
import type { RepositoryIndex } from '../../src/index/repository-index.js';

/** A held index: `release()` lets every held and later refresh run; `restore()` removes the hold. */
export interface HeldRefresh {
  release(): void;
  restore(): void;
}

/** Makes `index.refresh` wait until `release()` is called, then run as usual. */
export function holdRefresh(index: RepositoryIndex): HeldRefresh {
  let released = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const real = index.refresh.bind(index);
  const spy = vi.spyOn(index, 'refresh').mockImplementation(async (options) => {
    if (released) return real(options);
    // A held refresh is one that indexes (a check that finds nothing changed is always waited for).
    options?.onIndexing?.();
    await gate;
    return real(options);
  });
  return {
    release: () => {
      released = true;
      release();
    },
    restore: () => spy.mockRestore(),
  };
}
