/**
 * How the team server answers a tool call for one token: the repository must
 * be in the token's groups (any other name — existing or not — gets the same
 * "unknown repo" answer naming only visible ones), the shard is the newest
 * ready commit of the tracked branch or the commit the call names, and every
 * answer says which commit answered. index_status answers from the registry:
 * served commit, the branch head by git, lag. A shard missing from the store or
 * failing its checksum is reported, marked broken and rebuilt, and the previous
 * ready commit answers meanwhile.
 */
import { ReponavError } from '../errors.js';
import { SCHEMA_VERSION } from '../index/index.js';
import type { CallRouter, RoutedResult } from '../mcp-server/index.js';
import { RepositorySet, type AnyToolDefinition, type ToolCallResult } from '../tools/index.js';
import { purgedCommit, purgedText } from './commit-purge.js';
import type { Queryable } from './pg-database.js';
import type { ShardCache, ShardLease } from './shard-cache.js';
import { freshness, freshnessText, newestReadyShard, notePinned, readyShardsByPrefix, type RepoFreshness, type ShardRecord } from './shard-registry.js';

/** The extra argument every tool takes on the team server. */
export const COMMIT_ARGUMENT = {
  commit: {
    type: 'string',
    description: 'Answer from this commit (full id or a prefix of at least 7 hex digits) instead of the newest indexed commit of the tracked branch.',
  },
};

function failure(text: string, errorCode = 'BAD_INPUT'): ToolCallResult {
  return { text, isError: true, errorCode };
}

function quotedList(names: readonly string[]): string {
  return names.length === 0 ? 'none is visible to this token' : `use one of ${names.map((n) => `'${n}'`).join(', ')}`;
}

/** The instructions a client's model sees: only the visible repositories. */
export function teamInstructions(visible: readonly string[]): string {
  const repos =
    visible.length === 0
      ? 'No repository is visible to this token.'
      : `This server navigates ${visible.length} repositor${visible.length === 1 ? 'y' : 'ies'}: ${visible.join(', ')}. Pass repo with one of these names${visible.length === 1 ? ' (or omit it)' : ''}.`;
  return `${repos} Start with search, then list_symbols and view_code. Answers come from the newest indexed commit of each repository's tracked branch (pass commit to pin one); each answer ends with the commit it came from. index_status shows the served commit, the branch head and the lag.`;
}

/** Called when a shard turns out missing or corrupt: mark it broken (no longer served) and queue its rebuild. */
export type ShardRepair = (shard: ShardRecord, error: ReponavError) => Promise<void>;

/** True for a download that failed because of the shard itself (absent from the store, or not matching its checksum). */
export function isShardLoss(error: unknown): error is ReponavError {
  return error instanceof ReponavError && (error.code === 'INDEX_MISSING' || error.code === 'INDEX_CORRUPT');
}

/** The sentence reporting a lost shard, naming the repository and the commit. */
export function shardLossText(shard: ShardRecord, error: ReponavError): string {
  const what = error.code === 'INDEX_CORRUPT' ? 'is corrupt (it failed its checksum)' : 'is missing from the shard store';
  return `The index of ${shard.repo} at commit ${shard.commit.slice(0, 12)} ${what}; a rebuild is queued.`;
}

/** A router over `visible` repositories (those of the caller's token). */
export function teamRouter(db: Queryable, cache: ShardCache, visible: readonly string[], repair?: ShardRepair): CallRouter {
  return {
    instructions: teamInstructions(visible),
    extraInput: COMMIT_ARGUMENT,
    async route(tool: AnyToolDefinition, rawArgs: unknown, run): Promise<RoutedResult> {
      const args = { ...((rawArgs && typeof rawArgs === 'object' ? rawArgs : {}) as Record<string, unknown>) };
      const commit = args.commit;
      delete args.commit;
      const named = typeof args.repo === 'string' && args.repo !== '' ? args.repo : undefined;
      if (args.repo !== undefined && typeof args.repo !== 'string') return failure('Invalid arguments: repo must be a string.', 'INVALID_ARGUMENTS');
      if (named !== undefined && !visible.includes(named)) return failure(unknownRepoText(named, visible));
      if (tool.name === 'index_status') return statusResult(await freshness(db, named ? [named] : visible, SCHEMA_VERSION), visible);
      const repo = named ?? (visible.length === 1 ? visible[0] : undefined);
      if (repo === undefined) return failure(noRepoText(visible));
      if (commit !== undefined && !isCommitArgument(commit)) return failure(BAD_COMMIT_TEXT, 'INVALID_ARGUMENTS');
      let shard = await pickShard(db, repo, commit as string | undefined);
      if ('error' in shard) return failure(shard.error, 'INDEX_MISSING');
      if (commit !== undefined) await notePinned(db, repo, shard.commit);
      let lost = '';
      let lease: ShardLease | undefined;
      // A lost shard is reported, marked broken (so it is not served) and rebuilt; the previous ready commit answers meanwhile.
      for (let tries = 0; !lease; tries++) {
        try {
          lease = await cache.acquire(shard);
        } catch (error) {
          if (!isShardLoss(error) || !repair || tries >= 3) throw error;
          await repair(shard, error);
          lost += `${lost ? ' ' : ''}${shardLossText(shard, error)}`;
          if (commit !== undefined) return failure(`${lost} Call again once it is rebuilt (index_status), or omit commit to use the served one.`, 'INDEX_MISSING');
          const previous = await pickShard(db, repo, undefined);
          if ('error' in previous) return failure(`${lost} No other commit of ${repo} is ready.`, 'INDEX_MISSING');
          shard = previous;
        }
      }
      try {
        const result = await run(new RepositorySet([lease.handle]), { ...args, repo });
        const note = `${lost ? `[${lost} Answered from the previous ready commit meanwhile.]\n` : ''}[answered from ${repo} at commit ${shard.commit}]`;
        return { ...result, text: `${result.text}\n${note}`, meta: { 'reponav/repo': repo, 'reponav/commit': shard.commit } };
      } finally {
        lease.release();
      }
    },
  };
}

