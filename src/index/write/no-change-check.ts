/**
 * The freshness check's read-only path: before every answer a CLI process (and
 * every MCP tool call) asks whether the index still matches the tree, and
 * almost always nothing changed. Answering that under the writer lock cost a
 * lock file transaction, the holder file written and removed, meta rows
 * rewritten with the values they had and, at close, a WAL checkpoint: writes
 * and fsyncs on every `reponav search`. Here the same question is answered
 * from reads alone; anything this path cannot vouch for (a writer running or
 * one that died, another version's index, other settings, failed parses to
 * retry, a file that differs, git or the watcher unable to tell) returns null
 * and the caller runs the locked refresh, which sees exactly what it saw
 * before (peekChanges consumes nothing).
 *
 * Why no token needs storing when nothing changed: the stored token says the
 * rows matched the tree at its run, with git's view then. The rows are the
 * same now and match the tree at every candidate path, so a later check
 * against that token still finds every change made after it.
 */
import { indexConnection, type FileRow, type IndexStore, type SkippedFile } from '../store/index.js';
import { listingJson, storedSummary, unchangedReport, type IndexReport } from './indexer.js';
import { recordSkip, sameIdentity, type ListingDelta, type RepositorySource, type SourceFile, type SourceListing } from '../sources/index.js';
import type { WriterLock } from '../store/index.js';

/** What the locked refresh would write into meta before its run (verify's values). */
export interface ExpectedMeta {
  writtenBy: string;
  settings: string;
  /**
   * The failed parses (the stored summary's `failedPaths`, as JSON) that this
   * process's last locked run tried again and saw fail the same way, or null.
   * Those are not tried again on every call: a parse that fails is tried once
   * per process (and whenever its file changes, which the change check sees).
   */
  retriedFailures: string | null;
}

/**
 * The report of a refresh that finds nothing changed, reached without taking
 * the writer lock or writing anything; null when only the locked refresh can
 * tell (see the module comment).
 */
export async function readOnlyUnchanged(
  store: IndexStore,
  source: RepositorySource,
  lock: WriterLock,
  expected: () => ExpectedMeta,
): Promise<IndexReport | null> {
  if (!source.peekChanges || store.path === ':memory:') return null;
  const started = Date.now();
  // A holder file: a writer is running (wait for it) or died mid-run (the locked path checks integrity).
  if (lock.holder() !== null) return null;
  const db = indexConnection(store);
  const read = db.transaction(() => ({
    complete: store.getMeta('complete'),
    token: store.getMeta('freshness'),
    edges: store.getMeta('edges'),
    writtenBy: store.getMeta('written_by'),
    settings: store.getMeta('settings'),
  }));
  const before = read();
  const want = expected();
  if (before.complete !== '1' || !before.token || before.edges !== 'current') return null;
  if (before.writtenBy !== want.writtenBy || before.settings !== want.settings) return null;
  const summary = storedSummary(store);
  if (!summary) return null;
  // Failed parses are tried again by the locked run, once per process: after that, only a change to them counts.
  if (summary.failedPaths.length > 0 && JSON.stringify(summary.failedPaths) !== want.retriedFailures) return null;
  const peeked = await source.peekChanges(before.token, []);
  // Only a full listing can tell (no git): worth it on a small tree, where listing costs less than
  // the writes it saves; on a large one a change would pay the listing twice (here and in the run).
  if (!peeked || (peeked === 'full-listing' && summary.counts.files > FULL_LISTING_MAX_FILES)) return null;
  const full = peeked === 'full-listing' ? await source.list() : null;
  const stored = store.getMeta('listing') ?? '{"skipped":{},"skippedExamples":{}}';
  // The rows the candidates touch and the meta read again, in one snapshot: a writer that ran
  // meanwhile changed the token (every run issues a new one) or left the index incomplete.
  const verdict = db.transaction(() => {
    const after = read();
    if (after.complete !== '1' || after.token !== before.token) return false;
    if (full) return matchesListing(store, full, stored);
    const delta = peeked as ListingDelta;
    if (delta.candidates.length === 0) return true;
    const below = (path: string) => delta.candidates.some((c) => path === c || path.startsWith(c + '/'));
    return matchesRows(store.filesAt(delta.candidates), store.skippedFiles(), below, delta.files, null);
  })();
  if (!verdict || lock.holder() !== null) return null;
  const listing = JSON.parse(stored) as Pick<SourceListing, 'skipped' | 'skippedExamples'>;
  return unchangedReport(store, source, listing, started, summary);
}

/** Indexes with more files than this are not listed in full by the read-only path. */
const FULL_LISTING_MAX_FILES = 2000;

/** True when a full run over `listing` would change nothing, its stored skip counts included. */
function matchesListing(store: IndexStore, listing: SourceListing, stored: string): boolean {
  if (!matchesRows(store.files(), store.skippedFiles(), () => true, listing.files, listing)) return false;
  // The run stores the listing's skip counts with the binary files it kept skipped (counted as it does).
  return listingJson(listing) === stored;
}

/**
 * True when a run over these files would change nothing: every listed file
 * has its row (not a failed parse) with the same identity, or is an unchanged
 * binary skip (recorded into `listing` as the run records it); every row and
 * skip within the run's reach (`within`) is matched by a listed file.
 */
function matchesRows(
  rows: FileRow[],
  skips: Map<string, SkippedFile>,
  within: (path: string) => boolean,
  files: readonly SourceFile[],
  listing: SourceListing | null,
): boolean {
  const byPath = new Map(rows.map((row) => [row.path, row]));
  let skipsMatched = 0;
  for (const file of files) {
    const row = byPath.get(file.path);
    if (row) {
      if (row.status === 'failed' || !sameIdentity(file, row)) return false;
      byPath.delete(file.path);
      continue;
    }
    const skip = skips.get(file.path);
    if (skip?.reason !== 'binary' || !sameIdentity(file, skip)) return false;
    if (listing) recordSkip(listing, 'binary', file.path);
    skipsMatched++;
  }
  if (byPath.size > 0) return false;
  let skipsWithin = 0;
  for (const path of skips.keys()) if (within(path)) skipsWithin++;
  return skipsWithin === skipsMatched;
}
