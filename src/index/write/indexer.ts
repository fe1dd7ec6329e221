import type { Logger } from '../../logger.js';
import { silentLogger } from '../../logger.js';
import { ReponavError } from '../../errors.js';
import { displayPath } from '../sources/index.js';
import { languageForPath, missingLanguageAssets, prepareWasmTiering } from '../../parse/index.js';
import { resolveImport } from '../../parse/index.js';
import type { ParsedFile } from '../../parse/index.js';
import { buildChunks } from '../store/index.js';
import type { IndexStore, SkippedFile } from '../store/index.js';
import type { ParsePool, ParsePoolOptions } from './parse-pool.js';
import type { FileAnalysis } from './analyze-file.js';
import { gitBlobId } from '../store/index.js';
import { decodeFileText } from '../sources/index.js';
import { looksBinary, recordSkip, sameIdentity, type RepositorySource, type SkipReason, type SourceFile, type SourceListing } from '../sources/index.js';
import { countOf } from '../../plural.js';

/** Progress of one indexing run, reported as files are written. */
export interface IndexProgress {
  done: number;
  total: number;
  elapsedMs: number;
}

/** Options of one indexing run. */
export interface IndexOptions {
  logger?: Logger;
  onProgress?: (progress: IndexProgress) => void;
  /** Worker threads for parsing; default: one per core (max 4) when more than `inProcessBelow` files change. */
  workers?: number;
  /** Parse in-process when fewer files than this need parsing (workers cost a grammar load each). */
  inProcessBelow?: number;
  /** Files written per transaction: the most a crash can lose. */
  batchSize?: number;
  signal?: AbortSignal;
  /** Parse pool settings (tests use a worker script that crashes on cue). */
  pool?: ParsePoolOptions;
  /**
   * A focused run: only these listed paths are brought in line (others are
   * neither read nor deleted) and the index stays marked incomplete (no
   * `indexed` mark, no freshness token), so the next full run lists the tree
   * and indexes the rest, leaving these files alone as unchanged.
   */
  only?: readonly string[];
  /** With `only`: the tree's listing, just made by the caller, used instead of listing it again. */
  listing?: SourceListing;
  /** Told of each file whose parse failed before and, tried again by this run, failed the same way. */
  onFailedAgain?: (path: string) => void;
  /**
   * Called once, before any file is read, when the run has a change to index:
   * a file added, changed or deleted (a failed parse tried again is one only
   * when its file changed). A run that finds nothing to index never calls it.
   */
  onIndexing?: () => void;
}

/** What one indexing run did. */
export interface IndexReport {
  mode: 'worktree' | 'commit';
  root: string;
  commit: string | null;
  listed: number;
  unchanged: number;
  parsed: number;
  /** Changed files whose content was already parsed (same blob seen at another commit). */
  reused: number;
  deleted: number;
  partial: number;
  /** Files that could not be parsed (indexed as text only; parsed again by the next run). */
  failed: number;
  /** Up to ten of them, with the reason. */
  failures: { path: string; reason: string }[];
  skipped: Partial<Record<string, number>>;
  skippedExamples: Partial<Record<string, string[]>>;
  durationMs: number;
}

export { gitBlobId } from '../store/index.js';

/**
 * Brings `store` in line with `source`: unchanged files (size+mtime, then blob
 * id) are left alone, changed ones re-parsed, deleted ones removed. Work is
 * committed in batches, so an interrupted run loses at most one batch and the
 * next run continues where it stopped.
 */
