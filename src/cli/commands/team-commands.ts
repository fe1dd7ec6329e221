/**
 * The team server's commands: `reponav fleet …` (migrations, catalog, tokens,
 * sync), `reponav worker` and `reponav serve`. The team code (and with it
 * the PostgreSQL driver and the job queue) is imported only when one of these
 * runs, so no other command needs or loads PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { cliLogger } from '../cli-context.js';
import { readPackageVersion } from '../package-info.js';
import { collect, commaList, fileSize, port, seconds } from '../option-parsers.js';

type Team = typeof import('../../team/index.js');

interface CommonOptions {
  pg?: string;
  quiet?: boolean;
  verbose?: boolean;
}

const PG_HELP = 'PostgreSQL URL (default: $REPONAV_PG_URL)';

/** The team server's PostgreSQL driver and job queue: optional peers, absent from a single-user install. */
const TEAM_PACKAGES = ['pg', 'pg-boss'];

/**
 * The team layer. When `pg` or `pg-boss` is not installed the import fails; the
 * command then stops with one sentence naming the install command instead of a
 * module-resolution stack.
 */
async function loadTeam(): Promise<Team> {
  try {
    return await import('../../team/index.js');
  } catch (error) {
    const code = (error as { code?: string })?.code;
    const message = error instanceof Error ? error.message : String(error);
    const missing = TEAM_PACKAGES.find((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`));
    if (!missing || (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND')) throw error;
    throw new ReponavError(
      'INSTALLATION_INCOMPLETE',
      `The team server (fleet, worker, serve) needs the optional packages pg and pg-boss, and ${missing} is not installed: ` +
        'run `npm install pg@8 pg-boss@10` next to reponav (`npm install -g pg@8 pg-boss@10` for a global install).',
      { missingPackage: missing },
    );
  }
}

/** Loads the team layer, opens the database and checks its schema (unless `migrating`), runs `work`, closes. */
async function withTeam<T>(options: CommonOptions, work: (team: Team, db: InstanceType<Team['TeamDatabase']>, logger: Logger) => Promise<T>, migrating = false): Promise<T> {
  const team = await loadTeam();
  const logger = cliLogger(options);
  // A one-shot command gives up on an unreachable database after a few seconds (workers and servers wait longer).
  const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { retryMs: 3_000 });
  try {
    if (!migrating) await team.requireMigrated(db);
    return await work(team, db, logger);
  } finally {
    await db.close();
  }
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Waits for SIGINT/SIGTERM, then runs `stop` once. */
function untilSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop().finally(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** Long-running processes log a stray rejection (a driver callback during a database restart) instead of dying. */
function keepAlive(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logger.warn(`unhandled: ${reason instanceof Error ? reason.message : String(reason)}`));
}

/** Registers `reponav fleet`. */
export function registerFleetCommand(program: Command): void {
  const fleet = program.command('fleet').description('manage the team server: database migrations, the repository catalog, tokens, branch sync');
  const common = (c: Command) => c.option('--pg <url>', PG_HELP).option('-q, --quiet', 'log only errors').option('--verbose', 'log debug messages');

  common(fleet.command('migrate').description('create or upgrade the team database schema (ours and the job queue\'s)')).action(async (options: CommonOptions) =>
    withTeam(
      options,
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
      .command('add <name> <url>')
      .description('add a repository (a clone URL or a path git can fetch) to the catalog, or update it, and queue its first build')
      .option('--branch <branch>', 'the tracked branch', 'main')
      .requiredOption('--groups <groups>', 'access groups that may see it, comma-separated', commaList('group'))
      .option('--lease <seconds>', 'job lease: a build still running this long is retried by another worker', seconds)
      .option('--no-sync', 'do not read the branch head and queue a build now'),
  ).action(async (name: string, url: string, options: CommonOptions & { branch: string; groups: string[]; lease?: number; sync: boolean }) =>
    withTeam(options, async (team, db, logger) => {
      const what = await team.addRepo(db, { name, url, branch: options.branch, groups: options.groups });
      print(`${what} ${name} (${options.branch}; groups ${options.groups.join(', ')})`);
      if (options.sync) await syncAndPrint(team, db, logger, [name], options.lease);
    }),
  );

  common(fleet.command('remove <name>').description('remove a repository from the catalog (its shard records go with it)')).action(async (name: string, options: CommonOptions) =>
    withTeam(options, async (team, db) => {
      if (!(await team.removeRepo(db, name))) throw new ReponavError('BAD_INPUT', `No repository '${name}' in the catalog; see reponav fleet list.`);
      print(`removed ${name}`);
    }),
  );

  common(fleet.command('list').description('the catalog with served commit, newest commit seen and lag; live workers and servers; queued jobs').option('--json', 'print JSON')).action(
    async (options: CommonOptions & { json?: boolean }) =>
      withTeam(options, async (team, db, logger) => {
        const repos = await team.listRepos(db);
        const { SCHEMA_VERSION } = await import('../../index/index.js');
        const fresh = new Map((await team.freshness(db, repos.map((r) => r.name), SCHEMA_VERSION)).map((f) => [f.repo, f]));
        const nodes = await team.liveNodes(db);
        const queue = await team.JobQueue.open(db, logger);
        const jobs = await queue.counts();
        await queue.close();
        if (options.json) {
          print(JSON.stringify({ repositories: repos.map((r) => ({ ...r, ...fresh.get(r.name) })), nodes, jobs }, null, 2));
          return;
        }
        for (const r of repos) {
          const f = fresh.get(r.name);
          const served = f?.servedCommit ? f.servedCommit.slice(0, 12) : '-';
          const seen = f?.newestSeenCommit ? f.newestSeenCommit.slice(0, 12) : '-';
          print(`${r.name}  ${r.branch}  groups=${r.groups.join(',')}  served=${served}  newest=${seen}  lag=${f?.lagCommits ?? 0}`);
        }
        print(`${repos.length} repositories; jobs: ${Object.entries(jobs).map(([k, v]) => `${k} ${v}`).join(', ')}`);
        for (const n of nodes) print(`${n.kind} ${n.id} (beat ${Math.round((Date.now() - new Date(n.beatAt).getTime()) / 1000)} s ago) ${JSON.stringify(n.info)}`);
      }),
  );

  common(
    fleet
      .command('sync [names...]')
      .description('read the tracked branch heads now and queue builds of new commits (all repositories, or those named)')
      .option('--lease <seconds>', 'job lease of the queued builds', seconds),
  ).action(async (names: string[], options: CommonOptions & { lease?: number }) =>
    withTeam(options, async (team, db, logger) => syncAndPrint(team, db, logger, names.length ? names : undefined, options.lease)),
  );

  const token = fleet.command('token').description('create or revoke bearer tokens for reponav serve');
  common(
    token
      .command('create <name>')
      .description('create a token limited to access groups; prints it once (only its hash is stored)')
      .requiredOption('--groups <groups>', 'access groups, comma-separated', commaList('group')),
  ).action(async (name: string, options: CommonOptions & { groups: string[] }) => withTeam(options, async (team, db) => print(await team.createToken(db, name, options.groups))));
  common(token.command('revoke <name>').description('revoke every token with this name')).action(async (name: string, options: CommonOptions) =>
    withTeam(options, async (team, db) => print(`revoked ${await team.revokeToken(db, name)} token(s)`)),
  );
}

async function syncAndPrint(team: Team, db: InstanceType<Team['TeamDatabase']>, logger: Logger, names: string[] | undefined, lease: number | undefined): Promise<void> {
  const queue = await team.JobQueue.open(db, logger);
  try {
    const result = await team.pollOnce(db, queue, { repos: names, logger, leaseSeconds: lease });
    for (const job of result.enqueued) print(`queued ${job.repo}@${job.commit.slice(0, 12)}`);
    for (const f of result.failed) print(`could not read ${f.repo}: ${f.reason}`);
    print(`checked ${result.checked}, queued ${result.enqueued.length}`);
  } finally {
    await queue.close();
  }
}

/** Registers `reponav worker`. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('take index jobs from the team queue: fetch, build or update the shard, upload, register (runs until stopped)')
    .option('--pg <url>', PG_HELP)
    .option('--store <store>', 'shard store: postgres, or a folder shared by workers and servers (default: $REPONAV_SHARD_STORE)')
    .option('--work-dir <dir>', 'this worker\'s own folder for git mirrors and commit indexes (default: <cache>/team-worker-<pid>)')
    .option('--poll <seconds>', 'poll tracked branches this often (0: never)', seconds, 30)
    .option('--lease <seconds>', 'lease of the jobs this worker\'s poller queues', seconds)
    .option('--maintenance <seconds>', 'how often expired leases are detected and retried', seconds, 30)
    .option('-q, --quiet', 'log only errors')
    .option('--verbose', 'log debug messages')
    .action(async (options: CommonOptions & { store?: string; workDir?: string; poll: number; lease?: number; maintenance: number }) => {
      const team = await loadTeam();
      const { cacheDirectory } = await import('../../index/index.js');
      const logger = cliLogger({ ...options, quiet: options.quiet, verbose: options.verbose });
      keepAlive(logger);
      const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { applicationName: 'reponav-worker' });
      await team.requireMigrated(db);
      const store = team.openShardStore(options.store, db);
      const queue = await team.JobQueue.open(db, logger, { supervise: true, maintenanceSeconds: Math.max(1, Math.round(options.maintenance)) });
      const workDir = options.workDir ?? join(cacheDirectory(), `team-worker-${process.pid}`);
      const worker = team.startWorker({ db, queue, store, workDir, logger, pollMs: options.poll * 1000, enqueue: { leaseSeconds: options.lease } });
      process.stderr.write(`reponav worker ${worker.id} on ${team.redactUrl(db.url)}, store ${store.description}\n`);
      await untilSignal(async () => {
        await worker.stop();
        await queue.close();
        await db.close();
      });
    });
}

/** Registers `reponav serve`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('the stateless team server: MCP over Streamable HTTP (/mcp) for every catalog repository, bearer tokens from the team database')
    .option('--pg <url>', PG_HELP)
    .option('--store <store>', 'shard store: postgres, or the shared folder (default: $REPONAV_SHARD_STORE)')
    .option('--port <port>', 'port (0: any free port)', port, 7744)
    .option('--host <host>', 'bind address', '127.0.0.1')
    .option('--cache-dir <dir>', 'local shard cache folder, emptied at start (default: <cache>/team-serve-<pid>)')
    // Option objects so --help shows '2g' and 'none', not 2147483648 and [].
    .addOption(new Option('--cache-size <size>', 'largest total size of cached shards (e.g. 500m, 4g)').argParser(fileSize).default(2 * 1024 ** 3, '2g'))
    .addOption(new Option('--allow-origin <origin>', 'also accept requests from this browser Origin (repeatable; others are refused with 403)').argParser(collect).default([], 'none'))
    .option('--webhook-secret-file <file>', 'accept signed push events at /webhook with the secret in this file (default: $REPONAV_WEBHOOK_SECRET; neither: no webhook)')
    .option('--lease <seconds>', 'lease of the jobs the webhook queues', seconds)
    .option('-q, --quiet', 'log only errors')
    .option('--verbose', 'log debug messages')
    .action(async (options: CommonOptions & { store?: string; port: number; host: string; cacheDir?: string; cacheSize: number; allowOrigin: string[]; webhookSecretFile?: string; lease?: number }) => {
      const team = await loadTeam();
      const { cacheDirectory } = await import('../../index/index.js');
      const logger = cliLogger(options);
      keepAlive(logger);
      const secret = webhookSecret(options.webhookSecretFile, process.env[team.WEBHOOK_SECRET_ENV]);
      const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { applicationName: 'reponav-serve', max: 8 });
      await team.requireMigrated(db);
      const store = team.openShardStore(options.store, db);
      const server = await team.startTeamServer({
        db,
        store,
        cacheDir: options.cacheDir ?? join(cacheDirectory(), `team-serve-${process.pid}`),
        cacheBytes: options.cacheSize,
        port: options.port,
        host: options.host,
        allowedOrigins: options.allowOrigin,
        webhook: secret ? { secret, enqueue: { leaseSeconds: options.lease } } : undefined,
        version: readPackageVersion(),
        logger,
      });
      process.stderr.write(`reponav serve ${server.id}: MCP at ${server.url}/mcp, web view at ${server.url}/, ${secret ? `webhook at ${server.url}/webhook, ` : ''}store ${store.description}\n`);
      await untilSignal(async () => {
        await server.close();
        await db.close();
      });
    });
}

/** The webhook secret from a file (trailing newline dropped) or the environment; undefined when neither is given. */
function webhookSecret(file: string | undefined, env: string | undefined): string | undefined {
  if (file === undefined) return env?.trim() || undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ReponavError('BAD_INPUT', `Cannot read the webhook secret file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  if (text.length < 16) throw new ReponavError('BAD_INPUT', `The webhook secret in ${file} is shorter than 16 characters; use a long random string.`);
  return text;
}
