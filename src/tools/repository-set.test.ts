import { describe, expect, it, vi } from 'vitest';
import { isReponavError } from '../errors.js';
import type { IndexProgress, IndexReport } from '../index/write/indexer.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import { RepositoryHandle, RepositorySet, uniqueRepositoryNames, type FreshnessResult } from './repository-set.js';

/** An index whose runs the test settles; each run indexes (calls onIndexing) at once unless `checkOnly`, or when the test calls `indexing`. */
function fakeIndex(root = '/work/app', checkOnly = false) {
  const runs: Array<{ resolve: (r: IndexReport) => void; reject: (e: Error) => void; progress?: (p: IndexProgress) => void; indexing: () => void }> = [];
  const index = {
    root,
    refresh(options: { onProgress?: (p: IndexProgress) => void; onIndexing?: () => void } = {}) {
      const indexing = () => options.onIndexing?.();
      if (!checkOnly) indexing();
      return new Promise<IndexReport>((resolve, reject) => runs.push({ resolve, reject, progress: options.onProgress, indexing }));
    },
    close() {},
  } as unknown as RepositoryIndex;
  return { index, runs };
}

const report = (listed: number): IndexReport => ({
  mode: 'worktree', root: '/work/app', commit: null, listed, unchanged: listed, parsed: 0, reused: 0, deleted: 0, partial: 0, failed: 0, failures: [],
  skipped: {}, skippedExamples: {}, durationMs: 1,
});

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('uniqueRepositoryNames', () => {
  it('uses basenames and suffixes repeats in order', () => {
    expect(uniqueRepositoryNames(['/a/app', '/b/app/', '/c/lib', '/d/app'])).toEqual(['app', 'app-2', 'lib', 'app-3']);
  });
});

describe('RepositorySet.select', () => {
  const set = new RepositorySet([new RepositoryHandle('app', fakeIndex().index), new RepositoryHandle('lib', fakeIndex().index)]);

  it('needs a name when several are served, and lists the names', () => {
    expect(() => set.select()).toThrow(/Several repositories are served; pass repo as one of 'app', 'lib'/);
    expect(() => set.select('nope')).toThrow(/Unknown repo 'nope'; use one of 'app', 'lib'/);
    expect(set.select('lib').name).toBe('lib');
  });

  it('defaults to the only repository', () => {
    const single = new RepositorySet([new RepositoryHandle('app', fakeIndex().index)]);
    expect(single.select().name).toBe('app');
    try {
      single.select('x');
    } catch (error) {
      expect(isReponavError(error, 'BAD_INPUT')).toBe(true);
    }
  });
});

describe('RepositoryHandle.refresh', () => {
  it('shares a running refresh and queues exactly one follow-up for callers arriving meanwhile', async () => {
    const { index, runs } = fakeIndex();
    const handle = new RepositoryHandle('app', index);
    const first = handle.refresh();
    const second = handle.refresh();
    const third = handle.refresh();
    expect(runs).toHaveLength(1);
    runs[0].resolve(report(1));
    expect(await first).toEqual(report(1));
    await tick();
    // The callers that arrived during run 1 wait for a run that started after them.
    expect(runs).toHaveLength(2);
    runs[1].resolve(report(2));
    expect(await second).toEqual(report(2));
    expect(await third).toEqual(report(2));
    expect(handle.lastReport).toEqual(report(2));
  });

  it('forwards progress to every waiting caller and stops after they are answered', async () => {
    const { index, runs } = fakeIndex();
    const handle = new RepositoryHandle('app', index);
    const seen: number[] = [];
    const done = handle.refresh((p) => seen.push(p.done));
    runs[0].progress?.({ done: 1, total: 2, elapsedMs: 1 });
    runs[0].progress?.({ done: 2, total: 2, elapsedMs: 2 });
    runs[0].resolve(report(2));
    await done;
    expect(seen).toEqual([1, 2]);
  });

  it('answers "indexing" when the wait limit passes first, and keeps indexing', async () => {
    const { index, runs } = fakeIndex();
    const handle = new RepositoryHandle('app', index);
    const waiting = handle.ensureFresh({ waitMs: 10 });
    runs[0].progress?.({ done: 3, total: 10, elapsedMs: 1 });
    expect(await waiting).toEqual({ state: 'indexing', progress: { done: 3, total: 10, elapsedMs: 1 } });
    runs[0].resolve(report(10));
    await tick();
    expect(handle.lastReport).toEqual(report(10));
    const again = handle.ensureFresh();
    runs[1].resolve(report(10));
    expect(await again).toEqual({ state: 'fresh', report: report(10) });
  });

  it('waits for a run that only checks, whatever the limit: "indexing" is never said over a current index', async () => {
    const { index, runs } = fakeIndex('/work/app', true);
    const handle = new RepositoryHandle('app', index);
    const waiting = handle.ensureFresh({ waitMs: 0 });
    await tick();
    await tick();
    runs[0].resolve(report(10));
    expect(await waiting).toEqual({ state: 'fresh', report: report(10) });
  });

  it('counts the limit from when the run starts indexing, for a call that came before and one that joins after', async () => {
    vi.useFakeTimers();
    try {
      const { index, runs } = fakeIndex('/work/app', true);
      const handle = new RepositoryHandle('app', index);
      let early: FreshnessResult | null = null;
      void handle.ensureFresh({ waitMs: 5 }).then((r) => (early = r));
      await vi.advanceTimersByTimeAsync(1000);
      expect(early).toBeNull();
      runs[0].indexing();
      await vi.advanceTimersByTimeAsync(5);
      expect(early).toEqual({ state: 'indexing', progress: null });
      let late: FreshnessResult | null = null;
      void handle.ensureFresh({ waitMs: 5 }).then((r) => (late = r));
      await vi.advanceTimersByTimeAsync(4);
      expect(late).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(late).toEqual({ state: 'indexing', progress: null });
      runs[0].resolve(report(3));
      await vi.advanceTimersByTimeAsync(0);
      // The follow-up run the late call queued only checks; a call now waits for it, then is answered fresh.
      let next: FreshnessResult | null = null;
      void handle.ensureFresh({ waitMs: 0 }).then((r) => (next = r));
      await vi.advanceTimersByTimeAsync(1000);
      expect(next).toBeNull();
      runs[1].resolve(report(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(next).toBeNull();
      runs[2].resolve(report(4));
      await vi.advanceTimersByTimeAsync(0);
      expect(next).toEqual({ state: 'fresh', report: report(4) });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers the next refresh with a report handed over by markRefreshed, once, then runs again', async () => {
    const { index, runs } = fakeIndex();
    const handle = new RepositoryHandle('app', index);
    handle.markRefreshed(report(3));
    expect(handle.lastReport).toEqual(report(3));
    expect(await handle.ensureFresh()).toEqual({ state: 'fresh', report: report(3) });
    expect(runs).toHaveLength(0);
    const next = handle.refresh();
    expect(runs).toHaveLength(1);
    runs[0].resolve(report(4));
    expect(await next).toEqual(report(4));
  });

  it('rejects every waiter when a refresh fails, without unhandled rejections', async () => {
    const { index, runs } = fakeIndex();
    const handle = new RepositoryHandle('app', index);
    const waiting = handle.ensureFresh({ waitMs: 5 });
    expect(await waiting).toMatchObject({ state: 'indexing' });
    const next = handle.refresh();
    runs[0].reject(new Error('disk gone'));
    await tick();
    runs[1].reject(new Error('still gone'));
    await expect(next).rejects.toThrow('still gone');
  });
});
