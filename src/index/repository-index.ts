import { realpathSync } from 'node:fs';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { normalizeSettings, readSettings, writtenBy, type IndexSettings } from './index-settings.js';
import { readIndexStatus, type IndexStatus } from './index-status.js';
import { IdleWarmUp } from './idle-warm-up.js';
import { leftOutMentions, type LeftOutMention } from './left-out-lookup.js';
import { checkReadOnly, openUnwritable, readablePath, removeReadableCopy, type UnwritableIndex } from './read-only-folder.js';
import { defaultIndexPath } from './store/index.js';
import { GitCommitSource } from './sources/index.js';
import { displayPath } from './sources/index.js';
import { describeOpenFailure, isCorruption } from './store/index.js';
import { IndexStore, type FileRow } from './store/index.js';
import { updateIndex, type IndexOptions, type IndexReport } from './write/index.js';
import { readOnlyUnchanged, storedSummary } from './write/index.js';
import { IndexingSignal } from './indexing-signal.js';
import { resolveIndexedFile } from './resolve-file.js';
import { DEFAULT_MAX_FILE_BYTES, type RepositorySource } from './sources/index.js';
import { StoredSource } from './queries/index.js';
import { WorktreeSource } from './sources/index.js';
import { WriterLock, type WriterLease } from './store/index.js';
import type { IdleWarmer, WarmScoringOptions, WarmScoringReport } from './lexical/index.js';

export type { IndexSettings } from './index-settings.js';
export type { IndexStatus } from './index-status.js';

/** How to open a repository's index. */
export interface OpenRepositoryOptions {
  /** Index one commit (any revision git understands) instead of the working tree. */
  commit?: string;
  /** Where the SQLite index lives; default: the user cache (see cache-location.ts). */
  indexPath?: string;
  /**
   * What shapes the index. Given, it replaces what the index was built with
   * (the next refresh re-indexes what it affects); omitted, the stored value
   * is used, else the default.
   */
  maxFileBytes?: number;
  excludeDirectories?: string[];
  /**
   * `--include` / `--exclude` globs (gitignore syntax, relative to the root;
   * see ignore-layers.ts). Each list given replaces the stored one (an empty
   * string alone gives an empty list); omitted, the stored list is used.
   */
  include?: string[];
  exclude?: string[];
  /** A folder inside a git work tree stands for that work tree (see WorktreeSourceOptions.findWorkTreeRoot). */
  findWorkTreeRoot?: boolean;
  /** Never create, rebuild or write the index (`status`); refresh() is refused. */
  readonly?: boolean;
  logger?: Logger;
  /**
   * Working tree only: watch the tree (for long-lived processes such as the MCP
   * server and the web view), so a refresh with nothing changed lists nothing.
   */
  watch?: boolean;
  /**
   * Warm the scoring caches in idle time after each refresh (see
   * {@link RepositoryIndex.warmScoring}); default: on when `watch` is.
   */
  warmScoring?: boolean;
  /** Run at the end of each warm-up (scoring-warmup.ts's IdleWarmer): the search layers' own per-state work. */
  idleWarmers?: readonly IdleWarmer[];
}

/** Options of one refresh. */
export interface RefreshOptions extends IndexOptions {
  /** Run SQLite's full integrity check first (and rebuild the index if it fails). */
  check?: boolean;
  /**
   * Called once if the refresh starts indexing (indexing-signal.ts): it found a
   * change to index (IndexOptions.onIndexing), or waits for another process's
   * writer. Never when it only confirms that nothing changed (failed parses
   * tried again included); at once for a caller joining a run that already
   * indexes.
   */
  onIndexing?: () => void;
}

