/**
 * Crash safety: `kill -9` the CLI in the middle of indexing a large tree, then
 * run it again. Work committed before the kill (batches of 64 files) must not
 * be redone, the second run must finish the job, and the index must open
 * without corruption. The killed run is the built CLI (a process, killed with
 * a signal); the runs after it are the same program in this process.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, ensureBuilt, put, spawnCli, tempDir } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

const FILES = 1500;
const SYMBOLS_PER_FILE = 4;

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

/** A Python module with exactly four symbols (a class, two methods, a function). */
function module(i: number): string {
  return [
    `"""Generated module ${i}."""`,
    'import os',
    '',
    '',
    `class Widget${i}:`,
    `    """Widget number ${i}."""`,
    '',
    '    def size(self):',
    `        return ${i} + len(os.sep)`,
    '',
    '    def label(self):',
    `        return "widget-${i}"`,
    '',
    '',
    `def make_widget_${i}(count):`,
    `    return [Widget${i}() for _ in range(count)]`,
    '',
  ].join('\n');
}

/** Count of indexed files, read through a separate read-only connection (WAL allows it); -1 while unreadable. */
function indexedFiles(indexPath: string): number {
  if (!existsSync(indexPath)) return -1;
  let db: Database.Database | null = null;
  try {
    db = new Database(indexPath, { readonly: true, fileMustExist: true, timeout: 50 });
    return (db.prepare('SELECT COUNT(*) AS n FROM files').get() as { n: number }).n;
  } catch {
    return -1;
  } finally {
    db?.close();
  }
}

describe('kill -9 during indexing', () => {
  it('loses at most the batch in flight; the next run continues and the index is intact', async () => {
    const dir = tempDir('reponav-crash-');
    const root = join(dir, 'big');
    for (let i = 0; i < FILES; i++) put(root, `pkg${Math.floor(i / 100)}/mod_${i}.py`, module(i));
    const indexPath = join(dir, 'index', 'big.db');
    const cacheDir = join(dir, 'cache');

    // First run: kill it as soon as at least one batch is committed.
    const child = spawnCli(['index', root, '--index-path', indexPath], { cacheDir });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));
    let seen = -1;
    const deadline = Date.now() + 120_000;
    while (!exitedEarly && Date.now() < deadline) {
      seen = indexedFiles(indexPath);
      if (seen >= 64) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(exitedEarly, `the first run finished before it could be killed (stderr: ${stderr})`).toBe(false);
    child.kill('SIGKILL');
    const first = await exited;
    expect(first.signal).toBe('SIGKILL');
    expect(seen).toBeGreaterThanOrEqual(64);
    const committed = indexedFiles(indexPath);
    expect(committed).toBeGreaterThanOrEqual(seen);
    expect(committed, 'the kill came after the whole tree was indexed; make the tree bigger').toBeLessThan(FILES);

    // The interrupted index says so.
    const status = await cli(['status', root, '--index-path', indexPath, '--json'], { cacheDir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).toBe(''); // opened without a rebuild warning
    expect(JSON.parse(status.stdout)).toMatchObject({ complete: false, files: committed });

    // Second run: finishes, and does not redo the committed work.
    const second = await cli(['index', root, '--index-path', indexPath, '--json'], { cacheDir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    const report = JSON.parse(second.stdout);
    expect(report.listed).toBe(FILES);
    expect(report.unchanged).toBe(committed);
    expect(report.unchanged).toBeGreaterThan(0);
    expect(report.parsed).toBe(FILES - committed);
    expect(report.deleted).toBe(0);

    // The index is intact and complete.
    const db = new Database(indexPath);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(() => db.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')").run()).not.toThrow();
      const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(one('SELECT COUNT(*) AS n FROM files')).toBe(FILES);
      expect(one('SELECT COUNT(*) AS n FROM symbols')).toBe(FILES * SYMBOLS_PER_FILE);
      expect(one("SELECT COUNT(*) AS n FROM files WHERE status <> 'ok'")).toBe(0);
      expect(one('SELECT COUNT(*) AS n FROM chunks WHERE file_id NOT IN (SELECT id FROM files)')).toBe(0);
      expect(one('SELECT COUNT(*) AS n FROM files WHERE blob_id NOT IN (SELECT blob_id FROM blobs)')).toBe(0);
      expect((db.prepare("SELECT value FROM meta WHERE key = 'complete'").get() as { value: string }).value).toBe('1');
    } finally {
      db.close();
    }

    // A third run has nothing to do.
    const third = JSON.parse((await cli(['index', root, '--index-path', indexPath, '--json'], { cacheDir })).stdout);
    expect(third).toMatchObject({ parsed: 0, unchanged: FILES });
    const fresh = JSON.parse((await cli(['status', root, '--index-path', indexPath, '--json'], { cacheDir })).stdout);
    expect(fresh).toMatchObject({ complete: true, files: FILES, symbols: FILES * SYMBOLS_PER_FILE, stale: { changed: [], added: [], deleted: [] } });
  }, 400_000);
});
