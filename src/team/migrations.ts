/**
 * The team database's schema, as numbered migrations run by `reponav fleet
 * migrate` (never implicitly): each runs once, in its own transaction, under
 * an advisory lock so two processes migrating at once apply each step once.
 * The job queue (pg-boss) keeps its own versioned schema beside ours, created
 * or upgraded by the same command.
 */
import { ReponavError } from '../errors.js';
import type { TeamDatabase } from './pg-database.js';

/** Our tables live in this schema; pg-boss's in QUEUE_SCHEMA. */
export const TEAM_SCHEMA = 'reponav';
export const QUEUE_SCHEMA = 'reponav_queue';

/** An arbitrary constant naming the migration lock (pg_advisory_lock takes a bigint). */
const MIGRATION_LOCK = 7_413_018;

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. Never edit a released one: add the next. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'catalog, commits and shards, tokens, nodes',
    sql: `
      CREATE TABLE reponav.repos (
        name       text PRIMARY KEY,
        url        text NOT NULL,
        branch     text NOT NULL,
        groups     text[] NOT NULL,
        added_at   timestamptz NOT NULL DEFAULT now()
      );
      -- Every commit seen on a tracked branch, in the order seen (seq), and its shard once built.
      CREATE TABLE reponav.commits (
        repo            text NOT NULL REFERENCES reponav.repos(name) ON DELETE CASCADE,
        commit          text NOT NULL,
        seq             bigserial,
        seen_at         timestamptz NOT NULL DEFAULT now(),
        state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'ready')),
        schema_version  integer,
        size_bytes      bigint,
        sha256          text,
        location        text,
        built_at        timestamptz,
        built_by        text,
        build_ms        integer,
        parsed_files    integer,
        PRIMARY KEY (repo, commit)
      );
      CREATE INDEX commits_ready ON reponav.commits (repo, seq DESC) WHERE state = 'ready';
      CREATE TABLE reponav.tokens (
        id          serial PRIMARY KEY,
        name        text NOT NULL,
        hash        text NOT NULL UNIQUE,
        groups      text[] NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        revoked_at  timestamptz
      );
      CREATE TABLE reponav.nodes (
        id          text PRIMARY KEY,
        kind        text NOT NULL CHECK (kind IN ('worker', 'server')),
        host        text NOT NULL,
        pid         integer NOT NULL,
        started_at  timestamptz NOT NULL DEFAULT now(),
        beat_at     timestamptz NOT NULL DEFAULT now(),
        info        jsonb NOT NULL DEFAULT '{}'
      );
      -- The PostgreSQL shard store: a shard's bytes in 1 MiB rows, written in one transaction.
      CREATE TABLE reponav.shard_chunks (
        location  text NOT NULL,
        part      integer NOT NULL,
        bytes     bytea NOT NULL,
        PRIMARY KEY (location, part)
      );
    `,
  },
  {
    version: 2,
    name: 'branch heads by git, build errors, broken shards, pins',
    sql: `
      -- The tracked branch's head as git last answered (ls-remote), and why it could not be read.
      ALTER TABLE reponav.repos
        ADD COLUMN head_commit text,
        ADD COLUMN head_checked_at timestamptz,
        ADD COLUMN head_error text,
        ADD COLUMN head_error_at timestamptz;
      -- head_at: when git last said this commit is the branch head; what is served is the ready commit with the latest.
      ALTER TABLE reponav.commits
        ADD COLUMN head_at timestamptz,
        ADD COLUMN broken_reason text,
        ADD COLUMN pinned_at timestamptz,
        DROP CONSTRAINT commits_state_check,
        ADD CONSTRAINT commits_state_check CHECK (state IN ('queued', 'ready', 'broken'));
      UPDATE reponav.commits SET head_at = seen_at;
      UPDATE reponav.repos r SET head_commit = (SELECT c.commit FROM reponav.commits c WHERE c.repo = r.name ORDER BY c.seq DESC LIMIT 1);
      CREATE INDEX commits_head ON reponav.commits (repo, head_at DESC NULLS LAST) WHERE state = 'ready';
    `,
  },
  {
    version: 3,
    name: 'unique active token names, token expiry and last use, first time a head was seen',
    sql: `
      -- Two active tokens with one name (allowed before): the later ones get '-<id>' so the name picks one token.
      UPDATE reponav.tokens t SET name = t.name || '-' || t.id
      WHERE t.revoked_at IS NULL AND EXISTS (SELECT 1 FROM reponav.tokens o WHERE o.name = t.name AND o.revoked_at IS NULL AND o.id < t.id);
      CREATE UNIQUE INDEX tokens_active_name ON reponav.tokens (name) WHERE revoked_at IS NULL;
      -- Tokens made before expiry existed do not expire (revoke and recreate them to give them one).
      ALTER TABLE reponav.tokens
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN last_used_at timestamptz;
      -- When git first named a commit the branch head (head_at moves forward at every check; lag counts from this).
      ALTER TABLE reponav.commits ADD COLUMN head_first_at timestamptz;
      UPDATE reponav.commits SET head_first_at = LEAST(seen_at, head_at) WHERE head_at IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'the poll pass lease',
    sql: `
      -- One row: the cluster's poll pass. A worker holds it while its pass runs (lease_until, renewed; a dead
      -- holder's lease runs out), and the next pass starts one poll interval after the last one ended.
      CREATE TABLE reponav.poll_pass (
        id           boolean PRIMARY KEY DEFAULT true CHECK (id),
        holder       text,
        pass_id      text,
        started_at   timestamptz,
        lease_until  timestamptz,
        ended_at     timestamptz,
        passes       bigint NOT NULL DEFAULT 0
      );
      INSERT INTO reponav.poll_pass DEFAULT VALUES;
    `,
  },
  {
    version: 5,
    name: 'what each commit contains, purged commits',
    sql: `
      -- Which commits of the registry a commit contains (its ancestors), as a worker read them from its mirror: the
      -- server serves by default only the head or a ready commit the head contains, without running git itself.
      CREATE TABLE reponav.commit_ancestors (
        repo      text NOT NULL REFERENCES reponav.repos(name) ON DELETE CASCADE,
        commit    text NOT NULL,
        ancestor  text NOT NULL,
        PRIMARY KEY (repo, commit, ancestor)
      );
      -- The newest registry row (seq) a worker's reading of the commit's history covered (null: not read yet);
      -- a row added since (a commit seen later) may be in it too, so a head's history is read again then.
      ALTER TABLE reponav.commits ADD COLUMN history_seq bigint;
      -- Commits deleted everywhere by fleet purge and refused from then on (kept when the repository is removed:
      -- a leaked secret stays leaked in that commit).
      CREATE TABLE reponav.purged_commits (
        repo       text NOT NULL,
        commit     text NOT NULL,
        purged_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (repo, commit)
      );
    `,
  },
];

/** The schema version this build of reponav needs. */
export const TEAM_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Applies the migrations not applied yet; returns the versions applied now (in order). */
export async function migrate(db: TeamDatabase): Promise<number[]> {
  const client = await db.connect();
  const applied: number[] = [];
  // A connection the server ends between two queries emits 'error' on this checked-out client (the pool
  // listens only to idle ones): heard here, the next query fails with one sentence instead of a crash.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${TEAM_SCHEMA}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${TEAM_SCHEMA}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${TEAM_SCHEMA}.migrations`)).rows.map((r) => r.version));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${TEAM_SCHEMA}.migrations(version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new ReponavError('TEAM_DATABASE', `Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}.`);
      }
      applied.push(migration.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.off('error', ignore);
    client.release();
  }
  return applied;
}

/** Throws TEAM_DATABASE with what to run when the database is not at TEAM_SCHEMA_VERSION. */
export async function requireMigrated(db: TeamDatabase): Promise<void> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('${TEAM_SCHEMA}.migrations')::text AS t`);
  const version = exists.rows[0].t
    ? ((await db.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${TEAM_SCHEMA}.migrations`)).rows[0].v ?? 0)
    : 0;
  if (version < TEAM_SCHEMA_VERSION) {
    throw new ReponavError('TEAM_DATABASE', `The team database is at schema version ${version}, this reponav needs ${TEAM_SCHEMA_VERSION}; run: reponav fleet migrate.`);
  }
  if (version > TEAM_SCHEMA_VERSION) {
    throw new ReponavError('TEAM_DATABASE', `The team database is at schema version ${version}, newer than this reponav (${TEAM_SCHEMA_VERSION}); upgrade reponav.`);
  }
}
