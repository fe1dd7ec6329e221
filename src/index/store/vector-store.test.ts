/**
 * The embedding tables share the index with other processes (#12): a write
 * waits for another connection's write transaction (busy_timeout), and
 * claiming the store for an embedder is one immediate transaction, so a claim
 * made meanwhile by another process is seen, never overwritten.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/cli/harness.js';
import { IndexStore } from './index-store.js';
import { VectorStore } from './vector-store.js';

afterAll(cleanupTempDirs);

const SQLITE = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Another connection (a worker thread, so this thread can wait on it) that
 * begins an IMMEDIATE transaction, runs `sql`, holds the write lock for
 * `holdMs` and commits. Resolves once the lock is held; `done` once committed.
 */
async function holdWriteLock(path: string, sql: string, holdMs: number): Promise<{ done: Promise<void> }> {
  const code = `
    const Database = require(${JSON.stringify(SQLITE)});
    const { workerData, parentPort } = require('node:worker_threads');
    const db = new Database(workerData.path);
    db.exec('BEGIN IMMEDIATE');
    db.exec(workerData.sql);
    parentPort.postMessage('held');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    db.exec('COMMIT');
    db.close();`;
  const worker = new Worker(code, { eval: true, workerData: { path, sql, holdMs } });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { done: new Promise((resolve) => worker.once('exit', () => resolve())) };
}

describe('VectorStore with a concurrent writer', () => {
  it('put and reset wait for another connection\'s write transaction instead of failing with "database is locked"', async () => {
    const store = IndexStore.open(join(tempDir(), 'index.db'));
    const vectors = VectorStore.open(store, { useSqliteVec: false });
    vectors.claim('test:model', 2);
    const writes: [string, () => void][] = [
      ['put', () => vectors.put([{ contentHash: 'h1', vector: new Float32Array([1, 0]) }])],
      ['reset', () => vectors.reset()],
    ];
    for (const [name, write] of writes) {
      const other = await holdWriteLock(store.path, `INSERT OR REPLACE INTO meta(key, value) VALUES ('other', '${name}')`, 400);
      expect(write, name).not.toThrow();
      // It waited: the other transaction, open when the write began, had committed by the time it returned (no clock read).
      expect(store.getMeta('other'), name).toBe(name);
      await other.done;
    }
    expect(vectors.vectorCount()).toBe(0);
    store.close();
  });

  it('a claim waits for another process claiming the empty store for another embedder, then refuses (it never overwrites that claim)', async () => {
    const store = IndexStore.open(join(tempDir(), 'index.db'));
    const vectors = VectorStore.open(store, { useSqliteVec: false });
    const other = await holdWriteLock(
      store.path,
      "INSERT INTO embedding_meta(key, value) VALUES ('embedder', 'other:model'), ('dimension', '2'); INSERT INTO embeddings VALUES ('h', x'0000803f00000000')",
      400,
    );
    expect(() => vectors.claim('test:model', 2)).toThrow(expect.objectContaining({ code: 'EMBEDDER_ERROR', message: expect.stringMatching(/other:model/) }));
    await other.done;
    expect(vectors.embedderId()).toBe('other:model');
    store.close();
  });
});
