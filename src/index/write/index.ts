/**
 * The write path: bringing an index up to date with its source (which files
 * are stale, the read-only no-change check) and parsing changed files in a
 * pool of worker threads.
 */
export { type IndexOptions, type IndexProgress, type IndexReport, storedSummary, updateIndex } from './indexer.js';
export { readOnlyUnchanged } from './no-change-check.js';
export { staleFiles } from './stale-files.js';
