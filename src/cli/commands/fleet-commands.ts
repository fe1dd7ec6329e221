/**
 * `reponav fleet …`: migrations, the repository catalog, tokens, branch sync,
 * rebuilds, and what the fleet is doing (list, jobs).
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { commaList, seconds } from '../option-parsers.js';
import { parseAddEntries } from './fleet-add-list.js';
import { ago, linePrinter, PG_HELP, withTeam, type CommonOptions, type LinePrinter, type Team, type TeamDb } from './team-cli-support.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';
import { countOf } from '../../plural.js';

const RETRIES_HELP = 'retries of a failed build before later polls take over (default 3)';

/** Queue settings of the builds a command queues. */
interface QueueFlags {
  lease?: number;
  retries?: number;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('Give a whole number (0 or more).');
  return n;
}

/** `--expires` in seconds: `90d`, `12h`, `2w`, or `never` (0: commander turns a null option value into ''). */
function expiry(value: string): number {
  if (value === 'never') return 0;
  const match = /^(\d{1,5})([hdw])$/.exec(value);
  const n = match ? Number(match[1]) : 0;
  if (!match || n === 0) throw new InvalidArgumentError("Give a time such as 90d, 12h or 2w (hours, days, weeks), or 'never'.");
  return n * { h: 3600, d: 86_400, w: 604_800 }[match[2] as 'h' | 'd' | 'w'];
}

/** A time as the token list prints it: UTC to the minute. */
function utcMinute(at: Date | string): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}

const STORE_HELP = 'shard store: postgres, or the shared folder (default: $REPONAV_SHARD_STORE)';

