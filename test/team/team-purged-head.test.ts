/**
 * A branch head purged before any worker read its history (recorded by
 * `fleet sync` with no worker polling, then `fleet purge`d while still the
 * head) must not leave the repository answering nothing while a commit it
 * contains is ready: a worker's poll refuses the purged head but reads its
 * history, and the ready ancestor answers. Real PostgreSQL and git; the poll
 * check runs in-process as a worker's poll pass runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/index/index.js';
import { silentLogger } from '../../src/logger.js';
import { checkHead } from '../../src/team/branch-poller.js';
import { addRepo, getRepo } from '../../src/team/catalog.js';
import { headHistoryReader } from '../../src/team/commit-history.js';
import { purgeCommit } from '../../src/team/commit-purge.js';
import { FolderShardStore } from '../../src/team/folder-shard-store.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { mirrorDir } from '../../src/team/shard-builder.js';
import { freshness, markReady, newestReadyShard } from '../../src/team/shard-registry.js';
import { commitFiles, createDatabase, fixtureRepo, tempDir } from './team-harness.js';

const temp = tempDir('reponav-team-purged-head-');
let created: Awaited<ReturnType<typeof createDatabase>>;
let db: TeamDatabase;
let queue: JobQueue;

beforeAll(async () => {
  created = await createDatabase();
  db = new TeamDatabase(created.url, silentLogger);
  await migrate(db);
  queue = await JobQueue.open(db, silentLogger, { install: true });
}, 60_000);

afterAll(async () => {
  await queue?.close();
  await db?.close();
  await created?.drop();
  temp.remove();
});

describe('a head purged before its history was read', () => {
  it('a worker poll refuses it, reads its history, and the ready commit it contains answers', async () => {
    const url = fixtureRepo(temp.dir, 'app', { 'app/core.py': 'def core():\n    return 1\n' });
    await addRepo(db, { name: 'app', url, branch: 'main', groups: ['g'] });
    const repo = async () => (await getRepo(db, 'app'))!;
    const options = { logger: silentLogger };
    // A is the head, built and served.
    const a = (await checkHead(db, queue, await repo(), options)).head!;
    await markReady(db, { repo: 'app', commit: a, schemaVersion: SCHEMA_VERSION, sizeBytes: 1, sha256: '0'.repeat(64), location: 'app/a.db', builtBy: 'test', buildMs: 1, parsedFiles: 1 });
    expect((await newestReadyShard(db, 'app', SCHEMA_VERSION))?.commit).toBe(a);
    // B (a secret) is pushed; fleet sync records it as the head with no worker to read its history: nothing answers by default.
    const b = commitFiles(url, { 'app/secret.py': 'API_KEY = "sk-live"\n' }, 'B');
    expect((await checkHead(db, queue, await repo(), options)).head).toBe(b);
    expect(await newestReadyShard(db, 'app', SCHEMA_VERSION)).toBeNull();
    // B is purged while it is still the head.
    await purgeCommit(db, queue, new FolderShardStore(`${temp.dir}/store`), 'app', b);
    // A worker's poll: B is refused (an error, nothing queued), but its history is read, so A answers again.
    const readHistory = headHistoryReader(db, (name) => mirrorDir(`${temp.dir}/worker`, name), silentLogger);
    const check = await checkHead(db, queue, await repo(), { ...options, readHistory });
    expect(check).toMatchObject({ head: null, enqueued: false });
    expect(check.error).toContain(`Commit ${b.slice(0, 12)} of 'app' was purged`);
    // Before, nothing answered until the branch moved on.
    expect((await newestReadyShard(db, 'app', SCHEMA_VERSION))?.commit).toBe(a);
    const [fresh] = await freshness(db, ['app'], SCHEMA_VERSION);
    expect(fresh).toMatchObject({ servedCommit: a, headCommit: b });
    expect(fresh.headError).toContain('was purged');
    // The next pass reads it no more (what B contains is known) and changes nothing.
    expect((await checkHead(db, queue, await repo(), { ...options, readHistory })).error).toContain('was purged');
    expect((await newestReadyShard(db, 'app', SCHEMA_VERSION))?.commit).toBe(a);
  });
});
