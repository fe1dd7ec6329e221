import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { defaultIndexPath } from './store/index.js';
import { GitCommitSource } from './sources/index.js';
import { displayPath, quotedPath as quoted } from './sources/index.js';
import { describeOpenFailure, isCorruption } from './store/index.js';
import { indexConnection, IndexStore, type FileRow } from './store/index.js';
import { updateIndex, type IndexOptions, type IndexReport } from './write/index.js';
import { readOnlyUnchanged } from './write/index.js';
import { unwritableFolder } from './store/index.js';
import { closestPaths, toRepositoryPath } from './sources/index.js';
import { DEFAULT_MAX_FILE_BYTES, explainSkip, type RepositorySource, type SkipReason } from './sources/index.js';
import { staleFiles } from './write/index.js';
import { StoredSource } from './queries/index.js';
import { WorktreeSource } from './sources/index.js';
import { WriterLock, type WriterInfo, type WriterLease } from './store/index.js';
import { scoringWarm, warmScoring, type IdleWarmer, type WarmScoringOptions, type WarmScoringReport } from './lexical/index.js';

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
}

/** What shaped an index: stored with it, read by every later command. */
export interface IndexSettings {
  maxFileBytes: number;
  excludeDirectories: string[];
}

/**
 * Written to meta by every writer; an index last written by another SQLite,
 * Node.js ABI or schema gets a quick integrity check before it is written again.
 */
