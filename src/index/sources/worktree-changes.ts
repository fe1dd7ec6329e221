/**
 * What changed in a working tree since the last indexing run, found in
 * O(changes) where possible:
 *
 * 1. a watcher (long-lived processes): the paths that saw an event since this
 *    process's last run — nothing to list when nothing happened;
 * 2. git: the paths that differ from HEAD now, the paths that differed at the
 *    last run, and the paths that differ between the two HEADs (a branch
 *    switch); git's own stat cache answers for every other file;
 * 3. otherwise (no git, a .gitignore or exclude change, settings changed, the
 *    watcher lost events, another process wrote the index): a full listing.
 *
 * The state a later run needs is a token stored in the index's meta table once
 * a run succeeds. Its `paths` are the files to check again next time: what
 * differed from HEAD at the run, plus what a watcher-driven run changed, so a
 * process without the watcher (the CLI) can still trust git after one with it
 * (the MCP server) wrote the index.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { GitWorktree } from './git-worktree-status.js';
import type { ChangeCheck, ListingDelta, SourceFile } from './source-file.js';
import type { TreeWatcher } from './tree-watcher.js';
import { isFolderIgnoreFile } from './ignore-layers.js';

/**
 * What the change tracker needs of its working-tree source (WorktreeSource
 * implements it); named here so that the source imports the tracker and not
 * the other way round.
 */
export interface ChangeTrackedSource {
  readonly root: string;
  readonly watcher: TreeWatcher | null;
  readonly listedLinks: string[];
  listPaths(candidates: Iterable<string>): { files: SourceFile[]; walked: string[]; links: string[] };
  /** True when a rule read so far may bring back files git ignores (a `!` line outside .gitignore, or `--include`). */
  bringsBackIgnored(): boolean;
}

/** More candidate paths than this: a full listing costs about the same and needs no bookkeeping. */
const MAX_CANDIDATES = 5000;

interface FreshnessToken {
  v: 1;
  /** Root and listing settings the run used; another value means the stored rows answer other rules. */
  settings: string;
  /** HEAD and the .git/info/exclude stamp at the run, or null when git could not tell. */
  git: { head: string | null; exclude: string } | null;
  /** Paths (files or folders) to check again next time. */
  paths: string[];
  /** Listed symlinked files: re-checked every time, since their target changes without an event at their path. */
  links: string[];
  /** Stamps (size:mtime) of the ignore files among `paths`: an unchanged dirty .gitignore needs no full listing. */
  rules: Record<string, string>;
  /** Tells this process's own last write from another process's. */
  nonce: string;
}

/** The change tracker of one working-tree source. */
export class WorktreeChanges {
  private git: GitWorktree | null | undefined;
  /** The token this process last handed to a run (the index holds it if that run succeeded). */
  private issued: string | null = null;
  private excludeStamp: string | null = null;

  constructor(
    private readonly source: ChangeTrackedSource,
    settings: string,
    private readonly useGit: boolean,
  ) {
    this.settings = `${source.root}|${settings}`;
  }

  private readonly settings: string;

