/**
 * Generated histories against the registry on a real PostgreSQL: seeded
 * random sequences of commits (some merges), force-pushes (a new commit on an
 * older one, or the branch reset to an old commit), readings of the head's
 * history (what a worker records from its mirror), finished builds, lost
 * shards and purges. After every event, what the server would answer by
 * default (newestReadyShard) must be the newest ready commit that is the head
 * or an ancestor of it — or nothing while the head's history is not read —
 * and never a commit off the branch or a purged one (a head purged before
 * its history was read answers from the newest ready commit it contains once a
 * worker's poll reads that history); a purged commit is refused by name. A
 * failure names the seed and the events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/index/index.js';
import { silentLogger } from '../../src/logger.js';
import { addRepo } from '../../src/team/catalog.js';
import { historyStale, recordHistory } from '../../src/team/commit-history.js';
import { purgeCommit, purgedCommit } from '../../src/team/commit-purge.js';
import type { JobQueue } from '../../src/team/job-queue.js';
import { migrate } from '../../src/team/migrations.js';
import { TeamDatabase } from '../../src/team/pg-database.js';
import { markBroken, markReady, newestReadyShard, recordHead } from '../../src/team/shard-registry.js';
import type { ShardStore } from '../../src/team/shard-store.js';
import { pickShard } from '../../src/team/team-router.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { createDatabase } from './team-harness.js';

let created: Awaited<ReturnType<typeof createDatabase>>;
let db: TeamDatabase;

beforeAll(async () => {
  created = await createDatabase();
  db = new TeamDatabase(created.url, silentLogger);
  await migrate(db);
});

afterAll(async () => {
  await db?.close();
  await created?.drop();
});

// Purging needs no store or queue here: the registry is what is checked.
const noStore = { deleteCommit: async () => 0 } as unknown as ShardStore;
const noQueue = { cancelRepo: async () => 0 } as unknown as JobQueue;

/** The model: a git history and what the registry should say about it. */
class Model {
  parents = new Map<string, string[]>();
  head = '';
  /** Commits in the registry (named a head once, not purged), with when they were last the head. */
  headAt = new Map<string, number>();
  ready = new Set<string>();
  purged = new Set<string>();
  /** The head's history was read after the last commit entered the registry. */
  headHistoryFresh = false;
  private next = 0;

  newCommit(parents: string[]): string {
    const id = (this.next++).toString(16).padStart(8, '0').repeat(5);
    this.parents.set(id, parents);
    return id;
  }

  ancestors(commit: string): Set<string> {
    const seen = new Set<string>();
    const todo = [...(this.parents.get(commit) ?? [])];
    while (todo.length) {
      const c = todo.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      todo.push(...(this.parents.get(c) ?? []));
    }
    return seen;
  }

  /** The newest ready commit that is the head or an ancestor of it (by when it was last the head), or null. */
  expected(): string | null {
    const onBranch = this.ancestors(this.head).add(this.head);
    const candidates = [...this.ready].filter((c) => onBranch.has(c) && !this.purged.has(c));
    candidates.sort((a, b) => this.headAt.get(b)! - this.headAt.get(a)!);
    return candidates[0] ?? null;
  }
}

