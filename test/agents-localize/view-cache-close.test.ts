/**
 * A closed commit view cache leaves nothing behind, whatever was in flight
 * when it closed: no folder under its temp root and no new process 'exit'
 * listener (before, an acquire that was still opening the commit when
 * close() ran created both after it; and every cache added a listener of its
 * own). Acquires after close() are refused.
 * Seeded random interleavings of acquires, releases and the close; the seed
 * is printed when one fails.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitViewCache } from '../../src/sandbox/index.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { builtCliPath } from '../mcp/built-cli.js';
import { createFixtureRepo, type FixtureRepo } from './agent-fixture.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo();
});
afterAll(() => repo.cleanup());

const viewFolders = () => readdirSync(repo.dir).filter((name) => name.startsWith('reponav-views-'));

describe('CommitViewCache.close', () => {
  it('leaves no folder and no exit listener, with acquires in flight (30 seeded interleavings)', async () => {
    // One exit listener serves every cache of the process: installed by the first view, never one per cache.
    const warm = new CommitViewCache({ tempRoot: repo.dir });
    (await warm.acquire(repo.root, repo.first)).release();
    await warm.close();
    const listenersBefore = process.listenerCount('exit');
    for (let seed = 1; seed <= 30; seed++) {
      const random = mulberry32(seed);
      const cache = new CommitViewCache({ tempRoot: repo.dir });
      const acquires: Promise<unknown>[] = [];
      const count = 1 + Math.floor(random() * 4);
      for (let i = 0; i < count; i++) {
        // Settled at once either way: a view (released or not), or the refusal of an acquire the close overtook.
        const release = random() < 0.5;
        acquires.push(
          cache.acquire(repo.root, random() < 0.5 ? repo.first : 'HEAD').then(
            (view) => (release ? view.release() : undefined),
            (error: unknown) => expect(String(error)).toMatch(/closed/),
          ),
        );
        // Some close at once, some after a turn or two of the event loop, some after an acquire settled.
        const wait = Math.floor(random() * 3);
        for (let t = 0; t < wait; t++) await new Promise((resolve) => setImmediate(resolve));
      }
      if (random() < 0.3) await acquires[0];
      await cache.close();
      await Promise.all(acquires);
      const where = `seed ${seed} (${count} acquires)`;
      expect(viewFolders(), where).toEqual([]);
      expect(process.listenerCount('exit'), where).toBe(listenersBefore);
      await expect(cache.acquire(repo.root, repo.first), where).rejects.toThrow(/closed/);
    }
  });
});

describe('CommitViewCache and the process exit listener', () => {
  it('adds none per cache: 12 caches open at once leave the count as it was', async () => {
    const warm = new CommitViewCache({ tempRoot: repo.dir });
    (await warm.acquire(repo.root, repo.first)).release();
    const before = process.listenerCount('exit');
    const caches = Array.from({ length: 12 }, () => new CommitViewCache({ tempRoot: repo.dir }));
    const views = await Promise.all(caches.map((cache) => cache.acquire(repo.root, repo.first)));
    expect(process.listenerCount('exit')).toBe(before);
    await Promise.all(views.map((view) => view.release()));
    await Promise.all([warm, ...caches].map((cache) => cache.close()));
    expect(viewFolders()).toEqual([]);
  });
});

describe('CommitViewCache at process exit', () => {
  it('removes the folders of caches never closed when the process exits', () => {
    const module = join(dirname(builtCliPath()), '..', 'sandbox', 'index.js');
    const script = `
      const { CommitViewCache } = await import(${JSON.stringify(pathToFileURL(module).href)});
      for (let i = 0; i < 3; i++) await new CommitViewCache({ tempRoot: process.argv[1] }).acquire(process.argv[2], process.argv[3]);
      process.exit(0);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, repo.dir, repo.root, repo.first], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(viewFolders()).toEqual([]);
  });
});