export async function updateIndex(store: IndexStore, source: RepositorySource, options: IndexOptions = {}): Promise<IndexReport> {
  const logger = options.logger ?? silentLogger;
  const started = Date.now();
  const focus = options.only ? new Set(options.only) : null;
  // A cheap answer from the source (git status, a watcher) when the last run completed; else a full listing.
  const complete = store.getMeta('complete') === '1';
  const previousToken = complete ? store.getMeta('freshness') : null;
  const summary = complete ? storedSummary(store) : null;
  // Failed parses are retried by every run: their paths join whatever the cheap check names.
  const failedPaths = previousToken && source.changesSince ? (summary?.failedPaths ?? store.failedFiles().map((f) => f.path)) : [];
  // A focused run lists the tree itself: the cheap check's token belongs to a complete run only.
  const check = source.changesSince && !focus ? await source.changesSince(previousToken, failedPaths) : null;
  const delta = check?.delta ?? null;
  const storedListing = () =>
    JSON.parse(store.getMeta('listing') ?? '{"skipped":{},"skippedExamples":{}}') as Pick<SourceListing, 'skipped' | 'skippedExamples'>;
  if (delta && delta.candidates.length === 0) return unchangedReport(store, source, storedListing(), started, summary);
  const skippedBefore = store.skippedFiles();
  // A delta's candidates are read again, and what reading skips is counted again: their earlier skips leave the counts first.
  const whole: SourceListing = delta
    ? { files: delta.files, ...withoutSkipsAt(storedListing(), skippedBefore, delta.candidates) }
    : ((focus ? options.listing : undefined) ?? (await source.list()));
  const listing: SourceListing = focus
    ? { files: whole.files.filter((f) => focus.has(f.path)), skipped: { ...whole.skipped }, skippedExamples: { ...whole.skippedExamples } }
    : whole;
  if (!delta && whole.files.length === 0 && store.files().length === 0) {
    const where = source.commit ? `commit ${source.commit.slice(0, 12)} of ${displayPath(source.root)}` : displayPath(source.root);
    throw new ReponavError('EMPTY_REPOSITORY', `No source files to index in ${where}${describeSkips(listing)}.`);
  }
  store.setMeta('target', JSON.stringify({ mode: source.mode, root: source.root, commit: source.commit }));
  // The index is marked incomplete before its first row is written, and only then: a run that finds
  // everything as the index records it (a blob the mirror still lacks, a parse failing the same way
  // again) writes nothing, so its state and every value derived from it are kept.
  let writing = false;
  const beginWriting = () => {
    if (writing) return;
    writing = true;
    store.setMeta('complete', '0');
  };

  // Only the rows a delta's candidates can touch are read; a full listing compares every row.
  const existing = new Map((delta ? store.filesAt(delta.candidates) : store.files()).map((f) => [f.path, f]));
  const changedPaths = new Set<string>();
  const removedPaths = new Set<string>();
  const listed = new Set(listing.files.map((f) => f.path));
  const deleted = focus ? [] : [...existing.keys()].filter((p) => !listed.has(p));
  let told = false;
  const indexing = () => {
    if (told) return;
    told = true;
    options.onIndexing?.();
  };
  if (deleted.length > 0) {
    indexing();
    beginWriting();
    store.transaction(() => deleted.forEach((p) => store.deleteFile(p)));
  }

  const changed: SourceFile[] = [];
  let unchanged = 0;
  // Skips found on reading, with the identity the file had; written at the end for status and the next run.
  const readSkips: SkippedFile[] = [];
  for (const file of listing.files) {
    const previous = existing.get(file.path);
    // A failed parse is never "unchanged": the next run tries again.
    if (previous && previous.status !== 'failed' && sameIdentity(file, previous)) {
      unchanged++;
      continue;
    }
    const skipped = skippedBefore.get(file.path);
    if (!previous && skipped?.reason === 'binary' && sameIdentity(file, skipped)) {
      // Unchanged binary content stays skipped without being read again. Missing or
      // unreadable files are retried: a partial mirror may have fetched the blob since.
      recordSkip(listing, 'binary', file.path);
      readSkips.push(skipped);
      continue;
    }
    changed.push(file);
    // A failed parse tried again is no change unless its file changed.
    if (previous?.status !== 'failed' || !sameIdentity(file, previous)) indexing();
  }

  // Contents already parsed at another commit need no read and no parse.
  const toRead: SourceFile[] = [];
  let reused = 0;
  const reuseBatch: { file: SourceFile; parsed: ParsedFile; text: string }[] = [];
  for (const file of changed) {
    const parsed = file.blobId ? store.parsedBlob(file.blobId) : null;
    const text = parsed && parsed.path === file.path && parsed.status !== 'failed' ? store.blobText(file.blobId!) : null;
    if (parsed && text !== null) reuseBatch.push({ file, parsed, text });
    else toRead.push(file);
  }
  const batchSize = options.batchSize ?? 64;
  const total = changed.length;
  let done = 0;
  const progress = () => options.onProgress?.({ done, total, elapsedMs: Date.now() - started });
  for (let i = 0; i < reuseBatch.length; i += batchSize) {
    beginWriting();
    store.transaction(() => {
      for (const { file, parsed, text } of reuseBatch.slice(i, i + batchSize)) {
        store.putFile({ path: file.path, blobId: file.blobId!, size: file.size, mtimeMs: file.mtimeMs }, parsed, buildChunks(parsed, text));
        reused++;
        done++;
      }
    });
    progress();
  }

  const inProcessBelow = options.inProcessBelow ?? 200;
  // The parser (tree-sitter and its grammars) is loaded only when something needs parsing: a
  // freshness check that finds nothing changed must not pay its start-up.
  let pool: ParsePool = NO_PARSING;
  const languageCounts = new Map<string, number>();
  for (const file of toRead) {
    const language = languageForPath(file.path);
    if (language !== null) languageCounts.set(language, (languageCounts.get(language) ?? 0) + 1);
  }
  const languages = [...languageCounts.keys()];
  // A missing grammar or query file would mark every file of its language as a failed
  // parse and leave a text-only index that looks healthy; it is an installation fault.
  const missing = missingLanguageAssets(languages);
  if (missing.length > 0) {
    throw new ReponavError(
      'INSTALLATION_INCOMPLETE',
      `reponav's installation is incomplete: ${missing.map((p) => displayPath(p)).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; reinstall reponav (the index is unchanged and resumes on the next run).`,
      { missing },
    );
  }
  if (toRead.length > 0) {
    // Before this job's grammars are compiled, here or in the workers started below.
    prepareWasmTiering(toRead.length);
    const { createParsePool, defaultWorkerCount } = await import('./parse-pool.js');
    pool = createParsePool(toRead.length < inProcessBelow ? 0 : (options.workers ?? defaultWorkerCount()), logger, options.pool);
  }
  // Workers compile the grammars they will need while this thread reads the first files.
  pool.warm(languageCounts);
  let parsedCount = 0;
  type Outcome =
    | { file: SourceFile; blobId: string; touch: number }
    | { file: SourceFile; blobId: string; failedAgain: true }
    | { file: SourceFile; blobId: string; bytes: Uint8Array; analysis: FileAnalysis };
  const analyze = async (file: SourceFile, bytes: Buffer): Promise<Outcome> => {
    const previous = existing.get(file.path);
    // Only a path indexed before can be unchanged in content: a new one (every file of a
    // cold index) is not hashed here, the worker computes its blob id with the parse.
    const blobId = file.blobId ?? (previous ? gitBlobId(bytes) : null);
    if (previous && previous.blobId === blobId && previous.status !== 'failed') return { file, blobId, touch: previous.id };
    const analysis = await pool.analyze(file.path, bytes);
    // A parse that failed before and fails again the same way (the stored parse byte for byte): the rows
    // written then stand. Rewriting them would start a new index state on every run that retries it.
    if (previous?.status === 'failed' && previous.blobId === analysis.blobId && sameIdentity(file, previous) && store.holdsParse(analysis.blobId, analysis.parse)) {
      return { file, blobId: analysis.blobId, failedAgain: true };
    }
    return { file, blobId: blobId ?? analysis.blobId, bytes, analysis };
  };
  // Files are handed to the workers as soon as they are read; batches are written
  // in order while the workers parse the next ones, so reading, parsing and
  // writing overlap. Each batch is one transaction: a crash loses at most one.
  const inFlight: Promise<Outcome>[] = [];
  const writeBatch = async () => {
    const outcomes = await Promise.all(inFlight.splice(0, batchSize));
    if (outcomes.some((outcome) => !('failedAgain' in outcome))) beginWriting();
    store.transaction(() => {
      for (const outcome of outcomes) {
        if ('failedAgain' in outcome) {
          parsedCount++;
          options.onFailedAgain?.(outcome.file.path);
        } else if ('touch' in outcome) {
          // Same content under a new timestamp: unchanged, and recorded so a stat check agrees next time.
          store.touchFile(outcome.touch, outcome.file.mtimeMs, outcome.file.size);
          unchanged++;
        } else {
          const { parse, rows } = outcome.analysis;
          // Bytes that are their text's exact UTF-8 are stored as they are (SQLite casts them to TEXT):
          // decoding them here and encoding the string again for SQLite cost the writing thread ~1 s per 100 MB.
          store.putBlob(outcome.blobId, outcome.analysis.bytesAreText ? outcome.bytes : decodeFileText(outcome.bytes), parse);
          store.putFileRows({ path: outcome.file.path, blobId: outcome.blobId, size: outcome.file.size, mtimeMs: outcome.file.mtimeMs }, rows);
          parsedCount++;
          changedPaths.add(outcome.file.path);
        }
        done++;
      }
    });
    progress();
  };
  try {
    for await (const { file, bytes } of source.readMany(toRead)) {
      if (options.signal?.aborted) break;
      if (bytes === null || looksBinary(bytes)) {
        const reason = bytes === null ? (source.mode === 'commit' ? 'missing-blob' : 'unreadable') : 'binary';
        recordSkip(listing, reason, file.path);
        readSkips.push({ path: file.path, reason, blobId: file.blobId ?? (bytes ? gitBlobId(bytes) : null), size: Number.isFinite(file.size) ? file.size : null, mtimeMs: file.mtimeMs });
        if (existing.has(file.path)) {
          beginWriting();
          store.transaction(() => store.deleteFile(file.path));
          removedPaths.add(file.path);
        }
        done++;
        continue;
      }
      inFlight.push(analyze(file, bytes));
      if (inFlight.length >= batchSize * 2) await writeBatch();
    }
    while (inFlight.length && !options.signal?.aborted) await writeBatch();
  } finally {
    await Promise.allSettled(inFlight);
    await pool.close();
  }
  if (options.signal?.aborted) {
    throw new ReponavError('INTERNAL', `Indexing was interrupted after ${done} of ${total} changed files; run it again to continue.`);
  }

  for (const file of reuseBatch) changedPaths.add(file.file.path);
  // Paths the index now holds and did not before: a listed file still unreadable (a blob the mirror lacks) is not one.
  const added = [...changedPaths].filter((path) => !existing.has(path)).length;
  if (store.getMeta('edges') !== 'current' || added > 0 || deleted.length > 0 || removedPaths.size > 0) {
    // The set of paths changed: any import anywhere may now resolve differently.
    beginWriting();
    store.transaction(() => {
      rebuildImportEdges(store);
      store.setMeta('edges', 'current');
      store.collectGarbage();
    });
  } else if (changedPaths.size > 0) {
    // Same paths, new contents: only the changed files' own imports can differ, and only
    // the blobs those files held before can have lost their last reference.
    const replaced = [...changedPaths].flatMap((path) => existing.get(path)?.blobId ?? []);
    store.transaction(() => {
      updateImportEdges(store, changedPaths);
      store.collectGarbage(replaced);
    });
  }
  // A focused run leaves the marks of a complete run (skips, listing, freshness, `indexed`) as they were.
  if (focus) return { ...unchangedReport(store, source, listing, started, null), listed: listing.files.length, unchanged, parsed: parsedCount, reused };
  // A delta leaves the skips of paths it did not look at as they were.
  const keptSkips = delta ? [...skippedBefore.values()].filter((s) => !coveredBy(s.path, delta.candidates)) : [];
  const token = check?.token(writing) ?? null;
  const failedAll = store.failedFiles();
  const counts = store.fileCounts();
  const skips = [...keptSkips, ...readSkips];
  const indexedBefore = JSON.parse(store.getMeta('indexed') ?? 'null') as { mode: string; root: string; commit: string | null } | null;
  const sameTarget = indexedBefore !== null && indexedBefore.mode === source.mode && indexedBefore.root === source.root && indexedBefore.commit === source.commit;
  // Every mark is written only where it differs (setMeta keeps an equal value without a write), and the
  // time of the last indexing only when this run wrote something: an unchanged run leaves no trace.
  store.transaction(() => {
    if (!sameSkips(skippedBefore, skips)) store.replaceSkipped(skips);
    if (writing || !sameTarget) store.setMeta('indexed', JSON.stringify({ mode: source.mode, root: source.root, commit: source.commit, at: Date.now() }));
    // A delta's listing is the stored one with its candidates' read skips counted afresh (withoutSkipsAt).
    store.setMeta('listing', listingJson(listing));
    store.setMeta('freshness', token ?? '');
    store.setMeta('summary', JSON.stringify({ counts, failures: failedAll.slice(0, 10), failedPaths: failedAll.map((f) => f.path) } satisfies RunSummary));
    store.setMeta('complete', '1');
  });
  // The files the index holds: a listed file skipped on reading (binary by content, unreadable) is not one
  // (listing.skipped counts it), so the line says what `status` will say.
  const report: IndexReport = {
    mode: source.mode,
    root: source.root,
    commit: source.commit,
    listed: counts.files,
    unchanged: delta ? counts.files - parsedCount - reused : unchanged,
    parsed: parsedCount,
    reused,
    deleted: deleted.length,
    partial: counts.partial,
    failed: counts.failed,
    failures: failedAll.slice(0, 10),
    skipped: listing.skipped,
    skippedExamples: listing.skippedExamples,
    durationMs: Date.now() - started,
  };
  logger.debug(`indexed ${countOf(report.listed, 'file')} (${report.parsed} parsed, ${report.reused} reused) in ${report.durationMs} ms`);
  return report;
}

