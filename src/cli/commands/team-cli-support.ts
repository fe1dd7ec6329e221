/**
 * What the team commands share: loading the team layer only when one runs,
 * opening its database, printing to stdout (a closed pipe, as in
 * `fleet list | head`, ends the command quietly instead of with EPIPE).
 */
import type { Logger } from '../../logger.js';
import { cliLogger } from '../cli-context.js';

export type Team = typeof import('../../team/index.js');
export type TeamDb = InstanceType<Team['TeamDatabase']>;

export interface CommonOptions {
  pg?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export const PG_HELP = 'PostgreSQL URL (default: $REPONAV_PG_URL)';

let pipeWatched = false;

/** Writes one line to stdout; a reader that went away (EPIPE) ends the process with status 0. */
export function print(line: string): void {
  if (!pipeWatched) {
    pipeWatched = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  process.stdout.write(`${line}\n`);
}

/** Loads the team layer, opens the database and checks its schema (unless `migrating`), runs `work`, closes. */
export async function withTeam<T>(options: CommonOptions, work: (team: Team, db: TeamDb, logger: Logger) => Promise<T>, migrating = false): Promise<T> {
  const team = await import('../../team/index.js');
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

/** "12 s ago", "3 min ago", for times in listings. */
export function ago(at: Date | string | null | undefined): string {
  if (!at) return '-';
  const s = Math.max(0, Math.round((Date.now() - new Date(at).getTime()) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}