/** Opens the store, waiting for the writer lock when a rebuild needs it and another process holds it. */
async function openStore(path: string, logger: Logger, access: { owned: boolean; readonly: boolean }): Promise<IndexStore> {
  try {
    return IndexStore.open(path, logger, access);
  } catch (error) {
    if (!(error instanceof ReponavError && error.code === 'INDEX_BUSY')) throw error;
    logger.warn(`another process is writing ${path}; waiting for it before rebuilding the index`);
    const lease = await new WriterLock(path).acquire();
    try {
      return IndexStore.open(path, logger, { ...access, lease });
    } finally {
      lease.release();
    }
  }
}

/**
 * A repository and its index: the handle every later stage uses. Opening never
 * indexes; call `refresh()` (cheap when nothing changed) before answering.
 */
export class RepositoryIndex {
  private refreshing: Promise<IndexReport> | null = null;
  /** Whether the refresh under way indexes (null when none runs). */
  private indexing: IndexingSignal | null = null;
  /** The idle-time warm-up of the scoring caches (run after each refresh by long-lived processes only). */
  private warmUp: IdleWarmUp;
  private warmAfterRefresh = false;
  private readonly lock: WriterLock;
  /** Why the index's folder cannot be written, the index's own path, and the private copy it is read from; null when writable. */
  private unwritable: UnwritableIndex | null = null;
  /** What SQLite said when a read met damage (markDamaged): the next refresh rebuilds instead of trusting the file. */
  private damage: string | null = null;
  /** The failed parses this process's last whole locked run saw fail again the same way (see ExpectedMeta.retriedFailures). */
  private retriedFailures: string | null = null;

  private constructor(
    readonly source: RepositorySource,
    private currentStore: IndexStore,
    private readonly logger: Logger,
    private readonly sourceOptions: IndexSettings,
    private readonly access: { owned: boolean; readonly: boolean },
  ) {
    this.lock = new WriterLock(currentStore.path);
    this.warmUp = new IdleWarmUp(logger, []);
  }

  /** The index (replaced when a damaged index is rebuilt: fetch it per use, do not keep it). */
  get store(): IndexStore {
    return this.currentStore;
  }

  /**
   * Opens the repository at `path` (working tree, or one commit with
   * `options.commit`). When the index must be rebuilt and another process is
   * writing it, waits for that writer first (logging why).
   */
  static async open(path: string, options: OpenRepositoryOptions = {}): Promise<RepositoryIndex> {
    const logger = options.logger ?? silentLogger;
    const given = { maxFileBytes: options.maxFileBytes, excludeDirectories: options.excludeDirectories, include: options.include, exclude: options.exclude };
    let source: RepositorySource = options.commit ? await GitCommitSource.open(path, options.commit, given) : await WorktreeSource.open(path, { ...given, findWorkTreeRoot: options.findWorkTreeRoot });
    const indexPath = options.indexPath ?? defaultIndexPath(realpathSync(source.root), source.mode);
    // Only reponav's own cache may be overwritten whatever is there; a path the user gave may hold their data.
    const access = { owned: options.indexPath === undefined, readonly: !!options.readonly };
    // A read-only folder: an index already there is used read-only (while it matches the tree); none there is one sentence.
    const unwritable = openUnwritable(indexPath, access);
    const store = await openStore(readablePath(unwritable, indexPath), logger, access);
    const stored = readSettings(store);
    const settings: IndexSettings = normalizeSettings({
      maxFileBytes: options.maxFileBytes ?? stored?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      excludeDirectories: options.excludeDirectories ?? stored?.excludeDirectories ?? [],
      include: options.include ?? stored?.include,
      exclude: options.exclude ?? stored?.exclude,
    });
    const opened: IndexSettings = normalizeSettings({ maxFileBytes: given.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, excludeDirectories: given.excludeDirectories ?? [], include: given.include, exclude: given.exclude });
    if (JSON.stringify(settings) !== JSON.stringify(opened)) {
      // The index was built with other settings than the defaults this source was opened with.
      source = source.mode === 'commit' ? await GitCommitSource.open(source.root, source.commit!, settings) : await WorktreeSource.open(source.root, settings);
    }
    if (options.watch && source instanceof WorktreeSource) source.watch();
    const repository = new RepositoryIndex(source, store, logger, settings, access);
    repository.unwritable = unwritable;
    repository.warmAfterRefresh = options.warmScoring ?? !!options.watch;
    repository.warmUp = new IdleWarmUp(logger, options.idleWarmers ?? []);
    return repository;
  }