  /** See RepositorySource.changesSince. */
  async check(previousText: string | null, recheck: readonly string[] = []): Promise<ChangeCheck> {
    const previous = this.parse(previousText);
    const watcher = this.source.watcher;
    // Watches are set by a full listing's walk: a watcher with none yet (this process has
    // only ever answered from git, e.g. opened on an index another process wrote) needs one.
    const arming = watcher !== null && watcher.size === 0;
    // What the watcher saw, when it cannot be trusted alone: git does not see everything it did (an empty folder).
    let untrustedEvents: { paths: string[]; overflow: boolean } = { paths: [], overflow: false };
    if (watcher) {
      await watcher.settle();
      // Taken before anything else is looked at: events from now on belong to the next run.
      const seen = watcher.take();
      const excludeStamp = this.readExcludeStamp();
      const trusted =
        previous !== null && previousText === this.issued && !seen.overflow && watcher.size > 0 && excludeStamp === this.excludeStamp;
      const paths = [...seen.paths];
      if (trusted && paths.length === 0 && recheck.length === 0) return { token: () => previousText, delta: { files: [], candidates: [] } };
      if (trusted && paths.length <= MAX_CANDIDATES && !this.rulesChanged(paths, previous)) {
        return this.delta([...paths, ...previous.links, ...recheck], previousText!, previous, previous.git, [...previous.paths, ...paths]);
      }
      this.excludeStamp = excludeStamp;
      untrustedEvents = { paths, overflow: seen.overflow };
    }
    const { gitPart, dirty, candidates } = await this.gitCandidates(arming ? null : previous, recheck);
    if (candidates && previous) {
      // Nothing to look at since the stored token, by git and by the watcher: the run writes nothing, so that
      // token stays the index's and, its events taken above, the watcher vouches for it from now on (else every
      // later check came here). Paths the watcher saw are listed (a new folder is watched from then on).
      if (candidates.length === 0 && untrustedEvents.paths.length === 0 && !untrustedEvents.overflow) {
        this.issued = previousText;
        return { token: () => previousText, delta: { files: [], candidates: [] } };
      }
      return this.delta([...candidates, ...untrustedEvents.paths], previousText!, previous, gitPart, dirty);
    }
    const rules = this.ruleStamps(dirty);
    return {
      delta: null,
      token: (wrote) =>
        this.issue({ v: 1, settings: this.settings, git: gitPart, paths: dirty, links: this.source.listedLinks, rules, nonce: '' }, wrote, previousText, previous),
    };
  }

  /**
   * The read-only form of check(): the candidates and what a listing finds at
   * them when git (or, in a long-lived process, a watcher with no event since
   * this process's own last run) can tell; 'full-listing' when the tree is not
   * a git working tree and there is no watcher (whose watches a listing resets);
   * else null. Takes no watcher event and issues no token, so a caller that finds
   * something changed runs check() afterwards and loses nothing.
   */
  async peek(previousText: string | null, recheck: readonly string[] = []): Promise<ListingDelta | 'full-listing' | null> {
    const previous = this.parse(previousText);
    const watcher = this.source.watcher;
    if (!previous) return null;
    if (watcher) {
      if (watcher.size === 0) return null;
      await watcher.settle();
      const trusted = previousText === this.issued && watcher.quiet && this.readExcludeStamp() === this.excludeStamp;
      return trusted && recheck.length === 0 ? { files: [], candidates: [] } : null;
    }
    // Without git every check lists everything and the token stored has nothing to add; with git, a
    // check git cannot answer (an exclude change, too many paths) is left to the run, whose token fixes it.
    if (!(await this.gitWorktree())) return 'full-listing';
    // A git status the CLI started early (before this process read the token) is good enough here,
    // where nothing is written; check() runs its own (see GitWorktree.startEarly).
    const { candidates } = await this.gitCandidates(previous, recheck, true);
    if (!candidates) return null;
    const unique = [...new Set(candidates)];
    return { files: this.source.listPaths(unique).files, candidates: unique };
  }

  /**
   * Git's state now and, when `previous` (a run's token) and git can tell, the
   * paths to look at since that run: what differed from HEAD then and now, what
   * HEAD moved over, symlinked files and `recheck`. Null candidates: only a full listing can tell.
   * `early`: git's state may be one the CLI started before this check (read-only callers only).
   */
  private async gitCandidates(
    previous: FreshnessToken | null,
    recheck: readonly string[],
    early = false,
  ): Promise<{ gitPart: FreshnessToken['git']; dirty: string[]; candidates: string[] | null }> {
    const git = await this.gitWorktree();
    const state = git ? await git.state({ early }) : null;
    const gitPart = state ? { head: state.head, exclude: state.excludeStamp } : null;
    const dirty = state ? [...state.dirty, ...state.dirtyFolders] : [];
    // Git's status never names an ignored untracked file, so where a rule brings such files back only a listing sees them change.
    if (git && state && previous?.git && previous.git.exclude === state.excludeStamp && !this.source.bringsBackIgnored()) {
      const between =
        previous.git.head === state.head
          ? []
          : previous.git.head && state.head
            ? await git.changedBetween(previous.git.head, state.head)
            : null;
      if (between) {
        const candidates = [...previous.paths, ...dirty, ...between, ...previous.links, ...recheck];
        if (candidates.length <= MAX_CANDIDATES && !this.rulesChanged(candidates, previous)) return { gitPart, dirty, candidates };
      }
    }
    return { gitPart, dirty, candidates: null };
  }

