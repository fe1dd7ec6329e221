/**
 * The repositories a tool server answers about, by name, each with a
 * freshness gate: before a tool answers, its repository is brought in line with
 * the working tree (a cheap stat check when nothing changed).
 */
import { basename } from 'node:path';
import { ReponavError } from '../errors.js';
import type { IndexProgress, IndexReport } from '../index/index.js';
import { RepositoryIndex, type OpenRepositoryOptions } from '../index/index.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { warmSearch } from '../scaffold/index.js';

/** Result of waiting for a repository's index. */
export type FreshnessResult =
  | { state: 'fresh'; report: IndexReport }
  /** The wait limit passed first; indexing continues in the background. */
  | { state: 'indexing'; progress: IndexProgress | null };

/** Options of one wait for freshness. */
export interface FreshnessOptions {
  onProgress?: (progress: IndexProgress) => void;
  /** Give up waiting (not indexing) after this long; default: wait until done. */
  waitMs?: number;
}

/**
 * One named repository. `refresh` coalesces callers: a call arriving while a
 * refresh runs waits for that run AND one follow-up run (shared by everyone who
 * arrived meanwhile), so an answer always reflects edits made before the call
 * — joining a run that started before the edit would not.
 */
export class RepositoryHandle {
  private running: Promise<IndexReport> | null = null;
  private queued: Promise<IndexReport> | null = null;
  private readonly listeners = new Set<(progress: IndexProgress) => void>();
  private latestProgress: IndexProgress | null = null;
  /** True while the run under way indexes (not only checks that nothing changed). */
  private indexingNow = false;
  /** Calls waiting for a run to start indexing, so their wait limit starts (ensureFresh). */
  private readonly indexingWaiters = new Set<() => void>();
  /** The report of the last finished refresh, or null before the first. */
  lastReport: IndexReport | null = null;
  /** Why the last refresh failed (its error's message), or null when it succeeded or none ran. */
  lastFailure: string | null = null;
  /** A refresh the owner ran just before handing the index over, taken by the next refresh() instead of a run. */
  private handedOver: IndexReport | null = null;
  /** A focused first index with its answer, while it runs (see focusing()). */
  private focused: Promise<unknown> | null = null;

  constructor(
    readonly name: string,
    readonly index: RepositoryIndex,
  ) {}

  get root(): string {
    return this.index.root;
  }

  /**
   * Records that the index was refreshed just now by its owner (a CLI process
   * refreshes once, with its progress bar, before its one tool call): the next
   * refresh() answers with `report` instead of checking the tree again, which
   * cost a second `git status` (or listing) per process.
   */
  markRefreshed(report: IndexReport): void {
    this.lastReport = report;
    this.handedOver = report;
  }

  /** True while a refresh of this repository runs (or waits to run) in this process. */
  get refreshing(): boolean {
    return this.running !== null || this.queued !== null;
  }

  /**
   * Runs `work` (a focused first index and the answer made from it) as the one
   * such run of this repository; calls arriving meanwhile wait for it with
   * {@link focusDone} and then find the whole index under way.
   */
  focusing<T>(work: () => Promise<T>): Promise<T> {
    const run = work();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.focused = settled;
    void settled.then(() => {
      if (this.focused === settled) this.focused = null;
    });
    return run;
  }

  /** Resolves once no focused first index runs (at once when none does). */
  async focusDone(): Promise<void> {
    while (this.focused) await this.focused;
  }

  /** Brings the index in line with the source; see the class comment for coalescing. */
  refresh(onProgress?: (progress: IndexProgress) => void): Promise<IndexReport> {
    const handedOver = this.handedOver;
    this.handedOver = null;
    if (handedOver && !this.running) return Promise.resolve(handedOver);
    let run: Promise<IndexReport>;
    if (!this.running) run = this.start();
    else {
      this.queued ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.start();
        });
      run = this.queued;
    }
    if (!onProgress) return run;
    this.listeners.add(onProgress);
    const detach = () => this.listeners.delete(onProgress);
    run.then(detach, detach);
    return run;
  }

  /**
   * refresh() with an optional wait limit; a refresh failure rejects (e.g.
   * EMPTY_REPOSITORY). The limit counts from when a run starts indexing: a
   * check that finds nothing changed is always waited for, so "indexing" is
   * answered only while the index is being written (here or by another
   * process), never over an index that is current.
   */
  async ensureFresh(options: FreshnessOptions = {}): Promise<FreshnessResult> {
    const run = this.refresh(options.onProgress);
    if (options.waitMs === undefined || !Number.isFinite(options.waitMs)) {
      return { state: 'fresh', report: await run };
    }
    const waitMs = Math.max(0, options.waitMs);
    let timer: NodeJS.Timeout | undefined;
    let arm: (() => void) | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      arm = () => {
        timer = setTimeout(() => resolve('timeout'), waitMs);
        timer.unref?.();
      };
      if (this.indexingNow) arm();
      else this.indexingWaiters.add(arm);
    });
    try {
      const first = await Promise.race([run, timeout]);
      if (first === 'timeout') return { state: 'indexing', progress: this.latestProgress };
      return { state: 'fresh', report: first };
    } finally {
      clearTimeout(timer);
      if (arm) this.indexingWaiters.delete(arm);
    }
  }

  private start(): Promise<IndexReport> {
    this.latestProgress = null;
    const run = this.index
      .refresh({
        onProgress: (progress) => {
          this.latestProgress = progress;
          for (const listener of this.listeners) listener(progress);
        },
        onIndexing: () => {
          this.indexingNow = true;
          for (const arm of [...this.indexingWaiters]) arm();
          this.indexingWaiters.clear();
        },
      })
      .then(
        (report) => {
          this.lastReport = report;
          this.lastFailure = null;
          return report;
        },
        (error: unknown) => {
          // Kept for callers that stopped waiting: they would otherwise only ever hear "still indexing".
          this.lastFailure = error instanceof Error ? error.message : String(error);
          throw error;
        },
      )
      .finally(() => {
        this.running = null;
        this.indexingNow = false;
      });
    // A caller that stopped waiting (waitMs) must not leave an unhandled rejection behind.
    run.catch(() => undefined);
    this.running = run;
    return run;
  }

  /** Closes the index once no refresh is running. */
  async close(): Promise<void> {
    await (this.queued ?? this.running)?.catch(() => undefined);
    this.index.close();
  }
}