/** The answer for a repository the token cannot see — the same whether or not it exists. */
export function unknownRepoText(named: string, visible: readonly string[]): string {
  return `Unknown repo '${named.slice(0, 200)}'; ${quotedList(visible)}.`;
}

/** The answer when no repository is named and the token sees none or several. */
export function noRepoText(visible: readonly string[]): string {
  return visible.length === 0 ? 'No repository is visible to this token.' : `Several repositories are served; pass repo as one of ${visible.map((n) => `'${n}'`).join(', ')}.`;
}

export const BAD_COMMIT_TEXT = 'Invalid arguments: commit must be 7 to 40 hex digits.';

/** A commit a caller may name: a full id or a prefix of at least 7 hex digits. */
export function isCommitArgument(commit: unknown): commit is string {
  return typeof commit === 'string' && /^[0-9a-f]{7,40}$/i.test(commit);
}

/** The shard that answers for `repo`: the newest ready one on the tracked branch, or the one `commit` names (never a purged one). */
export async function pickShard(db: Queryable, repo: string, commit: string | undefined): Promise<ShardRecord | { error: string }> {
  if (commit === undefined) {
    const newest = await newestReadyShard(db, repo, SCHEMA_VERSION);
    if (newest) return newest;
    const [f] = await freshness(db, [repo], SCHEMA_VERSION);
    const headPurged = f?.headCommit ? await purgedCommit(db, repo, f.headCommit) : null;
    if (headPurged) return { error: `${purgedText(repo, headPurged)} It is the branch head and no commit it contains is indexed; force-push it away.` };
    const why = f?.headError
      ? `its branch head could not be read (${f.headError})`
      : f?.headCommit
        ? `the build of its branch head ${f.headCommit.slice(0, 12)} is queued`
        : 'its branch has not been read yet';
    return { error: `Repository '${repo}' has no index yet: ${why}. Call index_status to follow it.` };
  }
  const purged = await purgedCommit(db, repo, commit.toLowerCase());
  if (purged) return { error: purgedText(repo, purged) };
  const found = await readyShardsByPrefix(db, repo, commit.toLowerCase(), SCHEMA_VERSION);
  if (found.length === 1) return found[0];
  if (found.length > 1) return { error: `Commit prefix '${commit}' is ambiguous in '${repo}'; give more digits.` };
  return { error: `Commit '${commit}' of '${repo}' has no index: it was never seen on the tracked branch or is not built yet. Call index_status for the served commit.` };
}

function statusResult(rows: RepoFreshness[], visible: readonly string[]): ToolCallResult {
  const lines = rows.map((r) => `${r.repo} (${r.branch}): ${freshnessText(r)}`);
  const data = {
    repositories: [...visible],
    statuses: rows.map((r) => ({
      repository: r.repo,
      branch: r.branch,
      servedCommit: r.servedCommit,
      headCommit: r.headCommit,
      upToDate: !!r.headCommit && r.servedCommit === r.headCommit && !r.headError,
      headError: r.headError,
      lastError: r.lastError,
      // Whole seconds, and unknown while the head cannot be read, as fleet list and /api/info give them.
      lagCommits: r.headError ? null : r.lagCommits,
      lagSeconds: r.headError ? null : Math.round(r.lagSeconds),
    })),
  };
  return { text: lines.length ? lines.join('\n') : 'No repository is visible to this token.', isError: false, data };
}
