/**
 * An in-process team for tests that exercise one server's endpoints rather
 * than processes: a fresh database (migrated, queue installed), fixture
 * repositories in the catalog, their first commits built by an in-process
 * worker, and a team server on port 0 — seconds instead of the process
 * cluster's start-up.
 */
import { join } from 'node:path';
import { silentLogger } from '../../src/logger.js';
import { createToken } from '../../src/team/access-tokens.js';
import { pollOnce } from '../../src/team/branch-poller.js';
import { addRepo } from '../../src/team/catalog.js';
import { FolderShardStore } from '../../src/team/folder-shard-store.js';
import { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { startTeamServer, type RunningTeamServer, type TeamServerOptions } from '../../src/team/team-server.js';
import { startWorker } from '../../src/team/team-worker.js';
import { createDatabase, readyCommits, tempDir, waitFor } from './team-harness.js';

export interface InProcessTeam {
  dir: string;
  dbUrl: string;
  db: TeamDatabase;
  queue: JobQueue;
  server: RunningTeamServer;
  /** A new token for `groups`. */
  token(name: string, groups: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * Sets up the team: `repos` (name → path and group) are added, polled and
 * built before the server starts (`build: false` skips the build).
 */
export async function startInProcessTeam(
  repos: (dir: string) => Record<string, { path: string; group: string }>,
  options: { build?: boolean; server?: Partial<TeamServerOptions> } = {},
): Promise<InProcessTeam> {
  const temp = tempDir('reponav-team-inproc-');
  const created = await createDatabase();
  const db = new TeamDatabase(created.url, silentLogger);
  await migrate(db);
  const queue = await JobQueue.open(db, silentLogger, { install: true });
  const store = new FolderShardStore(join(temp.dir, 'store'));
  const catalog = repos(temp.dir);
  for (const [name, r] of Object.entries(catalog)) await addRepo(db, { name, url: r.path, branch: 'main', groups: [r.group] });
  if (options.build !== false) {
    await pollOnce(db, queue, { logger: silentLogger });
    const worker = startWorker({ db, queue, store, workDir: join(temp.dir, 'worker'), logger: silentLogger, idleMs: 100 });
    await waitFor(async () => (await readyCommits(created.url)).size === Object.keys(catalog).length, 60_000, () => `built: ${JSON.stringify(worker.done)}`);
    await worker.stop();
  }
  const server = await startTeamServer({
    db,
    store,
    cacheDir: join(temp.dir, 'cache'),
    cacheBytes: 64 << 20,
    port: 0,
    host: '127.0.0.1',
    logger: silentLogger,
    ...options.server,
  });
  return {
    dir: temp.dir,
    dbUrl: created.url,
    db,
    queue,
    server,
    token: (name, groups) => createToken(db, name, groups),
    async close() {
      await server.close();
      await queue.close();
      await db.close();
      await created.drop();
      temp.remove();
    },
  };
}