/** Registers `reponav fleet`. */
export function registerFleetCommand(program: Command, io: CliIo = PROCESS_IO): void {
  const print = linePrinter(io);
  const fleet = program.command('fleet').description('manage the team server: database migrations, the repository catalog, tokens, branch sync, rebuilds, jobs');
  const common = (c: Command) => c.option('--pg <url>', PG_HELP).option('-q, --quiet', 'log only errors').option('--verbose', 'log debug messages');

  common(fleet.command('migrate').description("create or upgrade the team database schema (ours and the job queue's)")).action(async (options: CommonOptions) =>
    withTeam(
      options,
      io,
      async (team, db, logger) => {
        const applied = await team.migrate(db);
        const queue = await team.JobQueue.open(db, logger, { install: true });
        await queue.close();
        print(applied.length ? `applied migrations ${applied.join(', ')}; schema version ${team.TEAM_SCHEMA_VERSION}` : `schema is up to date (version ${team.TEAM_SCHEMA_VERSION})`);
      },
      true,
    ),
  );

  common(
    fleet
      .command('add [name-url-pairs...]')
      .description('add repositories (NAME URL: a clone URL or a path git can fetch; several pairs, or --from FILE) to the catalog, or update them, and queue their first builds')
      .option('--from <file>', 'add the repositories listed in FILE, one NAME URL [BRANCH [GROUPS]] per line (# comments)')
      .option('--branch <branch>', 'the tracked branch (of each entry that names none)', 'main')
      .option('--groups <groups>', 'access groups that may see them, comma-separated (of each entry that names none)', commaList('group'))
      .option('--lease <seconds>', 'job lease: a build whose worker stops renewing it this long is retried by another worker', seconds)
      .option('--retries <n>', RETRIES_HELP, count)
      .option('--no-sync', "do not read the branch heads now (the workers' next poll pass reads them and queues the builds)"),
  ).action(async (pairs: string[], options: CommonOptions & QueueFlags & { from?: string; branch: string; groups?: string[]; sync: boolean }) =>
    withTeam(options, io, async (team, db, logger) => {
      const entries = parseAddEntries(pairs, options.from === undefined ? null : readAddFile(options.from), { branch: options.branch, groups: options.groups });
      const done = await team.addRepos(db, entries);
      entries.forEach((e, i) => print(`${done[i]} ${e.name} (${e.branch}; groups ${e.groups.join(', ')})`));
      if (options.sync) await syncAndPrint(team, db, logger, entries.map((e) => e.name), options, print);
    }),
  );

  common(
    fleet
      .command('remove <name>')
      .description("remove a repository: its queued builds, its shards in the store, its registry rows (workers delete their mirrors of it at their next sweep)")
      .option('--store <store>', STORE_HELP),
  ).action(async (name: string, options: CommonOptions & { store?: string }) =>
    withTeam(options, io, async (team, db, logger) => {
      const store = team.openShardStore(options.store, db);
      const queue = await team.JobQueue.open(db, logger);
      try {
        const removed = await team.removeRepoEverywhere(db, queue, store, name);
        if (!removed) throw notInCatalog(name);
        print(`removed ${name}: ${countOf(removed.shards, 'shard')} deleted from ${store.description}, ${countOf(removed.jobs, 'job')} cancelled`);
      } finally {
        await queue.close();
      }
    }),
  );

  common(fleet.command('list').description('per repository: served commit, branch head, lag, state, last error, retries left; live workers and servers; jobs').option('--json', 'print JSON')).action(
    async (options: CommonOptions & { json?: boolean }) => withTeam(options, io, async (team, db, logger) => listFleet(team, db, logger, !!options.json, print)),
  );

  common(fleet.command('jobs').description('failed, waiting and running build jobs with their worker and error').option('--json', 'print JSON').option('--all', 'also completed jobs, and failed ones of commits built since')).action(
    async (options: CommonOptions & { json?: boolean; all?: boolean }) => withTeam(options, io, async (team, db, logger) => listJobs(team, db, logger, options, print)),
  );

  common(
    fleet
      .command('sync [names...]')
      .description('read the tracked branch heads now and queue builds of heads without a ready shard, failed ones included (all repositories, or those named)')
      .option('--lease <seconds>', 'job lease of the queued builds', seconds)
      .option('--retries <n>', RETRIES_HELP, count),
  ).action(async (names: string[], options: CommonOptions & QueueFlags) =>
    withTeam(options, io, async (team, db, logger) => syncAndPrint(team, db, logger, names.length ? names : undefined, options, print)),
  );

  common(
    fleet
      .command('rebuild <name>')
      .description('build a repository again now: its branch head, or --commit (a full id, or a prefix of a commit it has seen), even when a shard exists')
      .option('--commit <sha>', 'the commit to rebuild')
      .option('--lease <seconds>', 'job lease of the queued build', seconds)
      .option('--retries <n>', RETRIES_HELP, count),
  ).action(async (name: string, options: CommonOptions & QueueFlags & { commit?: string }) =>
    withTeam(options, io, async (team, db, logger) => {
      const repo = await catalogRepo(team, db, name);
      const commit = await rebuildTarget(team, db, repo, options.commit);
      const purged = await team.purgedCommit(db, name, commit);
      if (purged) throw new ReponavError('BAD_INPUT', team.purgedText(name, purged));
      await team.recordSeen(db, name, commit);
      const queue = await team.JobQueue.open(db, logger);
      try {
        const queued = await queue.enqueue({ repo: name, commit, force: true }, { leaseSeconds: options.lease, retryLimit: options.retries });
        print(queued ? `queued a rebuild of ${name}@${commit.slice(0, 12)}` : `a build of ${name}@${commit.slice(0, 12)} is already queued or running`);
      } finally {
        await queue.close();
      }
    }),
  );

  common(
    fleet
      .command('purge <name>')
      .description(
        "delete one commit's index everywhere (a leaked secret): its shards in the store, each server's cached copy, its registry rows and pins, its queued builds; it is refused from then on (pins, webhooks, polls, rebuilds)",
      )
      .requiredOption('--commit <sha>', 'the commit to purge: a full id, or a prefix of a commit the repository has seen')
      .option('--store <store>', STORE_HELP)
      .option('--json', 'print JSON'),
  ).action(async (name: string, options: CommonOptions & { commit: string; store?: string; json?: boolean }) =>
    withTeam(options, io, async (team, db, logger) => {
      const repo = await catalogRepo(team, db, name);
      const commit = (await team.purgedCommit(db, name, options.commit.toLowerCase())) ?? (await rebuildTarget(team, db, repo, options.commit));
      const store = team.openShardStore(options.store, db);
      const queue = await team.JobQueue.open(db, logger);
      try {
        const result = await team.purgeCommit(db, queue, store, name, commit);
        if (options.json) return print(JSON.stringify({ ...result, store: store.description }, null, 2));
        print(
          `purged ${name}@${commit.slice(0, 12)}${result.alreadyPurged ? ' (purged before)' : ''}: ${countOf(result.shards, 'shard')} deleted from ${store.description}, ` +
            `${countOf(result.registryRows, 'registry row')} dropped, ${countOf(result.jobs, 'job')} cancelled; servers drop it from their caches and refuse it from now on`,
        );
        if (repo.headCommit === commit) print(`${name}'s branch head is this commit: force-push it away, then run reponav fleet sync ${name}`);
      } finally {
        await queue.close();
      }
    }),
  );

  const token = fleet.command('token').description('create, list or revoke bearer tokens for reponav serve');
  common(
    token
      .command('create <name>')
      .description('create a token limited to access groups; prints it once (only its hash is stored)')
      .requiredOption('--groups <groups>', 'access groups, comma-separated', commaList('group'))
      .addOption(new Option('--expires <time>', "expire after this long: 90d, 12h, 2w, or 'never'").argParser(expiry).default(90 * 86_400, '90d')),
  ).action(async (name: string, options: CommonOptions & { groups: string[]; expires: number }) =>
    withTeam(options, io, async (team, db) => print(await team.createToken(db, name, options.groups, options.expires === 0 ? null : options.expires))),
  );
  common(token.command('list').description('every token by name and groups, with its creation, expiry and last use (never the token itself)').option('--json', 'print JSON')).action(async (options: CommonOptions & { json?: boolean }) =>
    withTeam(options, io, async (team, db) => {
      const tokens = await team.listTokens(db);
      if (options.json) return print(JSON.stringify(tokens, null, 2));
      for (const t of tokens) {
        const expires = t.expiresAt === null ? 'expires never' : `${t.expired ? 'expired' : 'expires'} ${utcMinute(t.expiresAt)}`;
        const used = t.lastUsedAt === null ? 'never used' : `last used ${utcMinute(t.lastUsedAt)}`;
        print(`${t.name}  groups=${t.groups.join(',')}  created ${utcMinute(t.createdAt)}  ${expires}  ${used}${t.revokedAt ? `  revoked ${utcMinute(t.revokedAt)}` : ''}`);
      }
      const active = tokens.filter((t) => !t.revokedAt && !t.expired).length;
      print(`${active} active token(s), ${tokens.filter((t) => !t.revokedAt && t.expired).length} expired, ${tokens.filter((t) => t.revokedAt).length} revoked`);
    }),
  );
  common(token.command('revoke <name>').description('revoke the active token with this name')).action(async (name: string, options: CommonOptions) =>
    withTeam(options, io, async (team, db) => print(`revoked ${await team.revokeToken(db, name)} token(s)`)),
  );
}