  /**
   * Opens a built index file on its own, without the repository it was built
   * from (an index shard the team server downloaded): `root` names the
   * repository in messages, `commit` the commit it holds. Read-only: tools
   * answer from what is stored, and refresh() is refused.
   */
  static async openStored(indexPath: string, options: { root: string; commit: string; logger?: Logger }): Promise<RepositoryIndex> {
    const logger = options.logger ?? silentLogger;
    const access = { owned: false, readonly: true };
    const store = await openStore(indexPath, logger, access);
    const holder: { index?: RepositoryIndex } = {};
    const source = new StoredSource(() => holder.index!.store, options.root, options.commit);
    const settings = readSettings(store) ?? { maxFileBytes: DEFAULT_MAX_FILE_BYTES, excludeDirectories: [] };
    holder.index = new RepositoryIndex(source, store, logger, settings, access);
    return holder.index;
  }

  /** Opens another commit of the same repository on the same index store (re-parses only differing files). */
  async switchCommit(revision: string): Promise<void> {
    if (this.source.mode !== 'commit') throw new ReponavError('BAD_INPUT', 'switchCommit needs an index opened in commit mode.');
    (this as { source: RepositorySource }).source = await GitCommitSource.open(this.source.root, revision, this.sourceOptions);
  }

  get root(): string {
    return this.source.root;
  }

  /** The settings this index is (or will be) built with. */
  get settings(): IndexSettings {
    return this.sourceOptions;
  }

  /**
   * Brings the index in line with the source; concurrent callers in this
   * process share one run. Across processes one writer runs at a time: while
   * another holds the index's writer lock this waits, reporting that writer's
   * progress through `onProgress` (and once through the logger), then runs
   * itself, which finds that writer's work done.
   */
  refresh(options: RefreshOptions = {}): Promise<IndexReport> {
    if (this.unwritable !== null) return checkReadOnly({ store: this.store, source: this.source, lock: this.lock, settings: this.sourceOptions, root: this.root }, this.unwritable);
    if (this.access.readonly) throw new ReponavError('BAD_INPUT', 'This index was opened read-only; it cannot be refreshed.');
    if (!this.refreshing) {
      const indexing = (this.indexing = new IndexingSignal());
      this.refreshing = this.refreshOnce(options, indexing)
        .then((report) => {
          if (this.warmAfterRefresh) void this.warmScoring();
          return report;
        })
        .finally(() => {
          this.refreshing = null;
          this.indexing = null;
        });
    }
    if (options.onIndexing) this.indexing?.listen(options.onIndexing);
    return this.refreshing;
  }

  /**
   * A focused run (IndexOptions.only): indexes just `paths` of the working
   * tree, under the writer lock, leaving the index incomplete for the next
   * refresh to finish (it indexes the rest and leaves these as unchanged).
   * Refused while a refresh of this index runs in this process.
   */
  indexFocused(paths: readonly string[], options: Omit<RefreshOptions, 'only' | 'check'> = {}): Promise<IndexReport> {
    if (this.unwritable !== null || this.access.readonly || this.refreshing) {
      return Promise.reject(new ReponavError('INDEX_BUSY', 'A focused index needs a writable index that is not being refreshed.'));
    }
    const indexing = new IndexingSignal();
    if (options.onIndexing) indexing.listen(options.onIndexing);
    return this.refreshLocked({ ...options, only: paths }, indexing);
  }

