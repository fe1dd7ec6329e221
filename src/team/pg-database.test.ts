/**
 * A PostgreSQL restart while a transaction holds its connection between two
 * queries must not kill the process: the transaction is retried. Runs against
 * the shared server (REPONAV_TEST_PG, default the local one) and creates nothing.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { TeamDatabase } from './pg-database.js';

const SERVER = process.env.REPONAV_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432';
const URL = `${SERVER}/test`;
const messages: string[] = [];
const logger: Logger = {
  debug: (m: string) => void messages.push(m),
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as Logger;
const db = new TeamDatabase(URL, logger, { applicationName: 'reponav-pg-database-test', retryMs: 10_000 });
afterAll(() => db.close());

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

describe('TeamDatabase.transaction', () => {
  it('retries a transaction whose connection the server ended between two queries, without an uncaught error', async () => {
    let attempts = 0;
    const result = await db.transaction(async (client) => {
      attempts++;
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      if (attempts === 1) {
        await terminate(rows[0]!.pid);
        // The server's notice arrives while no query is running: before the fix, an 'error' event no one heard.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return (await client.query<{ x: number }>('SELECT 42 AS x')).rows[0]!.x;
    });
    expect(result).toBe(42);
    expect(attempts).toBe(2);
    expect(messages.some((m) => /connection lost in a transaction: terminating connection/.test(m))).toBe(true);
  });
});
