/**
 * Commit-mode indexes for concurrent agent runs. One index file can follow
 * only one commit at a time, so each concurrent run of the same repository
 * gets its own slot (its own index file); a finished run's index is kept
 * idle and moved to the next commit (re-parsing only differing files).
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ReponavError } from '../../errors.js';
import { defaultIndexPath } from '../../index/cache-location.js';
import { findGitDir } from '../../index/git-commit-source.js';
import type { IndexReport } from '../../index/indexer.js';
import { RepositoryIndex } from '../../index/repository-index.js';
import { silentLogger, type Logger } from '../../logger.js';

/** Options of {@link IndexPool}. */
export interface IndexPoolOptions {
  /** Folder for index files (`owner+name.db`, `owner+name-2.db`, …); default the user cache. */
  indexDir?: string;
  logger?: Logger;
}

/** An index checked out of the pool, fresh at the requested commit. */
export interface PooledIndex {
  index: RepositoryIndex;
  report: IndexReport;
  /** Gives the index back for reuse. Idempotent. */
  release(): void;
}

interface Slot {
  slot: number;
  index: RepositoryIndex;
}

interface RepoSlots {
  idle: Slot[];
  busy: Set<number>;
}

/** A pool of commit-mode indexes per git dir; safe for concurrent `acquire` calls. */
export class IndexPool {
  private readonly repos = new Map<string, RepoSlots>();
  private readonly logger: Logger;
  private closed = false;

  constructor(private readonly options: IndexPoolOptions = {}) {
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * An index of `gitDir` at `commit`, refreshed. `repo` (`owner/name`) names
   * the index file under `indexDir`. Idle indexes of other repositories are
   * closed first, so memory stays flat over a long run.
   */
  async acquire(gitDir: string, repo: string, commit: string): Promise<PooledIndex> {
    for (const [other, slots] of this.repos) {
      if (other === gitDir) continue;
      for (const idle of slots.idle.splice(0)) idle.index.close();
      if (slots.busy.size === 0) this.repos.delete(other);
    }
    let slots = this.repos.get(gitDir);
    if (!slots) this.repos.set(gitDir, (slots = { idle: [], busy: new Set() }));
    const taken = slots.idle.pop();
    if (taken) slots.busy.add(taken.slot);
    let slotNumber = taken?.slot ?? 0;
    if (!taken) {
      while (slots.busy.has(slotNumber) || slots.idle.some((s) => s.slot === slotNumber)) slotNumber++;
      slots.busy.add(slotNumber);
    }
    const held = slots;
    let index: RepositoryIndex | undefined;
    try {
      if (taken) {
        index = taken.index;
        await index.switchCommit(commit);
      } else {
        index = await RepositoryIndex.open(gitDir, { commit, indexPath: this.indexPath(gitDir, repo, slotNumber), logger: this.logger });
      }
      const report = await index.refresh();
      let released = false;
      const opened = index;
      return {
        index: opened,
        report,
        release: () => {
          if (released) return;
          released = true;
          held.busy.delete(slotNumber);
          if (this.closed) opened.close();
          else held.idle.push({ slot: slotNumber, index: opened });
        },
      };
    } catch (error) {
      held.busy.delete(slotNumber);
      index?.close();
      throw error;
    }
  }

  /** Closes every idle index; indexes still checked out are closed when released. */
  async close(): Promise<void> {
    this.closed = true;
    for (const slots of this.repos.values()) for (const idle of slots.idle.splice(0)) idle.index.close();
    this.repos.clear();
  }

  private indexPath(gitDir: string, repo: string, slot: number): string | undefined {
    const suffix = slot === 0 ? '' : `-${slot + 1}`;
    if (this.options.indexDir) return join(this.options.indexDir, `${repo.replace(/\//g, '+')}${suffix}.db`);
    if (slot === 0) return undefined; // the default commit index, shared with retrieval runs
    const root = findGitDir(gitDir);
    if (!root) throw new ReponavError('NOT_A_GIT_REPOSITORY', `'${gitDir}' is not a git repository.`);
    return defaultIndexPath(realpathSync(root), 'commit').replace(/\.db$/, `${suffix}.db`);
  }
}