/** The error of a command naming a repository the catalog does not hold. */
function notInCatalog(name: string): ReponavError {
  return new ReponavError('BAD_INPUT', `No repository '${name}' in the catalog; see reponav fleet list.`);
}

/** The catalog's row of `name`; throws {@link notInCatalog} when there is none. */
async function catalogRepo(team: Team, db: TeamDb, name: string): Promise<NonNullable<Awaited<ReturnType<Team['getRepo']>>>> {
  const repo = await team.getRepo(db, name);
  if (!repo) throw notInCatalog(name);
  return repo;
}

/** The text of `--from FILE`, or one sentence saying why it cannot be read. */
function readAddFile(path: string): { name: string; text: string } {
  try {
    return { name: path, text: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new ReponavError('BAD_INPUT', `Cannot read --from ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
}

/** The full commit a rebuild names: the branch head, or a seen commit by full id or unique prefix (a full id not seen yet is taken as given). */
async function rebuildTarget(team: Team, db: TeamDb, repo: { name: string; headCommit?: string | null }, commit: string | undefined): Promise<string> {
  if (commit === undefined) {
    if (!repo.headCommit) throw new ReponavError('BAD_INPUT', `The branch head of '${repo.name}' has not been read yet; run reponav fleet sync ${repo.name} first, or give --commit.`);
    return repo.headCommit;
  }
  if (!/^[0-9a-f]{7,40}$/i.test(commit)) throw new ReponavError('BAD_INPUT', `--commit must be 7 to 40 hex digits, not '${commit.slice(0, 60)}'.`);
  const found = await team.seenCommitsByPrefix(db, repo.name, commit.toLowerCase());
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new ReponavError('BAD_INPUT', `Commit prefix '${commit}' is ambiguous in '${repo.name}'; give more digits.`);
  if (commit.length === 40) return commit.toLowerCase();
  throw new ReponavError('BAD_INPUT', `No commit of '${repo.name}' starts with '${commit}'; give the full 40-digit id.`);
}

async function syncAndPrint(team: Team, db: TeamDb, logger: Logger, names: string[] | undefined, flags: QueueFlags, print: LinePrinter): Promise<void> {
  const queue = await team.JobQueue.open(db, logger);
  try {
    const result = await team.pollOnce(db, queue, { repos: names, logger, leaseSeconds: flags.lease, retryLimit: flags.retries, now: true });
    for (const job of result.enqueued) print(`queued ${job.repo}@${job.commit.slice(0, 12)}`);
    for (const f of result.failed) print(`could not read ${f.repo}: ${f.reason}`);
    print(`checked ${result.checked}, queued ${result.enqueued.length}`);
  } finally {
    await queue.close();
  }
}

/**
 * One repository's state word: error (head unreadable), ready (up to date), and
 * while the head's build is not served: queued (waiting for a worker), building
 * (a worker runs it), retrying, failed (its retries spent); behind (no build of
 * the head in the queue), new (no head read yet).
 */
function repoState(f: import('../../team/index.js').RepoFreshness | undefined, job: import('../../team/index.js').JobRow | undefined): string {
  if (!f) return 'new';
  if (f.headError) return 'error';
  if (f.headCommit && f.servedCommit === f.headCommit) return 'ready';
  if (job && job.commit === f.headCommit) return headJobState(job.state);
  return f.headCommit ? 'behind' : 'new';
}

/** The state word of a repository whose newest job builds its unserved head. */
function headJobState(state: import('../../team/index.js').JobRow['state']): string {
  switch (state) {
    case 'created':
      return 'queued';
    case 'active':
      return 'building';
    case 'retry':
      return 'retrying';
    case 'failed':
      return 'failed';
    case 'completed':
    case 'cancelled':
      return 'behind';
  }
}

async function listFleet(team: Team, db: TeamDb, logger: Logger, json: boolean, print: LinePrinter): Promise<void> {
  const repos = await team.listRepos(db, undefined, { invalid: true });
  const { SCHEMA_VERSION } = await import('../../index/index.js');
  const fresh = new Map((await team.freshness(db, repos.map((r) => r.name), SCHEMA_VERSION)).map((f) => [f.repo, f]));
  const nodes = await team.listNodes(db);
  const queue = await team.JobQueue.open(db, logger);
  const jobs = await queue.counts();
  const latest = await queue.latestJobs();
  await queue.close();
  const rows = repos.map((r) => {
    const f = fresh.get(r.name);
    const job = latest.get(r.name);
    const valid = team.isCatalogName(r.name);
    const state = valid ? repoState(f, job) : 'invalid-name';
    // The same last error index_status and /api/info give (freshness: the head unreadable, else its build failing).
    const lastError = !valid
      ? { message: 'not a valid catalog name (a logical name, not a path): never served or built; remove it with reponav fleet remove and add it under a valid name', at: null }
      : (f?.lastError ?? null);
    const retriesLeft = job && job.state !== 'completed' ? Math.max(0, job.retryLimit - job.retryCount) : null;
    return {
      name: r.name, url: r.url, branch: r.branch, groups: r.groups, state,
      servedCommit: f?.servedCommit ?? null, headCommit: f?.headCommit ?? null, headCheckedAt: f?.headCheckedAt ?? null,
      lagCommits: f?.headError ? null : (f?.lagCommits ?? 0), lagSeconds: f?.headError ? null : Math.round(f?.lagSeconds ?? 0),
      lastError, retriesLeft, job: job ? { id: job.id, state: job.state, commit: job.commit } : null,
    };
  });
  if (json) return print(JSON.stringify({ repositories: rows, nodes, jobs }, null, 2));
  for (const r of rows) {
    const short = (c: string | null) => (c ? c.slice(0, 12) : '-');
    const lag = r.lagCommits === null ? 'lag=?' : `lag=${r.lagCommits}${r.lagCommits ? ` (${r.lagSeconds} s)` : ''}`;
    const error = r.lastError ? `  error: ${r.lastError.message} (${ago(r.lastError.at)})` : '';
    const retries = r.retriesLeft !== null && r.state !== 'ready' ? `  retries left ${r.retriesLeft}` : '';
    print(`${r.name}  ${r.branch}  ${r.state}  groups=${r.groups.join(',')}  served=${short(r.servedCommit)}  head=${short(r.headCommit)}  ${lag}${retries}${error}`);
  }
  print(`${countOf(repos.length, 'repository', 'repositories')}; jobs: ${Object.entries(jobs).map(([k, v]) => `${k} ${v}`).join(', ')} (details: reponav fleet jobs)`);
  for (const n of nodes) {
    print(n.alive ? `${n.kind} ${n.id} (beat ${ago(n.beatAt)}) ${JSON.stringify(n.info)}` : `${n.kind} ${n.id} DEAD (last beat ${ago(n.beatAt)}; listed until ${team.FORGET_AFTER_SECONDS / 60} min after it) ${JSON.stringify(n.info)}`);
  }
}

async function listJobs(team: Team, db: TeamDb, logger: Logger, options: { json?: boolean; all?: boolean }, print: LinePrinter): Promise<void> {
  const queue = await team.JobQueue.open(db, logger);
  // Without --all, a failed job of a commit built since is history, not something to repair.
  const jobs = options.all
    ? await queue.jobs(['created', 'retry', 'active', 'failed', 'completed'], 200, team.DEAD_AFTER_SECONDS)
    : await queue.jobs(['created', 'retry', 'active', 'failed'], 200, team.DEAD_AFTER_SECONDS, false);
  await queue.close();
  // Who runs an active job: the live worker whose row names it (read with the job); none means the worker is gone and the lease will run out.
  const rows = jobs.map((j) => ({ ...j, workerGone: j.state === 'active' && j.worker === null }));
  if (options.json) return print(JSON.stringify({ jobs: rows }, null, 2));
  for (const j of rows) {
    const what = `${j.state.padEnd(9)} ${j.repo}@${j.commit.slice(0, 12)}  try ${j.retryCount + 1} of ${j.retryLimit + 1}`;
    const where =
      j.state === 'active'
        ? j.workerGone
          ? `  worker stopped heart-beating; lease ends ${j.expiresAt ? `in ${Math.max(0, Math.round((new Date(j.expiresAt).getTime() - Date.now()) / 1000))} s` : 'soon'}, then it is retried`
          : `  on ${j.worker}`
        : j.state === 'retry' || j.state === 'created'
          ? `  starts ${new Date(j.startAfter).getTime() > Date.now() ? `in ${Math.round((new Date(j.startAfter).getTime() - Date.now()) / 1000)} s` : 'now'}`
          : `  ${j.state === 'failed' ? 'failed' : 'done'} ${ago(j.completedOn)}`;
    print(`${what}${where}${j.error ? `  error: ${j.error}` : ''}`);
  }
  print(`${countOf(rows.length, 'job')}${rows.some((j) => j.state === 'failed') ? '; queue failed ones again with: reponav fleet sync' : ''}`);
}
