/**
 * #12 items 3 and 6, and #15's integrity-check policy, through the built CLI:
 * an index is never deleted for a failure that proves nothing about it (the
 * native module built for another Node.js, a permission error, a lock held by
 * another process), the integrity check runs when it can matter instead of on
 * every open, and the settings that shaped an index stick to it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cleanupTempDirs, copyIndexFixture, ensureBuilt, expectOneSentenceError, put, tempDir } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

function indexFile(cacheDir: string): string {
  const found = readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('worktree.db'));
  expect(found).toHaveLength(1);
  return join(cacheDir, found[0]!);
}

/** An indexed copy of the fixture and its index file's bytes. */
async function indexed(): Promise<{ root: string; cacheDir: string; file: string; bytes: Buffer }> {
  const { root, cacheDir } = copyIndexFixture();
  const result = await cli(['index', root, '-q'], { cacheDir });
  expect(result.code, result.stderr).toBe(0);
  const file = indexFile(cacheDir);
  return { root, cacheDir, file, bytes: readFileSync(file) };
}

describe('an index is never deleted for a failure that proves nothing about it', () => {
  it('a native module built for another Node.js: status and search say to run npm rebuild, and touch nothing', async () => {
    const { root, cacheDir, file, bytes } = await indexed();
    // Loading any .node file fails as it does when better-sqlite3 was built for another ABI.
    const hook = join(tempDir(), 'abi-mismatch.cjs');
    writeFileSync(
      hook,
      `process.dlopen = (module, filename) => { const e = new Error("The module '" + filename + "' was compiled against a different Node.js version using NODE_MODULE_VERSION 999. This version of Node.js requires NODE_MODULE_VERSION " + process.versions.modules + ". Please try re-compiling or re-installing the module."); e.code = 'ERR_DLOPEN_FAILED'; throw e; };\n`,
    );
    for (const args of [['status', root], ['search', 'tax', '--repo', root]]) {
      const result = spawnSync(process.execPath, ['--require', hook, CLI, ...args], { env: { ...process.env, REPONAV_CACHE_DIR: cacheDir }, encoding: 'utf8' });
      const line = expectOneSentenceError({ code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr }, 1);
      expect(line).toMatch(/npm rebuild better-sqlite3.*left as it is/);
      expect(readFileSync(file)).toEqual(bytes);
    }
  });

  it('an index file this user may not read: reported with what to do, not deleted', async () => {
    const { root, cacheDir, file, bytes } = await indexed();
    chmodSync(join(root, '..'), 0o755);
    const asRoot = process.getuid?.() === 0;
    // Root reads any file, so the command runs as nobody, who may write the folder but not the file.
    if (asRoot) for (const dir of [cacheDir, join(file, '..')]) chownSync(dir, 65534, 65534);
    chmodSync(file, 0o000);
    try {
      const result = spawnSync(process.execPath, [CLI, 'search', 'tax', '--repo', root], {
        env: { ...process.env, REPONAV_CACHE_DIR: cacheDir },
        encoding: 'utf8',
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      const line = expectOneSentenceError({ code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr }, 1);
      expect(line).toMatch(/Cannot open the index at .*writable.*left as it is/);
    } finally {
      chmodSync(file, 0o644);
    }
    expect(readFileSync(file)).toEqual(bytes);
  });

  it('an index another program holds an exclusive lock on: reported, not deleted', async () => {
    const { root, cacheDir, file, bytes } = await indexed();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(process.argv[1]); db.pragma('locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); db.prepare("SELECT COUNT(*) FROM files").get(); console.log('held'); setTimeout(() => {}, 60000);`,
        file,
      ],
      { cwd: join(CLI, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
      const result = await cli(['find', 'function', 'compute_discount', '--repo', root], { cacheDir });
      expect(expectOneSentenceError(result, 1)).toMatch(/locked by another process.*left as it is/);
    } finally {
      holder.kill('SIGKILL');
    }
    expect(readFileSync(file)).toEqual(bytes);
    const after = await cli(['find', 'function', 'compute_discount', '--repo', root], { cacheDir });
    expect(after.code, after.stderr).toBe(0);
  }, 30_000);
});

describe('integrity checks when they can matter', () => {
  /** Overwrites a stretch of pages in the middle of the (checkpointed) index. */
  function damagePages(file: string): void {
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(12 * 4096);
    for (let i = 6 * 4096; i < 9 * 4096; i++) bytes[i] = 0xa5;
    writeFileSync(file, bytes);
  }

  it('opening does not read the whole index (status answers and changes nothing); index --check finds the damage and rebuilds', async () => {
    const { root, cacheDir, file } = await indexed();
    damagePages(file);
    const damaged = readFileSync(file);
    // status reads what it needs; meeting a damaged page it says what to do, and changes nothing.
    const status = await cli(['status', root], { cacheDir });
    if (status.code !== 0) expect(expectOneSentenceError(status, 1)).toMatch(/is damaged.*reponav index --check/);
    expect(readFileSync(file)).toEqual(damaged);
    const checked = await cli(['index', root, '--check'], { cacheDir });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toMatch(/failed its integrity check.*rebuilding it/);
    expect(checked.stdout).toMatch(/\(9 parsed, 0 reused, 0 unchanged/);
  });

  it("a damaged full-text configuration page (SQLite: 'vtable constructor failed'): status says to run index and changes nothing; the next find rebuilds with one warning line and answers", async () => {
    const { root, cacheDir, file } = await indexed();
    const db = new Database(file, { readonly: true });
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'chunks_fts_config'").get() as { rootpage: number };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const bytes = readFileSync(file);
    bytes.fill(0, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(file, bytes);
    const status = await cli(['status', root], { cacheDir });
    expect(expectOneSentenceError(status, 1)).toMatch(/is damaged \(SQLite: vtable constructor failed: chunks_fts\); run `reponav index` to rebuild it/);
    expect(readFileSync(file)).toEqual(bytes);
    const found = await cli(['find', 'function', 'compute_discount', '--repo', root], { cacheDir });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stderr.trim().split('\n')).toEqual([expect.stringMatching(/is damaged .*; rebuilding it$/)]);
    expect(found.stdout).toMatch(/inventory\/pricing\.py:16-/);
  });

  it('after a writer that did not finish (its <index>.writer is left), the next writer checks and rebuilds a damaged index', async () => {
    const { root, cacheDir, file } = await indexed();
    damagePages(file);
    writeFileSync(`${file}.writer`, JSON.stringify({ pid: 999999, startedAt: Date.now(), done: 3, total: 9 }));
    const result = await cli(['index', root], { cacheDir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/failed its integrity check.*rebuilding it/);
    const again = await cli(['index', root], { cacheDir });
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/0 parsed, 0 reused, 9 unchanged/);
  });
});

describe('settings that stick', () => {
  it('a file indexed under a raised --max-file-size stays found by later commands, until the size is changed on index', async () => {
    const { root, cacheDir } = copyIndexFixture();
    const big = ['def very_large_module_entry(x):', '    return x', ...Array.from({ length: 40_000 }, (_, i) => `VALUE_${i} = ${i}  # filler line`)].join('\n');
    expect(big.length).toBeGreaterThan(1024 * 1024);
    put(root, 'big/generated.py', big);
    const raised = await cli(['index', root, '--max-file-size', '4m'], { cacheDir });
    expect(raised.code, raised.stderr).toBe(0);
    for (let n = 0; n < 2; n++) {
      const found = await cli(['find', 'function', 'very_large_module_entry', '--repo', root], { cacheDir });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toContain('big/generated.py:1-2 very_large_module_entry');
    }
    const status = await cli(['status', root, '--json'], { cacheDir });
    expect(JSON.parse(status.stdout)).toMatchObject({ settings: { maxFileBytes: 4 * 1024 * 1024 }, stale: { added: [], deleted: [] } });
    const lowered = await cli(['index', root, '--max-file-size', '1m'], { cacheDir });
    expect(lowered.stdout).toMatch(/1 removed/);
    const gone = await cli(['find', 'function', 'very_large_module_entry', '--repo', root], { cacheDir });
    expect(gone.stdout + gone.stderr).not.toContain('big/generated.py:1-2');
  });
});
