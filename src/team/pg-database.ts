/**
 * The team server's PostgreSQL connection: one pool per process, from a URL
 * given on the command line or in REPONAV_PG_URL, surviving a database
 * restart (an idle connection's error is logged, not thrown; statements that
 * meet a dropped connection are retried on a fresh one).
 */
import pg from 'pg';
import * as z from '../zod-mini.js';
import { ReponavError } from '../errors.js';
import type { Logger } from '../logger.js';

/** The environment variable holding the connection URL. */
export const PG_URL_ENV = 'REPONAV_PG_URL';

const PgUrlSchema = z.string().check(z.regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://'));

/** The connection URL: the option, else REPONAV_PG_URL; throws BAD_INPUT when neither is a postgres URL. */
export function resolvePgUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const value = option ?? env[PG_URL_ENV];
  if (value === undefined || value === '') {
    throw new ReponavError('BAD_INPUT', `No PostgreSQL URL: pass --pg postgres://USER@HOST:PORT/DB or set ${PG_URL_ENV}.`);
  }
  const parsed = PgUrlSchema.safeParse(value);
  if (!parsed.success) throw new ReponavError('BAD_INPUT', `The PostgreSQL URL ${parsed.error.issues[0].message}.`);
  return value;
}

/** One statement's runner: a pool, or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** SQLSTATE classes and Node error codes that mean "the connection went away; try again on a new one". */
const TRANSIENT = /^(08|57P0[1-3]|53300)/;
const TRANSIENT_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** True for an error after which the same statement may succeed on a new connection. */
export function isTransientPgError(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && (TRANSIENT.test(e.code) || TRANSIENT_NODE.has(e.code))) return true;
  return /Connection terminated|connection .*closed|Client has encountered a connection error|terminating connection/i.test(e.message ?? '');
}

/** The team database of one process: a pool with retries. */
export class TeamDatabase implements Queryable {
  readonly pool: pg.Pool;
  /** How long a statement is retried across dropped connections by default. */
  private readonly retryMs: number;

  constructor(
    readonly url: string,
    private readonly logger: Logger,
    options: { max?: number; applicationName?: string; retryMs?: number } = {},
  ) {
    this.retryMs = options.retryMs ?? 30_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 4,
      application_name: options.applicationName ?? 'reponav',
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client's error (the server restarted) must not crash the process: the pool drops that client.
    this.pool.on('error', (error) => this.logger.debug(`PostgreSQL idle connection: ${error.message}`));
  }

  /**
   * Runs one statement, retrying a dropped connection for up to `retryMs`
   * (default: the constructor's, else 30 s) with backoff: a PostgreSQL restart delays calls, it does not fail them.
   */
  async query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[], retryMs = this.retryMs): Promise<pg.QueryResult<R>> {
    return this.retrying(() => this.pool.query<R>(text, values), retryMs);
  }

  /**
   * A client checked out of the pool for work that must hold one session
   * (an advisory lock), the connection retried as `query` retries: an unreachable
   * server is one TEAM_DATABASE sentence. The caller releases it.
   */
  async connect(retryMs = this.retryMs): Promise<pg.PoolClient> {
    return this.retrying(() => this.pool.connect(), retryMs);
  }

  /** Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK on error), retried as a whole on a dropped connection. */
  async transaction<T>(work: (client: Queryable) => Promise<T>, retryMs = this.retryMs): Promise<T> {
    return this.retrying(async () => {
      const client = await this.pool.connect();
      let broken = false;
      // The pool listens for errors of idle clients only. A connection the server ends while it is checked
      // out and between two queries (a PostgreSQL restart during `work`'s own awaits) emits 'error' on the
      // client: with no listener that is an uncaught exception and the worker or server process dies. Here
      // it marks the client broken; the next query on it fails and the transaction is retried.
      const onError = (error: Error) => {
        broken = true;
        this.logger.debug(`PostgreSQL connection lost in a transaction: ${error.message}`);
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        broken ||= isTransientPgError(error);
        if (!broken) await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    }, retryMs);
  }

  private async retrying<T>(attempt: () => Promise<T>, retryMs: number): Promise<T> {
    const deadline = Date.now() + retryMs;
    for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
      try {
        return await attempt();
      } catch (error) {
        if (!isTransientPgError(error)) {
          const code = (error as { code?: string }).code;
          // The server answered but will not let us in: a wrong URL, not a failure of ours.
          if (code === '3D000' || code === '28000' || code === '28P01') {
            throw new ReponavError('TEAM_DATABASE', `PostgreSQL at ${redactUrl(this.url)} refused the connection: ${(error as Error).message}; check the URL (or create the database).`);
          }
          throw error;
        }
        if (Date.now() + wait > deadline) {
          throw new ReponavError('TEAM_DATABASE', `PostgreSQL at ${redactUrl(this.url)} is unreachable (${(error as Error).message}); check that it runs and the URL is right.`);
        }
        this.logger.debug(`PostgreSQL: ${(error as Error).message}; retrying in ${wait} ms`);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+):[^@]*@/, '$1:***@');
}