/** A repository to open: its folder, and optionally its name and index location. */
export interface RepositorySpec {
  path: string;
  name?: string;
  indexPath?: string;
  commit?: string;
}

/**
 * Names for repository roots: the folder's basename, made unique in the given
 * order by appending `-2`, `-3`, … (so the first `app` stays `app`).
 */
export function uniqueRepositoryNames(roots: readonly string[]): string[] {
  const taken = new Set<string>();
  return roots.map((root) => {
    const base = basename(root.replace(/[\\/]+$/, '')) || 'repo';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return name;
  });
}

/** The repositories of one server or CLI run, by name. */
export class RepositorySet {
  private readonly byName: Map<string, RepositoryHandle>;

  constructor(handles: readonly RepositoryHandle[]) {
    if (handles.length === 0) throw new ReponavError('BAD_INPUT', 'At least one repository is required.');
    this.byName = new Map();
    for (const handle of handles) {
      if (this.byName.has(handle.name)) throw new ReponavError('BAD_INPUT', `Two repositories are named '${handle.name}'.`);
      this.byName.set(handle.name, handle);
    }
  }

  /**
   * Opens every repository (opening never indexes: the first tool call does).
   * Names default to unique basenames of the real roots. On failure, the ones
   * already opened are closed. Working trees are watched unless `watch` is
   * false: a server answers many calls, and with a watcher a call with nothing
   * changed since the last one checks freshness without listing the tree.
   */
  static async open(
    specs: readonly RepositorySpec[],
    options: Pick<OpenRepositoryOptions, 'logger' | 'maxFileBytes' | 'include' | 'exclude' | 'watch'> = {},
  ): Promise<RepositorySet> {
    const logger: Logger = options.logger ?? silentLogger;
    const opened: RepositoryIndex[] = [];
    try {
      for (const spec of specs) {
        opened.push(
          await RepositoryIndex.open(spec.path, {
            indexPath: spec.indexPath,
            commit: spec.commit,
            maxFileBytes: options.maxFileBytes,
            include: options.include,
            exclude: options.exclude,
            logger,
            watch: options.watch ?? true,
            // A server's first issue text would otherwise build the search's per-state data and compile its code.
            idleWarmers: [warmSearch],
          }),
        );
      }
    } catch (error) {
      for (const index of opened) index.close();
      throw error;
    }
    const defaults = uniqueRepositoryNames(opened.map((index) => index.root));
    const names = specs.map((spec, i) => spec.name ?? defaults[i]);
    return new RepositorySet(opened.map((index, i) => new RepositoryHandle(names[i], index)));
  }

  /** Wraps already opened indexes (the CLI opens and refreshes its own). */
  static of(indexes: readonly RepositoryIndex[], names?: readonly string[]): RepositorySet {
    const chosen = names ?? uniqueRepositoryNames(indexes.map((index) => index.root));
    return new RepositorySet(indexes.map((index, i) => new RepositoryHandle(chosen[i], index)));
  }

  /** Names in opening order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): RepositoryHandle[] {
    return [...this.byName.values()];
  }

  get size(): number {
    return this.byName.size;
  }

  /**
   * The repository a call names; with one repository the name may be omitted.
   * Throws BAD_INPUT naming the choices when it is unknown, or omitted while
   * there are several.
   */
  select(name?: string): RepositoryHandle {
    const list = this.names().map((n) => `'${n}'`).join(', ');
    if (name === undefined || name === '') {
      if (this.byName.size === 1) return this.all()[0];
      throw new ReponavError('BAD_INPUT', `Several repositories are served; pass repo as one of ${list}.`);
    }
    const handle = this.byName.get(name);
    if (!handle) throw new ReponavError('BAD_INPUT', `Unknown repo '${name}'; use one of ${list}.`);
    return handle;
  }

  /** Closes every index (after running refreshes finish). */
  async close(): Promise<void> {
    await Promise.all(this.all().map((handle) => handle.close()));
  }
}