  /**
   * Records that a read of this index met damage SQLite proved (`error`: a
   * SQLITE_CORRUPT / SQLITE_NOTADB error, "database disk image is malformed"),
   * so the next refresh() rebuilds the index (with a warning) instead of
   * trusting it; a quick freshness check would not read the damaged pages.
   * Returns the INDEX_CORRUPT error to report instead when this index cannot be
   * rebuilt here (opened read-only), else null.
   */
  markDamaged(error: unknown): ReponavError | null {
    if (this.access.readonly) {
      const message = error instanceof Error ? error.message : String(error);
      return new ReponavError(
        'INDEX_CORRUPT',
        `The index at ${displayPath(this.store.path)} is damaged (SQLite: ${message}); run \`reponav index --check\` to rebuild it (this command changed nothing).`,
      );
    }
    this.damage = error instanceof Error ? error.message : String(error);
    return null;
  }

  /**
   * A cheap probe for damage, for status lines that must not say "up to date"
   * over a damaged index: reads the schema and, per table and index, the
   * b-tree pages on the way to its first and last entries and to a few entries
   * between (a full check reads every page; see docs/architecture.md). Returns
   * SQLite's message for damage found, else null; other failures are thrown.
   */
  probeDamage(): string | null {
    return this.store.probeDamage();
  }

  /** Nothing changed: answered from reads alone (no-change-check.ts); else the locked run. */
  private async refreshOnce(options: RefreshOptions, indexing: IndexingSignal): Promise<IndexReport> {
    if (!options.check && this.damage === null) {
      const expected = () => ({ writtenBy: writtenBy(this.store), settings: JSON.stringify(this.sourceOptions), retriedFailures: this.retriedFailures });
      const unchanged = await readOnlyUnchanged(this.store, this.source, this.lock, expected).catch((error: unknown) => {
        // Whatever it is (a damaged page, say), the locked run meets it again and handles it.
        this.logger.debug(`read-only freshness check: ${(error as Error).message}`);
        return null;
      });
      if (unchanged) return unchanged;
    }
    return this.refreshLocked(options, indexing);
  }

  private async refreshLocked(options: RefreshOptions, indexing: IndexingSignal): Promise<IndexReport> {
    // The path a call pays for (lock, verify, a change check): a long-lived process should take it only when something changed.
    this.logger.debug(`refresh of ${this.root} under the writer lock`);
    let told = false;
    const lease = await this.lock.acquire({
      signal: options.signal,
      onWait: (holder) => {
        indexing.start();
        if (!told) {
          told = true;
          const who = holder ? `process ${holder.pid}` : 'another process';
          this.logger.warn(`${who} is indexing ${this.root} into the same index; waiting for it to finish`);
        }
        if (holder && holder.total > 0) options.onProgress?.({ done: holder.done, total: holder.total, elapsedMs: Date.now() - holder.startedAt });
      },
    });
    try {
      await this.verify(lease, options);
      const failedAgain = new Set<string>();
      const run = () =>
        updateIndex(this.store, this.source, {
          logger: this.logger,
          ...options,
          onIndexing: () => indexing.start(),
          onFailedAgain: (path) => failedAgain.add(path),
          onProgress: (p) => {
            lease.progress(p.done, p.total);
            options.onProgress?.(p);
          },
        });
      let report: IndexReport;
      try {
        report = await run();
      } catch (error) {
        if (!isCorruption(error)) throw error;
        this.rebuild(lease, `is damaged (SQLite: ${(error as Error).message})`);
        report = await run();
      }
      // A whole run tries every failed parse again. When each still failing one failed the same way again (not
      // only for the first time: a worker that crashed under load gets its second try), later calls leave them be.
      if (!options.only) {
        const failedPaths = storedSummary(this.store)?.failedPaths ?? [];
        this.retriedFailures = failedPaths.every((path) => failedAgain.has(path)) ? JSON.stringify(failedPaths) : null;
      }
      return report;
    } catch (error) {
      // A full disk, a lock or a permission met while writing: one sentence with what to do.
      throw describeOpenFailure(this.store.path, error);
    } finally {
      lease.release();
    }
  }