/**
 * The stored form of a listing's skips, in one order whatever order they were
 * counted in (reasons and examples sorted), so an unchanged listing is an equal
 * value and storing it writes nothing.
 */
export function listingJson(listing: Pick<SourceListing, 'skipped' | 'skippedExamples'>): string {
  const byReason = <T>(record: Partial<Record<string, T>>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const examples = byReason(listing.skippedExamples) as Record<string, string[]>;
  for (const reason of Object.keys(examples)) examples[reason] = [...examples[reason]!].sort();
  return JSON.stringify({ skipped: byReason(listing.skipped), skippedExamples: examples });
}

/** `listing`'s skip counts and examples without the read skips (`skips`) of paths at or below `candidates`. */
function withoutSkipsAt(
  listing: Pick<SourceListing, 'skipped' | 'skippedExamples'>,
  skips: ReadonlyMap<string, SkippedFile>,
  candidates: readonly string[],
): Pick<SourceListing, 'skipped' | 'skippedExamples'> {
  const skipped = { ...listing.skipped };
  const skippedExamples = Object.fromEntries(Object.entries(listing.skippedExamples).map(([reason, paths]) => [reason, [...paths]])) as SourceListing['skippedExamples'];
  for (const skip of skips.values()) {
    if (!coveredBy(skip.path, candidates)) continue;
    const reason = skip.reason as SkipReason;
    const count = (skipped[reason] ?? 0) - 1;
    if (count > 0) skipped[reason] = count;
    else delete skipped[reason];
    const examples = skippedExamples[reason]?.filter((path) => path !== skip.path);
    if (examples && examples.length > 0) skippedExamples[reason] = examples;
    else delete skippedExamples[reason];
  }
  return { skipped, skippedExamples };
}

/** True when `after` holds exactly the skips of `before` (same paths, reasons and identities). */
function sameSkips(before: ReadonlyMap<string, SkippedFile>, after: readonly SkippedFile[]): boolean {
  if (before.size !== after.length) return false;
  return after.every((s) => {
    const b = before.get(s.path);
    return b !== undefined && b.reason === s.reason && b.blobId === s.blobId && b.size === s.size && b.mtimeMs === s.mtimeMs;
  });
}

/** The pool of a run with nothing to read. */
const NO_PARSING: ParsePool = {
  analyze: () => Promise.reject(new Error('nothing was to be parsed')),
  warm: () => {},
  close: async () => {},
  workerCount: 0,
};

/**
 * What the last complete run left, stored with its `complete` mark: a check that
 * finds nothing changed answers from it instead of scanning every file row
 * (counting statuses and finding failed parses took ~20 of a ~30 ms no-change
 * check on an 11k-file index).
 */
export interface RunSummary {
  counts: { files: number; partial: number; failed: number };
  failures: { path: string; reason: string }[];
  failedPaths: string[];
}

/** The stored summary, or null (an index written before it was kept). */
export function storedSummary(store: IndexStore): RunSummary | null {
  const value = store.getMeta('summary');
  return value ? (JSON.parse(value) as RunSummary) : null;
}

/** The report of a run that found nothing to do (nothing is written). */
export function unchangedReport(
  store: IndexStore,
  source: RepositorySource,
  listing: Pick<SourceListing, 'skipped' | 'skippedExamples'>,
  started: number,
  summary: RunSummary | null,
): IndexReport {
  const counts = summary?.counts ?? store.fileCounts();
  return {
    mode: source.mode,
    root: source.root,
    commit: source.commit,
    listed: counts.files,
    unchanged: counts.files,
    parsed: 0,
    reused: 0,
    deleted: 0,
    partial: counts.partial,
    failed: counts.failed,
    failures: summary?.failures ?? store.failedFiles(10),
    skipped: listing.skipped,
    skippedExamples: listing.skippedExamples,
    durationMs: Date.now() - started,
  };
}

/** True when `path` is one of `candidates` or below one of them. */
function coveredBy(path: string, candidates: readonly string[]): boolean {
  return candidates.some((c) => path === c || path.startsWith(c + '/'));
}

function updateImportEdges(store: IndexStore, paths: Set<string>): void {
  const files = new Set(store.filePaths());
  const edges: { from: string; to: string }[] = [];
  for (const path of paths) {
    const file = store.file(path);
    if (!file) continue;
    for (const imp of store.importsOfFile(path)) {
      for (const to of resolveImport(path, file.language, imp, files)) if (to !== path) edges.push({ from: path, to });
    }
  }
  store.replaceImportEdgesFrom([...paths], edges);
}

function rebuildImportEdges(store: IndexStore): void {
  const files = new Set(store.filePaths());
  const edges: { from: string; to: string }[] = [];
  for (const { path, language, imports } of store.allImports()) {
    for (const imp of imports) {
      for (const to of resolveImport(path, language, imp, files)) if (to !== path) edges.push({ from: path, to });
    }
  }
  store.replaceImportEdges(edges);
}

function describeSkips(listing: SourceListing): string {
  const parts = Object.entries(listing.skipped).map(([reason, n]) => `${n} ${reason}`);
  return parts.length ? ` (skipped: ${parts.join(', ')})` : '';
}
