/**
 * A parse worker that dies mid-run is replaced and the files it held are sent
 * again, so the index completes; a file that kills every worker it meets is
 * recorded as a failed parse with the reason instead of waiting forever. The
 * crashing worker is the real one behind a listener that exits on cue.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexStore } from '../../src/index/store/index-store.js';
import { updateIndex } from '../../src/index/write/indexer.js';
import type { FileAnalysis } from '../../src/index/write/analyze-file.js';
import { createParsePool, MAX_ATTEMPTS } from '../../src/index/write/parse-pool.js';
import type { ParsedFile } from '../../src/parse/index.js';
import { decodeParse } from '../../src/index/store/parsed-blob.js';
import { WorktreeSource } from '../../src/index/sources/worktree-source.js';
import { cleanupTempDirs, ensureBuilt, PROJECT_ROOT, put, tempDir } from '../cli/harness.js';

afterAll(cleanupTempDirs);
beforeAll(ensureBuilt, 300_000);

/** A worker script that exits on `crash-once.py` the first time (any worker) and on `crash-always.py` every time. */
function crashingWorker(): string {
  const dir = tempDir('reponav-crash-');
  const marker = join(dir, 'crashed-once');
  const script = join(dir, 'crashing-worker.mjs');
  writeFileSync(
    script,
    // The real worker's listener comes first (a static import runs before this body), so it sees every message.
    `import ${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, 'dist/index/write/parse-worker.js')).href)};
import { parentPort } from 'node:worker_threads';
import { existsSync, writeFileSync } from 'node:fs';
parentPort.on('message', (m) => {
  if (m.path === 'crash-once.py' && !existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, ''); process.exit(7); }
  if (m.path === 'crash-always.py') process.exit(9);
});
`,
  );
  return script;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const parsedOf = (analysis: FileAnalysis): ParsedFile => decodeParse(analysis.parse.parsed);
const pythonFile = (i: number) => `def f${i}(x):\n    return x + ${i}\n`;

describe('parse worker crashes', () => {
  it('a worker killed mid-run is replaced and its files re-queued; every file is parsed', async () => {
    const pool = createParsePool(2, undefined, { workerScript: crashingWorker() });
    try {
      const paths = Array.from({ length: 12 }, (_, i) => (i === 5 ? 'crash-once.py' : `m${i}.py`));
      const results = await Promise.all(paths.map((path, i) => pool.analyze(path, utf8(pythonFile(i)))));
      expect(results.map((r) => parsedOf(r)).map((p) => [p.path, p.status, p.symbols.map((s) => s.name)])).toEqual(
        paths.map((path, i) => [path, 'ok', [`f${i}`]]),
      );
    } finally {
      await pool.close();
    }
  });

  it('a file that kills every worker becomes a failed parse with the reason, and the pool keeps working', async () => {
    const pool = createParsePool(2, undefined, { workerScript: crashingWorker() });
    try {
      const [bad, good] = await Promise.all([pool.analyze('crash-always.py', utf8(pythonFile(0))), pool.analyze('fine.py', utf8(pythonFile(1)))]);
      expect(parsedOf(bad)).toMatchObject({ status: 'failed', language: 'python', symbols: [] });
      expect(parsedOf(bad).failure).toMatch(new RegExp(`crashed ${MAX_ATTEMPTS} times on this file \\(exit code 9\\)`));
      expect(bad.rows.chunks.length).toBeGreaterThan(0);
      expect(parsedOf(good).status).toBe('ok');
      expect(parsedOf(await pool.analyze('later.py', utf8(pythonFile(2)))).status).toBe('ok');
    } finally {
      await pool.close();
    }
  });

  it('an index run whose worker is killed mid-run completes with every file', async () => {
    const root = join(tempDir(), 'repo');
    for (let i = 0; i < 30; i++) put(root, i === 17 ? 'crash-once.py' : `pkg/m${i}.py`, pythonFile(i));
    const store = IndexStore.open(join(root, '..', 'index.db'));
    try {
      const report = await updateIndex(store, await WorktreeSource.open(root), { workers: 2, inProcessBelow: 0, pool: { workerScript: crashingWorker() } });
      expect(report).toMatchObject({ listed: 30, parsed: 30, failed: 0 });
      expect(store.symbolsOf('crash-once.py').map((s) => s.name)).toEqual(['f17']);
      expect(existsSync(root)).toBe(true);
    } finally {
      store.close();
    }
  });
});
