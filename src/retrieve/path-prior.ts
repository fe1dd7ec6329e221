/**
 * The path prior of the chunk and file rankings: a score factor per path for
 * tests, declaration stubs and code outside the library the packaging
 * metadata declares (repository-layout.ts). A search asks it for every file
 * matching any query term (~10^4 on a large tree, twice per search), so each
 * setting's prior is built once per index state and remembers its answers.
 */
import { derivedKey, snapshotOf, type IndexStore } from '../index/index.js';
import { isOutsideLibrary, repositoryLayout, type RepositoryLayout } from './repository-layout.js';

/** The factors of one prior; 1 turns a factor off. */
export interface PathPriorFactors {
  test: number;
  stub: number;
  /** For code outside the declared library; never applies when the library is unknown. */
  library: number;
}

/**
 * Default of the search's `priors.library` (retrieval-tuning.ts). On the 12 dev repositories
 * (135 instances), added to the file-name boost 0.3: file Acc@1 +0.037, 5 won / 0 lost,
 * nothing else changed (docs/retrieval.md).
 */
export const DEFAULT_NON_LIBRARY_FACTOR = 0.7;

/** The factors a search applies when its options leave them out (`priors` of retrieval-tuning.ts). */
export const DEFAULT_PRIOR_FACTORS: Readonly<PathPriorFactors> = { test: 0.5, stub: 0.5, library: DEFAULT_NON_LIBRARY_FACTOR };

/** A path's score factor under one index state and one setting of the factors. */
export type PathPrior = (path: string) => number;

const TEST_PATH = /(^|\/)(tests?|testing|__tests__|spec|test-data|testdata)\/|(^|\/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py)$/;
const STUB_PATH = /\.(pyi|d\.ts|d\.mts|d\.cts)$/;

/** True for paths that look like tests (folders `test/`, `tests/`, files `test_x.py`, `x_test.go`, `x.test.ts`). */
export function isTestPath(path: string): boolean {
  // Asked for the same few thousand paths many times per search (priors, file ranking, symbol ranking): remembered.
  let test = testPaths.get(path);
  if (test === undefined) {
    if (testPaths.size >= MAX_REMEMBERED_PATHS) testPaths.clear();
    testPaths.set(path, (test = TEST_PATH.test(path)));
  }
  return test;
}

/**
 * True for a function of a test module inside a non-test source file: in
 * Rust, unit tests live beside the code in `#[cfg(test)] mod tests` (their
 * qualified names `tests.name` or `outer.tests.name`), and a query about a
 * feature matched them before the code they test (ripgrep: an issue about
 * `--max-columns-preview` anchored on `tests.only_matching_max_columns_preview`).
 * Other languages keep unit tests in test files, which {@link isTestPath} covers.
 */
export function isInlineTest(path: string, qualifiedName: string): boolean {
  return path.endsWith('.rs') && INLINE_TEST_MODULE.test(qualifiedName) && !isTestPath(path);
}

const INLINE_TEST_MODULE = /(^|\.)tests?\./;

const testPaths = new Map<string, boolean>();
/** A repository of 100k files may ask about all of them; beyond this the memory starts afresh. */
const MAX_REMEMBERED_PATHS = 100_000;

/**
 * Per index state: the prior of each setting of the factors, with the layout
 * they were built from. Carried: an edit that keeps the layout (the same
 * object while no path and no packaging file changed, repository-layout.ts)
 * keeps the priors, so the tables keyed by them (file-level.ts) may be too.
 */
const PRIORS = derivedKey<{ layout: RepositoryLayout; priors: Map<string, PathPrior> }>('path priors', { carried: true });

/**
 * The prior of `factors` for the store's current index state (null when every
 * factor is 1): test files × `test`, stubs × `stub`, other files outside the
 * library × `library`. The same function object for every search of one index
 * state and setting (so callers can key their own tables by it), and across
 * index states while the repository layout is the same object; a new one when
 * the layout changes, since the library roots come from the indexed files.
 */
export function pathPrior(store: IndexStore, factors: PathPriorFactors): PathPrior | null {
  if (factors.test === 1 && factors.stub === 1 && factors.library === 1) return null;
  const { priors } = snapshotOf(store).derive(PRIORS, (earlier) => {
    const layout = repositoryLayout(store);
    return earlier?.layout === layout ? earlier : { layout, priors: new Map<string, PathPrior>() };
  });
  const key = `${factors.test} ${factors.stub} ${factors.library}`;
  let prior = priors.get(key);
  if (!prior) priors.set(key, (prior = buildPrior(store, factors)));
  return prior;
}

function buildPrior(store: IndexStore, factors: PathPriorFactors): PathPrior {
  return priorOfLibrary(factors.library === 1 ? [] : repositoryLayout(store).libraryRoots, factors);
}

/**
 * The prior of `factors` given the library's path prefixes (empty: unknown, no
 * library factor). The index builds it from its files; the provisional scan of
 * a tree not indexed yet from the packaging files on disk, so both rank alike.
 */
export function priorOfLibrary(libraryRoots: readonly string[], { test, stub, library }: PathPriorFactors): PathPrior {
  const layout = library === 1 || libraryRoots.length === 0 ? null : { libraryRoots };
  const known = new Map<string, number>();
  return (path) => {
    let factor = known.get(path);
    if (factor !== undefined) return factor;
    factor = 1;
    if (isTestPath(path)) factor *= test;
    // Tests have their own factor; this one is for the other code a repository keeps beside its library.
    else if (layout && isOutsideLibrary(layout, path)) factor *= library;
    if (STUB_PATH.test(path)) factor *= stub;
    // Bounded like isTestPath's memory (a path never asked twice costs a map entry).
    if (known.size >= MAX_REMEMBERED_PATHS) known.clear();
    known.set(path, factor);
    return factor;
  };
}
