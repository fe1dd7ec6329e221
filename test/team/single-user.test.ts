/**
 * Single-user mode does not need PostgreSQL: with the PostgreSQL driver and
 * the job queue made unloadable (fixtures/forbid-pg.mjs), the single-user
 * commands work as before, while a team command fails on them (so the
 * fixture does bite). Team commands without a database URL, or with an
 * unreachable one, fail with one sentence and exit 1.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, PROJECT_ROOT, SHARED_PG, tempDir } from './team-harness.js';

const FORBID = join(import.meta.dirname, 'fixtures', 'forbid-pg.mjs');
const cache = tempDir('reponav-single-user-');
afterAll(() => cache.remove());

function run(args: string[], env: Record<string, string | undefined> = {}) {
  const cleanEnv = { ...process.env, REPONAV_CACHE_DIR: cache.dir, REPONAV_PG_URL: undefined, ...env };
  const result = spawnSync(process.execPath, ['--import', FORBID, CLI, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', env: cleanEnv as NodeJS.ProcessEnv, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('single-user mode without PostgreSQL', () => {
  it('runs search, symbols, status and --help without loading pg or pg-boss', () => {
    const search = run(['search', 'discount codes above 50% should be rejected', '--repo', 'sample/bookshop', '--format', 'file-only']);
    expect(search.stderr).not.toMatch(/forbidden/);
    expect(search.status).toBe(0);
    expect(search.stdout).toContain('billing/invoice.py');
    const symbols = run(['symbols', 'billing/invoice.py', '--repo', 'sample/bookshop']);
    expect(symbols.status).toBe(0);
    expect(run(['status', 'sample/bookshop']).status).toBe(0);
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/fleet.*\n.*worker|worker/);
  });

  it('a team command does load them (the fixture works), and says what is missing in one sentence', () => {
    const forbidden = run(['fleet', 'list', '--pg', 'postgres://postgres@127.0.0.1:5432/postgres']);
    expect(forbidden.status).not.toBe(0);
    expect(forbidden.stderr).toMatch(/forbidden in this test: pg/);
    const plain = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, REPONAV_PG_URL: '' }, timeout: 30_000 });
    const noUrl = plain(['fleet', 'list']);
    expect(noUrl.status).toBe(1);
    expect(noUrl.stderr).toBe('error: No PostgreSQL URL: pass --pg postgres://USER@HOST:PORT/DB or set REPONAV_PG_URL.\n');
    const badUrl = plain(['worker', '--pg', 'mysql://x']);
    expect(badUrl.status).toBe(1);
    expect(badUrl.stderr).toBe('error: The PostgreSQL URL must start with postgres:// or postgresql://.\n');
    const unreachable = plain(['fleet', 'list', '--pg', 'postgres://postgres@127.0.0.1:1/nowhere']);
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^error: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere is unreachable \(.*\); check that it runs and the URL is right\.\n$/);
    // fleet migrate holds one session (its advisory lock): the same sentence, not a stack trace.
    const migrate = plain(['fleet', 'migrate', '--pg', 'postgres://postgres@127.0.0.1:1/nowhere']);
    expect(migrate.status).toBe(1);
    expect(migrate.stderr).toMatch(/^error: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere is unreachable \(.*\); check that it runs and the URL is right\.\n$/);
    // A server that answers but refuses the database: one sentence too (was a stack trace).
    const noDatabase = plain(['fleet', 'list', '--pg', `${SHARED_PG}/reponav_no_such_database`]);
    expect(noDatabase.status).toBe(1);
    expect(noDatabase.stderr).toMatch(/^error: PostgreSQL at .*\/reponav_no_such_database refused the connection: database "reponav_no_such_database" does not exist; check the URL \(or create the database\)\.\n$/);
  });
});