  /**
   * The integrity check, when it can matter: the last writer did not finish,
   * another SQLite / Node.js / schema wrote the index last, or the caller asks.
   * A failed check rebuilds the index (with a warning). Also records the settings.
   */
  private async verify(lease: WriterLease, options: RefreshOptions): Promise<void> {
    const reasons: string[] = [];
    if (this.damage !== null) {
      const damage = this.damage;
      this.damage = null;
      this.rebuild(lease, `is damaged (SQLite: ${damage})`);
    }
    if (lease.unfinished) reasons.push(`the last indexing run (process ${lease.unfinished.pid}) did not finish`);
    const by = writtenBy(this.store);
    const before = this.store.getMeta('written_by');
    if (before !== null && before !== by) reasons.push(`it was last written by ${before}`);
    if (options.check || reasons.length > 0) {
      const problem = this.store.integrityProblem(options.check ? 'full' : 'quick');
      this.logger.debug(`integrity check of ${this.store.path} (${options.check ? 'asked for' : reasons.join('; ')}): ${problem ?? 'ok'}`);
      if (problem) this.rebuild(lease, `failed its integrity check (${problem})`);
    }
    // Only what differs: a write is a new index state (index-generation.ts), whose caches and warm-up start over.
    if (before !== by) this.store.setMeta('written_by', by);
    const settings = JSON.stringify(this.sourceOptions);
    if (this.store.getMeta('settings') !== settings) this.store.setMeta('settings', settings);
  }

  private rebuild(lease: WriterLease, reason: string): void {
    const path = this.store.path;
    this.store.close();
    this.currentStore = IndexStore.open(path, this.logger, { owned: this.access.owned, lease, rebuild: reason });
  }

  /** Resolves a user path to an indexed file, or throws FILE_NOT_FOUND with why or the closest indexed paths (resolve-file.ts). */
  resolveFile(userPath: string): FileRow {
    return resolveIndexedFile(this.store, this.source, this.sourceOptions.maxFileBytes, userPath);
  }

  /**
   * For a lookup that found nothing: left-out files (by a rule) that name
   * `name`, each with the rule and what brings it back (left-out-lookup.ts).
   */
  leftOutMentions(name: string, limit = 3): LeftOutMention[] {
    return leftOutMentions(this.source, this.sourceOptions.maxFileBytes, name, limit);
  }

  /** The indexed text of a file (resolved and checked as in resolveFile). */
  readText(userPath: string): { path: string; text: string } {
    const file = this.resolveFile(userPath);
    return { path: file.path, text: this.store.blobText(file.blobId) ?? '' };
  }

  /**
   * What is indexed, and what is stale: by listing and stat, reading only the
   * files whose size or mtime differ from their rows (stale-files.ts).
   */
  async status(): Promise<IndexStatus> {
    try {
      return await this.readStatus();
    } catch (error) {
      throw describeOpenFailure(this.store.path, error);
    }
  }

  private readStatus(): Promise<IndexStatus> {
    // The index's own path, not the private copy a read-only folder's index is read from.
    return readIndexStatus({ store: this.store, source: this.source, lock: this.lock, settings: this.sourceOptions }, this.unwritable?.indexPath ?? this.store.path);
  }

  /**
   * Fills the scoring caches of the current index state in idle time
   * (scoring-warmup.ts), so texts this process has not seen are searched as
   * fast as repeats; answers do not change. Runs at most once at a time and
   * not again while the state's caches are still warm; resolves with what it
   * did (a failure is logged at debug level and resolves as aborted: it only
   * costs speed). Long-lived processes call it after each refresh
   * (`warmScoring` option, on with `watch`).
   */
  warmScoring(options: Omit<WarmScoringOptions, 'signal'> = {}): Promise<WarmScoringReport> {
    return this.warmUp.run(this.store, options);
  }

  /** Closes the index (and stops the watcher and the warm-up, if any). */
  close(): void {
    this.warmUp.stop();
    this.source.close?.();
    this.store.close();
    removeReadableCopy(this.unwritable);
  }
}