async function runHistory(seed: number, events: number): Promise<void> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const repo = `r${seed}`;
  await addRepo(db, { name: repo, url: `/nowhere/${repo}`, branch: 'main', groups: ['g'] });
  const m = new Model();
  const log: string[] = [];
  let clock = Date.UTC(2026, 0, 1);
  const short = (c: string | null) => (c ? c.slice(0, 8) : 'none');

  const moveHead = async (commit: string) => {
    // The poll refuses a purged head (checkHead): the branch stays where the registry had it.
    if (await purgedCommit(db, repo, commit)) return log.push(`head ${short(commit)} refused (purged)`);
    clock += 1000;
    const record = await recordHead(db, repo, commit, new Date(clock));
    expect(record.current).toBe(true);
    if (!m.headAt.has(commit)) m.headHistoryFresh = false;
    else if (m.head !== commit) m.headHistoryFresh = false;
    m.head = commit;
    m.headAt.set(commit, clock);
    log.push(`head -> ${short(commit)}`);
  };

  await moveHead(m.newCommit([]));
  for (let i = 0; i < events; i++) {
    const roll = random();
    const registry = [...m.headAt.keys()];
    if (roll < 0.25) {
      // A commit on the branch; now and then a merge of an older commit.
      const parents = [m.head, ...(random() < 0.2 ? [pick([...m.parents.keys()])] : [])];
      await moveHead(m.newCommit([...new Set(parents)]));
    } else if (roll < 0.37) {
      // reset to an ancestor (or any older commit); commit; push -f
      const base = pick([...m.ancestors(m.head), m.head]);
      await moveHead(random() < 0.6 ? m.newCommit([base]) : pick([...m.parents.keys()]));
    } else if (roll < 0.6) {
      // A worker reads the head's history from its mirror, as the poll check and the build do; a purged head's too,
      // when nothing it contains is known (the poll refuses it but reads it, so its newest ready ancestor answers).
      const stale = await historyStale(db, repo, m.head);
      if (stale) {
        const seqs = (await db.query<{ commit: string; seq: number }>('SELECT commit, seq::float8 AS seq FROM reponav.commits WHERE repo = $1', [repo])).rows;
        const ancestors = m.ancestors(m.head);
        await recordHistory(db, repo, m.head, seqs.map((r) => r.commit).filter((c) => ancestors.has(c)), Math.max(0, ...seqs.map((r) => r.seq)));
      }
      m.headHistoryFresh = true;
      log.push(`history of ${short(m.head)} read${stale ? '' : ' (already)'}`);
    } else if (roll < 0.85) {
      const waiting = registry.filter((c) => !m.ready.has(c));
      if (waiting.length === 0) continue;
      const commit = pick(waiting);
      const shard = { repo, commit, schemaVersion: SCHEMA_VERSION, sizeBytes: 1, sha256: 'x', location: `${repo}/${commit}-${i}.db`, builtBy: 'w', buildMs: 1, parsedFiles: 1 };
      const { won } = await db.transaction((client) => markReady(client, shard));
      expect(won).toBe(true);
      m.ready.add(commit);
      log.push(`built ${short(commit)}`);
    } else if (roll < 0.92) {
      const ready = [...m.ready];
      if (ready.length === 0) continue;
      const commit = pick(ready);
      const rows = await db.query<{ location: string }>('SELECT location FROM reponav.commits WHERE repo = $1 AND commit = $2', [repo, commit]);
      await markBroken(db, repo, rows.rows[0].location, 'lost');
      m.ready.delete(commit);
      log.push(`shard of ${short(commit)} lost`);
    } else {
      const commit = random() < 0.4 || registry.length === 0 ? m.head : pick(registry);
      await purgeCommit(db, noQueue, noStore, repo, commit);
      m.purged.add(commit);
      m.ready.delete(commit);
      m.headAt.delete(commit);
      log.push(`purged ${short(commit)}`);
    }

    const served = (await newestReadyShard(db, repo, SCHEMA_VERSION))?.commit ?? null;
    const expected = m.expected();
    const where = () => `seed ${seed}, event ${i}: served ${short(served)}, expected ${short(expected)} (head ${short(m.head)}); events: ${log.join('; ')}`;
    if (served !== null) {
      expect(m.purged.has(served), where()).toBe(false);
      expect(m.ready.has(served), where()).toBe(true);
      expect(served === m.head || m.ancestors(m.head).has(served), where()).toBe(true);
    }
    // With the head's history read since the registry last grew, exactly the newest ready commit on the branch;
    // before, nothing or an older one on the branch (never one off it, checked above).
    if (m.headHistoryFresh) expect(served, where()).toBe(expected);
    else if (expected === null) expect(served, where()).toBe(null);
    for (const p of m.purged) {
      const pinned = await pickShard(db, repo, p.slice(0, 10));
      expect('error' in pinned && pinned.error, where()).toBe(`Commit ${p.slice(0, 12)} of '${repo}' was purged (reponav fleet purge) and is never indexed or served again.`);
    }
  }
}

describe('what is served over generated histories', () => {
  const seeds = Array.from({ length: 25 }, (_, i) => 4401 + i);
  it.each(seeds)('seed %i: the newest ready commit on the branch, never a removed or purged one', async (seed) => {
    await runHistory(seed, 40);
  }, 60_000);
});
