/**
 * The team server's long-running commands: `reponav worker` and `reponav
 * serve` (`reponav fleet …` is in fleet-commands.ts). The team code (and with it
 * the PostgreSQL driver and the job queue) is imported only when one of these
 * runs, so no other command needs or loads PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { createStderrLogger } from '../../logger.js';
import { readPackageVersion } from '../package-info.js';
import { collect, fileSize, port, seconds } from '../option-parsers.js';
import { loadTeam, PG_HELP, type CommonOptions, type Team, type TeamDb } from './team-cli-support.js';
import { PROCESS_IO, type CliIo } from '../cli-io.js';

/** Retention defaults of reponav worker (DEFAULT_RETENTION in src/team/retention.ts, repeated so --help needs no team code). */
const DEFAULT_KEEP = 5;
const DEFAULT_PINNED_DAYS = 7;

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('Give a whole number of at least 1.');
  return n;
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

/** Log level of the long-running processes: one line per job and per problem by default. */
function processLogger(options: CommonOptions, io: CliIo): Logger {
  return createStderrLogger(options.verbose ? 'debug' : options.quiet ? 'error' : 'info', io.stderr);
}

/** Checks the schema, saying every few seconds that it is still waiting while PostgreSQL does not answer. */
async function waitForDatabase(team: Team, db: TeamDb, logger: Logger): Promise<void> {
  const started = Date.now();
  const timer = setInterval(() => logger.warn(`waiting for PostgreSQL at ${team.redactUrl(db.url)} (${Math.round((Date.now() - started) / 1000)} s so far)…`), 5_000);
  try {
    await team.requireMigrated(db);
  } finally {
    clearInterval(timer);
  }
}

/** Registers `reponav worker`. */
export function registerWorkerCommand(program: Command, io: CliIo = PROCESS_IO): void {
  program
    .command('worker')
    .description('take index jobs from the team queue: fetch, build or update the shard, upload, register (runs until stopped)')
    .option('--pg <url>', PG_HELP)
    .option('--store <store>', 'shard store: postgres, or a folder shared by workers and servers (default: $REPONAV_SHARD_STORE)')
    .option('--work-dir <dir>', "this worker's own folder for git mirrors and commit indexes (default: <cache>/team-worker-<host>, kept across restarts)")
    .option('--poll <seconds>', 'poll tracked branches this often (0: never)', seconds, 30)
    .option('--lease <seconds>', "lease of the jobs this worker's poller queues (default 60, renewed every third while a build runs)", seconds)
    .option('--retries <n>', "retries of a failed build this worker's poller queues, before later polls queue it again (default 3)", (v: string) => positiveInt(String(Number(v) + 1)) - 1)
    .option('--maintenance <seconds>', 'how often expired leases are detected and retried', seconds, 30)
    .option('--keep <n>', 'retention: ready commits kept per branch (older shards are deleted)', positiveInt, DEFAULT_KEEP)
    .option('--keep-pinned-days <days>', 'retention: also keep commits a client named in this many days', positiveInt, DEFAULT_PINNED_DAYS)
    .option('--metrics-port <port>', 'serve Prometheus metrics at http://HOST:PORT/metrics (needs a metrics token; default: no listener)', port)
    .option('--metrics-host <host>', 'bind address of the metrics listener', '127.0.0.1')
    .option('--metrics-token-file <file>', 'the bearer secret /metrics answers (default: $REPONAV_METRICS_TOKEN)')
    .option('-q, --quiet', 'log only errors')
    .option('--verbose', 'log debug messages')
    .action(async (options: CommonOptions & { store?: string; workDir?: string; poll: number; lease?: number; retries?: number; maintenance: number; keep: number; keepPinnedDays: number } & MetricsOptions) => {
      const team = await loadTeam();
      const { cacheDirectory } = await import('../../index/index.js');
      const logger = processLogger(options, io);
      keepAlive(logger);
      const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { applicationName: 'reponav-worker', max: team.WORKER_POOL_SIZE });
      await waitForDatabase(team, db, logger);
      const store = team.openShardStore(options.store, db);
      const queue = await team.JobQueue.open(db, logger, { supervise: true, maintenanceSeconds: Math.max(1, Math.round(options.maintenance)) });
      // Stable per host, so a restarted worker keeps its mirrors; half-built outputs of a crashed run are removed.
      const workDir = team.claimFolder(options.workDir ?? join(cacheDirectory(), `team-worker-${hostname()}`), ['out']);
      const retention = { keep: options.keep, pinnedDays: options.keepPinnedDays };
      const metricsToken = secretFrom(options.metricsTokenFile, process.env[team.METRICS_TOKEN_ENV], 'metrics token');
      if (options.metricsPort !== undefined && !metricsToken) {
        throw new ReponavError('BAD_INPUT', `--metrics-port needs a metrics token: pass --metrics-token-file FILE or set ${team.METRICS_TOKEN_ENV}.`);
      }
      const metrics = options.metricsPort !== undefined && metricsToken ? new team.TeamMetrics('worker', { db, queue, logger }) : undefined;
      const listener = metrics && metricsToken ? await team.startMetricsServer({ host: options.metricsHost, port: options.metricsPort!, metrics, token: metricsToken, logger }) : null;
      const worker = team.startWorker({ db, queue, store, workDir, logger, pollMs: options.poll * 1000, enqueue: { leaseSeconds: options.lease, retryLimit: options.retries }, retention, metrics });
      io.stderr.write(`reponav worker ${worker.id} on ${team.redactUrl(db.url)}, store ${store.description}, work folder ${workDir}${listener ? `, metrics at ${listener.url}` : ''}\n`);
      await untilSignal(async () => {
        await listener?.close();
        await worker.stop();
        await queue.close();
        await db.close();
        team.releaseFolder(workDir);
      });
    });
}