  /** Lists the candidates; the token keeps `recheck` for the next run. */
  private delta(candidates: string[], previousText: string, previous: FreshnessToken, git: FreshnessToken['git'], recheck: string[]): ChangeCheck {
    const unique = [...new Set(candidates)];
    const watcher = this.source.watcher;
    // A candidate folder is walked afresh (and watched again); one renamed away must not keep its old watches.
    if (watcher) for (const path of unique) if (watcher.watches(path)) watcher.removeTree(path);
    const { files, links } = this.source.listPaths(unique);
    const linkSet = new Set(previous.links);
    for (const path of unique) linkSet.delete(path);
    for (const link of links) linkSet.add(link);
    const kept = [...new Set(recheck)];
    const rules = this.ruleStamps(kept);
    return {
      delta: { files, candidates: unique },
      token: (wrote) =>
        this.issue(
          {
            v: 1,
            settings: this.settings,
            // Too much to carry: the next run without a watcher lists everything instead.
            git: kept.length <= MAX_CANDIDATES ? git : null,
            paths: kept.length <= MAX_CANDIDATES ? kept : [],
            links: [...linkSet].sort(),
            rules,
            nonce: '',
          },
          wrote,
          previousText,
          previous,
        ),
    };
  }

  /** True when an ignore file among `paths` differs from its stamp at the last run (or is a new change). */
  private rulesChanged(paths: string[], previous: FreshnessToken): boolean {
    for (const path of paths) {
      if (path === '' || path === '.git' || path.startsWith('.git/')) return true;
      if (isIgnoreFile(path) && this.stampOf(path) !== previous.rules[path]) return true;
    }
    return false;
  }

  private ruleStamps(paths: string[]): Record<string, string> {
    const stamps: Record<string, string> = {};
    for (const path of paths) if (isIgnoreFile(path)) stamps[path] = this.stampOf(path);
    return stamps;
  }

  private stampOf(path: string): string {
    try {
      const info = statSync(join(this.source.root, path));
      return `${info.size}:${info.mtimeMs}`;
    } catch {
      return 'none';
    }
  }

  /**
   * The token a run stores. A run that wrote nothing, over the same state as the
   * stored token's (all but its nonce), keeps the stored one: a new nonce would
   * be a write, and so a new index state, for nothing. The watcher's events
   * were taken when the run began, so it vouches for that token from now on.
   */
  private issue(token: FreshnessToken, wrote: boolean, previousText: string | null, previous: FreshnessToken | null): string {
    token.paths.sort();
    if (!wrote && previousText !== null && previous !== null && JSON.stringify({ ...token, nonce: previous.nonce }) === JSON.stringify(previous)) {
      this.issued = previousText;
      return previousText;
    }
    token.nonce = randomUUID();
    this.issued = JSON.stringify(token);
    return this.issued;
  }

  private parse(text: string | null): FreshnessToken | null {
    if (!text) return null;
    try {
      const token = JSON.parse(text) as FreshnessToken;
      if (token.v !== 1 || token.settings !== this.settings || !Array.isArray(token.paths) || !Array.isArray(token.links) || !token.rules) return null;
      return token;
    } catch {
      return null;
    }
  }

  private async gitWorktree(): Promise<GitWorktree | null> {
    if (!this.useGit) return null;
    if (this.git === undefined) this.git = await GitWorktree.open(this.source.root);
    return this.git;
  }

  private readExcludeStamp(): string {
    return ['.git/info/exclude', '.ignore', '.rgignore', '.reponavignore'].map((path) => this.stampOf(path)).join('|');
  }
}

/** A change to an ignore file changes what every listing holds: only a full listing can follow it. */
function isIgnoreFile(path: string): boolean {
  return isFolderIgnoreFile(path);
}