function writtenBy(store: IndexStore): string {
  const sqlite = (indexConnection(store).prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  return `schema ${store.getMeta('schema_version')}, SQLite ${sqlite}, Node.js ABI ${process.versions.modules}`;
}

/** What is indexed and what is stale. */
export interface IndexStatus {
  mode: 'worktree' | 'commit';
  root: string;
  commit: string | null;
  indexPath: string;
  indexedAt: number | null;
  complete: boolean;
  files: number;
  symbols: number;
  chunks: number;
  partialFiles: number;
  /** Files that could not be parsed (indexed as text only); the next index run parses them again. */
  failedFiles: number;
  /** Every failed file with its reason, by path. */
  failures: { path: string; reason: string }[];
  languages: Record<string, number>;
  skipped: Partial<Record<string, number>>;
  /** Files whose content changed on disk since indexing (working tree), or commit mismatch. */
  stale: { changed: string[]; added: string[]; deleted: string[] };
  /** The settings this index is built with. */
  settings: IndexSettings;
  /** Another process writing this index right now, with its progress; null when none. */
  writer: WriterInfo | null;
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

/** The settings an index was built with, or null before its first refresh. */
function readSettings(store: IndexStore): IndexSettings | null {
  try {
    return JSON.parse(store.getMeta('settings') ?? 'null') as IndexSettings | null;
  } catch {
    return null;
  }
}

/**
 * A repository and its index: the handle every later stage uses. Opening never
 * indexes; call `refresh()` (cheap when nothing changed) before answering.
 */
export class RepositoryIndex {
  private refreshing: Promise<IndexReport> | null = null;
  /** The running idle-time warm-up of the scoring caches (long-lived processes only), and how to stop it. */
  private warming: { done: Promise<WarmScoringReport>; controller: AbortController } | null = null;
  private warmAfterRefresh = false;
  private idleWarmers: readonly IdleWarmer[] = [];
  private readonly lock: WriterLock;
  /** Why the index's folder cannot be written, the index's own path, and the private copy it is read from; null when writable. */
  private unwritable: { reason: string; indexPath: string; copy: string | null } | null = null;
  /** What SQLite said when a read met damage (markDamaged): the next refresh rebuilds instead of trusting the file. */
  private damage: string | null = null;

  private constructor(
    readonly source: RepositorySource,
    private currentStore: IndexStore,
    private readonly logger: Logger,
    private readonly sourceOptions: IndexSettings,
    private readonly access: { owned: boolean; readonly: boolean },
  ) {
    this.lock = new WriterLock(currentStore.path);
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
    const given = { maxFileBytes: options.maxFileBytes, excludeDirectories: options.excludeDirectories };
    let source: RepositorySource = options.commit ? await GitCommitSource.open(path, options.commit, given) : await WorktreeSource.open(path, { ...given, findWorkTreeRoot: options.findWorkTreeRoot });
    const indexPath = options.indexPath ?? defaultIndexPath(realpathSync(source.root), source.mode);
    // Only reponav's own cache may be overwritten whatever is there; a path the user gave may hold their data.
    const access = { owned: options.indexPath === undefined, readonly: !!options.readonly };
    // A read-only folder: an index already there is used read-only (while it matches the tree); none there is one sentence.
    const unwritable = indexPath === ':memory:' ? null : unwritableFolder(indexPath);
    let copy: string | null = null;
    if (unwritable !== null) {
      if (!existsSync(indexPath) && !access.readonly) {
        throw new ReponavError(
          'INDEX_UNAVAILABLE',
          `Cannot create the index at ${displayPath(indexPath)}: ${unwritable}; set REPONAV_CACHE_DIR (or --index-path) to a writable folder.`,
        );
      }
      access.readonly = true;
      copy = existsSync(indexPath) ? readableCopy(indexPath) : null;
    }
    const store = await openStore(copy ? join(copy, basename(indexPath)) : indexPath, logger, access);
    const stored = readSettings(store);
    const settings: IndexSettings = {
      maxFileBytes: options.maxFileBytes ?? stored?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      excludeDirectories: options.excludeDirectories ?? stored?.excludeDirectories ?? [],
    };
    const opened: IndexSettings = { maxFileBytes: given.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, excludeDirectories: given.excludeDirectories ?? [] };
    if (JSON.stringify(settings) !== JSON.stringify(opened)) {
      // The index was built with other settings than the defaults this source was opened with.
      source = source.mode === 'commit' ? await GitCommitSource.open(source.root, source.commit!, settings) : await WorktreeSource.open(source.root, settings);
    }
    if (options.watch && source instanceof WorktreeSource) source.watch();
    const repository = new RepositoryIndex(source, store, logger, settings, access);
    repository.unwritable = unwritable === null ? null : { reason: unwritable, indexPath, copy };
    repository.warmAfterRefresh = options.warmScoring ?? !!options.watch;
    repository.idleWarmers = options.idleWarmers ?? [];
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
    if (this.unwritable !== null) return this.checkReadOnly(this.unwritable.reason, this.unwritable.indexPath);
    if (this.access.readonly) throw new ReponavError('BAD_INPUT', 'This index was opened read-only; it cannot be refreshed.');
    if (!this.refreshing) {
      this.refreshing = this.refreshOnce(options)
        .then((report) => {
          if (this.warmAfterRefresh) void this.warmScoring();
          return report;
        })
        .finally(() => {
          this.refreshing = null;
        });
    }
    return this.refreshing;
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

  /**
   * An index in a folder that cannot be written answers while it matches the
   * tree (checked from reads alone); anything else would need a write, so it
   * is one sentence saying what to do.
   */
  private async checkReadOnly(unwritable: string, indexPath: string): Promise<IndexReport> {
    const expected = () => ({ writtenBy: writtenBy(this.store), settings: JSON.stringify(this.sourceOptions) });
    const unchanged = await readOnlyUnchanged(this.store, this.source, this.lock, expected).catch(() => null);
    if (unchanged) return unchanged;
    throw new ReponavError(
      'INDEX_UNAVAILABLE',
      `The index at ${displayPath(indexPath)} cannot be updated (${unwritable}) and it no longer matches ${displayPath(this.root)} (or that cannot be checked without writing); ` +
        'run `reponav index` where the folder is writable, or set REPONAV_CACHE_DIR (or --index-path) to a writable folder.',
    );
  }

  /** Nothing changed: answered from reads alone (no-change-check.ts); else the locked run. */
  private async refreshOnce(options: RefreshOptions): Promise<IndexReport> {
    if (!options.check && this.damage === null) {
      const expected = () => ({ writtenBy: writtenBy(this.store), settings: JSON.stringify(this.sourceOptions) });
      const unchanged = await readOnlyUnchanged(this.store, this.source, this.lock, expected).catch((error: unknown) => {
        // Whatever it is (a damaged page, say), the locked run meets it again and handles it.
        this.logger.debug(`read-only freshness check: ${(error as Error).message}`);
        return null;
      });
      if (unchanged) return unchanged;
    }
    return this.refreshLocked(options);
  }

  private async refreshLocked(options: RefreshOptions): Promise<IndexReport> {
    let told = false;
    const lease = await this.lock.acquire({
      signal: options.signal,
      onWait: (holder) => {
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
      const run = () =>
        updateIndex(this.store, this.source, {
          logger: this.logger,
          ...options,
          onProgress: (p) => {
            lease.progress(p.done, p.total);
            options.onProgress?.(p);
          },
        });
      try {
        return await run();
      } catch (error) {
        if (!isCorruption(error)) throw error;
        this.rebuild(lease, `is damaged (SQLite: ${(error as Error).message})`);
        return await run();
      }
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
    this.store.setMeta('written_by', by);
    this.store.setMeta('settings', JSON.stringify(this.sourceOptions));
  }

  private rebuild(lease: WriterLease, reason: string): void {
    const path = this.store.path;
    this.store.close();
    this.currentStore = IndexStore.open(path, this.logger, { owned: this.access.owned, lease, rebuild: reason });
  }

  /** Resolves a user path to an indexed file, or throws with the closest indexed paths. */
  resolveFile(userPath: string): FileRow {
    const path = toRepositoryPath(this.source.root, userPath, { checkSymlinks: this.source.mode === 'worktree' });
    const file = this.store.file(path);
    if (file) return file;
    // A file the index skipped on purpose gets its reason, not a list of other paths.
    const skip = this.store.skippedFiles().get(path)?.reason ?? this.source.skipReason?.(path) ?? null;
    if (skip) {
      const why = explainSkip(skip as SkipReason, this.sourceOptions.maxFileBytes);
      const rule = skip === 'ignored' || skip === 'vendored' ? this.source.skipRule?.(path) : null;
      throw new ReponavError('FILE_NOT_FOUND', `${quoted(userPath)} was not indexed: ${why}${rule ? ` (${rule})` : ''}.`, { suggestions: [] });
    }
    const suggestions = closestPaths(path, this.store.files().map((f) => f.path));
    const hint = suggestions.length ? ` Closest indexed paths: ${suggestions.map(displayPath).join(', ')}.` : '';
    throw new ReponavError('FILE_NOT_FOUND', `${quoted(userPath)} is not an indexed file of ${displayPath(this.source.root)}.${hint}`, { suggestions });
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

  private async readStatus(): Promise<IndexStatus> {
    // "Up to date" over pages SQLite cannot read would be a lie: probe first (cheap; see damage-probe.ts).
    const damage = this.store.probeDamage();
    if (damage !== null) throw Object.assign(new Error(damage), { code: 'SQLITE_CORRUPT' });
    const counts = this.store.counts();
    // Read with the counts, not after listing the tree (seconds on a large one), so the two describe one moment.
    const writer = this.lock.isHeld() ? this.lock.holder() : null;
    const indexed = JSON.parse(this.store.getMeta('indexed') ?? 'null') as { at: number; commit: string | null } | null;
    const listing = JSON.parse(this.store.getMeta('listing') ?? '{"skipped":{}}') as { skipped: Record<string, number> };
    const languages: Record<string, number> = {};
    const files = this.store.files();
    for (const f of files) languages[f.language] = (languages[f.language] ?? 0) + 1;
    const current = await this.source.list();
    // A file whose size or mtime differs is read: same content is up to date whatever its timestamp.
    const stale = await staleFiles(this.source, current.files, files, this.store.skippedFiles());
    return {
      mode: this.source.mode,
      root: this.source.root,
      commit: this.source.commit,
      // The index's own path, not the private copy a read-only folder's index is read from.
      indexPath: this.unwritable?.indexPath ?? this.store.path,
      indexedAt: indexed?.at ?? null,
      complete: this.store.getMeta('complete') === '1',
      files: counts.files,
      symbols: counts.symbols,
      chunks: counts.chunks,
      partialFiles: counts.partial,
      failedFiles: counts.failed,
      failures: this.store.failedFiles(),
      languages,
      skipped: listing.skipped,
      stale,
      settings: this.sourceOptions,
      writer,
    };
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
    if (this.warming) return this.warming.done;
    if (scoringWarm(this.store)) return Promise.resolve({ terms: 0, entries: 0, stopped: 'done', warmers: 0 });
    const controller = new AbortController();
    const done = warmScoring(this.store, { warmers: this.idleWarmers, ...options, signal: controller.signal })
      .then((report) => {
        this.logger.debug(`scoring caches warmed: ${report.terms} terms, ${report.entries} postings, ${report.warmers} warmers (${report.stopped})`);
        return report;
      })
      .catch((error: unknown): WarmScoringReport => {
        this.logger.debug(`scoring warm-up stopped: ${(error as Error).message}`);
        return { terms: 0, entries: 0, stopped: 'aborted', warmers: 0 };
      })
      .finally(() => {
        this.warming = null;
      });
    this.warming = { done, controller };
    return done;
  }

  /** Closes the index (and stops the watcher and the warm-up, if any). */
  close(): void {
    this.warming?.controller.abort();
    this.source.close?.();
    this.store.close();
    if (this.unwritable?.copy) rmSync(this.unwritable.copy, { recursive: true, force: true });
  }
}

/**
 * A private copy of an index in a folder that cannot be written, in the
 * temporary folder: SQLite cannot open a write-ahead-log database read-only
 * where it cannot create the log's shared-memory file, and this build of it
 * has no URI filenames (`immutable=1`). Returns the copy's folder.
 */
function readableCopy(indexPath: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'reponav-readonly-'));
  for (const suffix of ['', '-wal']) {
    if (existsSync(indexPath + suffix)) copyFileSync(indexPath + suffix, join(folder, basename(indexPath) + suffix));
  }
  return folder;
}