/** Registers `reponav serve`. */
export function registerServeCommand(program: Command, io: CliIo = PROCESS_IO): void {
  program
    .command('serve')
    .description('the stateless team server: MCP over Streamable HTTP (/mcp) for every catalog repository, bearer tokens from the team database')
    .option('--pg <url>', PG_HELP)
    .option('--store <store>', 'shard store: postgres, or the shared folder (default: $REPONAV_SHARD_STORE)')
    .option('--port <port>', 'port (0: any free port)', port, 7744)
    .option('--host <host>', 'bind address', '127.0.0.1')
    .option('--cache-dir <dir>', 'local shard cache folder, emptied at start (default: <cache>/team-serve-<host>)')
    // Option objects so --help shows '2g' and 'none', not 2147483648 and [].
    .addOption(new Option('--cache-size <size>', 'largest total size of cached shards (e.g. 500m, 4g)').argParser(fileSize).default(2 * 1024 ** 3, '2g'))
    .addOption(new Option('--store-min-free <size>', '/healthz answers 503 when the shard store folder has less free space than this').argParser(fileSize).default(1024 ** 3, '1g'))
    .addOption(new Option('--allow-origin <origin>', 'also accept requests from this browser Origin (repeatable; others are refused with 403)').argParser(collect).default([], 'none'))
    .option('--webhook-secret-file <file>', 'accept signed push events at /webhook with the secret in this file (default: $REPONAV_WEBHOOK_SECRET; neither: no webhook)')
    .option('--lease <seconds>', 'lease of the jobs the webhook queues', seconds)
    .option('--metrics-token-file <file>', 'serve Prometheus metrics at /metrics to this bearer secret (default: $REPONAV_METRICS_TOKEN; neither: /metrics is off)')
    .option('-q, --quiet', 'log only errors')
    .option('--verbose', 'log debug messages')
    .action(async (options: CommonOptions & { store?: string; port: number; host: string; cacheDir?: string; cacheSize: number; storeMinFree: number; allowOrigin: string[]; webhookSecretFile?: string; lease?: number; metricsTokenFile?: string }) => {
      const team = await loadTeam();
      const { cacheDirectory } = await import('../../index/index.js');
      const logger = processLogger(options, io);
      keepAlive(logger);
      const secret = secretFrom(options.webhookSecretFile, process.env[team.WEBHOOK_SECRET_ENV], 'webhook secret');
      const metricsToken = secretFrom(options.metricsTokenFile, process.env[team.METRICS_TOKEN_ENV], 'metrics token');
      const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { applicationName: 'reponav-serve', max: 8 });
      await waitForDatabase(team, db, logger);
      const store = team.openShardStore(options.store, db);
      const server = await team.startTeamServer({
        db,
        store,
        cacheDir: team.claimFolder(options.cacheDir ?? join(cacheDirectory(), `team-serve-${hostname()}`)),
        cacheBytes: options.cacheSize,
        storeMinFreeBytes: options.storeMinFree,
        port: options.port,
        host: options.host,
        allowedOrigins: options.allowOrigin,
        webhook: secret ? { secret, enqueue: { leaseSeconds: options.lease } } : undefined,
        metricsToken,
        version: readPackageVersion(),
        logger,
      });
      io.stderr.write(`reponav serve ${server.id}: MCP at ${server.url}/mcp, web view at ${server.url}/, ${secret ? `webhook at ${server.url}/webhook, ` : ''}${metricsToken ? `metrics at ${server.url}/metrics, ` : ''}store ${store.description}\n`);
      await untilSignal(async () => {
        await server.close();
        await db.close();
      });
    });
}

/** The metrics options of `worker`. */
interface MetricsOptions {
  metricsPort?: number;
  metricsHost: string;
  metricsTokenFile?: string;
}

/** A secret (`what`: webhook secret, metrics token) from a file (trailing newline dropped) or the environment; undefined when neither is given. */
function secretFrom(file: string | undefined, env: string | undefined, what: string): string | undefined {
  if (file === undefined) return env?.trim() || undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ReponavError('BAD_INPUT', `Cannot read the ${what} file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  if (text.length < 16) throw new ReponavError('BAD_INPUT', `The ${what} in ${file} is shorter than 16 characters; use a long random string.`);
  return text;
}
