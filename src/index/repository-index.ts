import { realpathSync } from 'node:fs';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { defaultIndexPath } from './cache-location.js';
import { GitCommitSource } from './git-commit-source.js';
import { IndexStore, type FileRow } from './index-store.js';
import { updateIndex, type IndexOptions, type IndexReport } from './indexer.js';
import { closestPaths, toRepositoryPath } from './path-guard.js';
import { sameIdentity, type RepositorySource, type SourceOptions } from './source-file.js';
import { WorktreeSource } from './worktree-source.js';

/** How to open a repository's index. */
export interface OpenRepositoryOptions {
  /** Index one commit (any revision git understands) instead of the working tree. */
  commit?: string;
  /** Where the SQLite index lives; default: the user cache (see cache-location.ts). */
  indexPath?: string;
  maxFileBytes?: number;
  excludeDirectories?: string[];
  logger?: Logger;
  /**
   * Working tree only: watch the tree (for long-lived processes such as the MCP
   * server and the web view), so a refresh with nothing changed lists nothing.
   */
  watch?: boolean;
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
}

/**
 * A repository and its index: the handle every later stage uses. Opening never
 * indexes; call `refresh()` (cheap when nothing changed) before answering.
 */
export class RepositoryIndex {
  private refreshing: Promise<IndexReport> | null = null;

  private constructor(
    readonly source: RepositorySource,
    readonly store: IndexStore,
    private readonly logger: Logger,
    private readonly sourceOptions: SourceOptions = {},
  ) {}

  /** Opens the repository at `path` (working tree, or one commit with `options.commit`). */
  static async open(path: string, options: OpenRepositoryOptions = {}): Promise<RepositoryIndex> {
    const logger = options.logger ?? silentLogger;
    const sourceOptions = { maxFileBytes: options.maxFileBytes, excludeDirectories: options.excludeDirectories };
    const source: RepositorySource = options.commit
      ? await GitCommitSource.open(path, options.commit, sourceOptions)
      : await WorktreeSource.open(path, sourceOptions);
    if (options.watch && source instanceof WorktreeSource) source.watch();
    const indexPath = options.indexPath ?? defaultIndexPath(realpathSync(source.root), source.mode);
    // Only reponav's own cache may be overwritten whatever is there; a path the user gave may hold their data.
    const store = IndexStore.open(indexPath, logger, { owned: options.indexPath === undefined });
    return new RepositoryIndex(source, store, logger, sourceOptions);
  }

  /** Opens another commit of the same repository on the same index store (re-parses only differing files). */
  async switchCommit(revision: string): Promise<void> {
    if (this.source.mode !== 'commit') throw new ReponavError('BAD_INPUT', 'switchCommit needs an index opened in commit mode.');
    (this as { source: RepositorySource }).source = await GitCommitSource.open(this.source.root, revision, this.sourceOptions);
  }

  get root(): string {
    return this.source.root;
  }

  /** Brings the index in line with the source; concurrent callers share one run. */
  refresh(options: IndexOptions = {}): Promise<IndexReport> {
    if (!this.refreshing) {
      this.refreshing = updateIndex(this.store, this.source, { logger: this.logger, ...options }).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  /** Resolves a user path to an indexed file, or throws with the closest indexed paths. */
  resolveFile(userPath: string): FileRow {
    const path = toRepositoryPath(this.source.root, userPath, { checkSymlinks: this.source.mode === 'worktree' });
    const file = this.store.file(path);
    if (file) return file;
    const suggestions = closestPaths(path, this.store.files().map((f) => f.path));
    const hint = suggestions.length ? ` Closest indexed paths: ${suggestions.join(', ')}.` : '';
    throw new ReponavError('FILE_NOT_FOUND', `'${userPath}' is not an indexed file of ${this.source.root}.${hint}`, { suggestions });
  }

  /** The indexed text of a file (resolved and checked as in resolveFile). */
  readText(userPath: string): { path: string; text: string } {
    const file = this.resolveFile(userPath);
    return { path: file.path, text: this.store.blobText(file.blobId) ?? '' };
  }

  /** What is indexed, and (cheaply, by listing and stat) what is stale. */
  async status(): Promise<IndexStatus> {
    const counts = this.store.counts();
    const indexed = JSON.parse(this.store.getMeta('indexed') ?? 'null') as { at: number; commit: string | null } | null;
    const listing = JSON.parse(this.store.getMeta('listing') ?? '{"skipped":{}}') as { skipped: Record<string, number> };
    const languages: Record<string, number> = {};
    const files = this.store.files();
    for (const f of files) languages[f.language] = (languages[f.language] ?? 0) + 1;
    const stale = { changed: [] as string[], added: [] as string[], deleted: [] as string[] };
    const current = await this.source.list();
    const byPath = new Map(files.map((f) => [f.path, f]));
    const skipped = this.store.skippedFiles();
    for (const f of current.files) {
      const row = byPath.get(f.path);
      if (!row) {
        // Skipped on reading (binary, missing blob) and unchanged since: not stale, just skipped.
        const skip = skipped.get(f.path);
        if (!skip || !sameIdentity(f, skip)) stale.added.push(f.path);
      } else if (!sameIdentity(f, row)) stale.changed.push(f.path);
      byPath.delete(f.path);
    }
    stale.deleted.push(...byPath.keys());
    return {
      mode: this.source.mode,
      root: this.source.root,
      commit: this.source.commit,
      indexPath: this.store.path,
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
    };
  }

  /** Closes the index (and stops the watcher, if any). */
  close(): void {
    this.source.close?.();
    this.store.close();
  }
}
