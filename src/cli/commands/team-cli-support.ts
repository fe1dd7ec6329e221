/**
 * What the team commands share: loading the team layer only when one runs,
 * opening its database, printing to stdout (a closed pipe, as in
 * `fleet list | head`, ends the command quietly instead of with EPIPE).
 */
import { ReponavError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { cliLogger } from '../cli-context.js';
import type { CliIo } from '../cli-io.js';

export type Team = typeof import('../../team/index.js');
export type TeamDb = InstanceType<Team['TeamDatabase']>;

export interface CommonOptions {
  pg?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export const PG_HELP = 'PostgreSQL URL (default: $REPONAV_PG_URL)';

let pipeWatched = false;

/** Writes one line to a run's stdout. */
export type LinePrinter = (line: string) => void;

/**
 * A printer of lines on `io`'s stdout. On the process's own stdout a reader
 * that went away (EPIPE: `reponav fleet list | head -1`) ends the process with
 * status 0, as for any Unix filter.
 */
export function linePrinter(io: CliIo): LinePrinter {
  return (line) => {
    if (io.stdout === process.stdout && !pipeWatched) {
      pipeWatched = true;
      process.stdout.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(0);
        throw error;
      });
    }
    io.stdout.write(`${line}\n`);
  };
}

/** The team server's PostgreSQL driver, job queue and metrics: optional peers, absent from a single-user install. */
const TEAM_PACKAGES = ['pg', 'pg-boss', 'prom-client'];

/**
 * The team layer. When `pg`, `pg-boss` or `prom-client` is not installed the import fails; the
 * command then stops with one sentence naming the install command instead of a
 * module-resolution stack.
 */
export async function loadTeam(): Promise<Team> {
  try {
    return await import('../../team/index.js');
  } catch (error) {
    const code = (error as { code?: string })?.code;
    const message = error instanceof Error ? error.message : String(error);
    const missing = TEAM_PACKAGES.find((name) => message.includes(`'${name}'`) || message.includes(`"${name}"`));
    if (!missing || (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND')) throw error;
    throw new ReponavError(
      'INSTALLATION_INCOMPLETE',
      `The team server (fleet, worker, serve) needs the optional packages pg, pg-boss and prom-client, and ${missing} is not installed: ` +
        'run `npm install pg@8 pg-boss@10 prom-client@15` next to reponav (`npm install -g pg@8 pg-boss@10 prom-client@15` for a global install).',
      { missingPackage: missing },
    );
  }
}

/** Loads the team layer, opens the database and checks its schema (unless `migrating`), runs `work`, closes. */
export async function withTeam<T>(options: CommonOptions, io: CliIo, work: (team: Team, db: TeamDb, logger: Logger) => Promise<T>, migrating = false): Promise<T> {
  const team = await loadTeam();
  const logger = cliLogger(options, io);
  // A one-shot command gives up on an unreachable database after a few seconds (workers and servers wait longer).
  const db = new team.TeamDatabase(team.resolvePgUrl(options.pg), logger, { retryMs: 3_000 });
  try {
    if (!migrating) await team.requireMigrated(db);
    return await work(team, db, logger);
  } finally {
    await db.close();
  }
}

/** "12 s ago", "3 min ago", for times in listings. */
export function ago(at: Date | string | null | undefined): string {
  if (!at) return '-';
  const s = Math.max(0, Math.round((Date.now() - new Date(at).getTime()) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}
