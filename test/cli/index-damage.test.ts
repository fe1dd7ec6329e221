/**
 * Page-level damage to an index (random bytes over some of its pages, as a
 * failing disk or a bad copy leaves it), through the built CLI: a read that
 * meets "database disk image is malformed" says so in one warning line,
 * rebuilds the index and answers; `status` probes for damage and never says
 * "up to date" over it, telling the command that repairs it, and changes nothing.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, expectOneSentenceError } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

/** Deterministic bytes (xorshift32), so every run damages the same way. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** An indexed copy of the fixture, its index file, and the first page of each b-tree named. */
async function indexed(): Promise<{ root: string; cacheDir: string; file: string; pages: Record<string, number>; pageSize: number }> {
  const { root, cacheDir } = copyIndexFixture();
  expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
  const found = readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('worktree.db'));
  expect(found).toHaveLength(1);
  const file = join(cacheDir, found[0]!);
  const db = new Database(file);
  // Checkpointed, so the pages live in the main file (where the damage goes).
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = Object.fromEntries((db.prepare("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0").all() as { name: string; rootpage: number }[]).map((r) => [r.name, r.rootpage]));
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  return { root, cacheDir, file, pages, pageSize };
}

// Each trial overwrites the root page of b-trees the command reads (the symbols, the imports, the text chunks).
const TRIALS: { trees: string[]; seed: number }[] = [
  { trees: ['symbols'], seed: 7 },
  { trees: ['imports'], seed: 11 },
  { trees: ['chunks'], seed: 13 },
  { trees: ['symbols', 'files'], seed: 17 },
];

describe('random bytes over index pages', () => {
  it.each(TRIALS)('$trees: status names the damage and the repair, changes nothing; symbols and search rebuild and answer', async ({ trees, seed }) => {
    const { root, cacheDir, file, pages, pageSize } = await indexed();
    const bytes = readFileSync(file);
    for (const tree of trees) {
      expect(pages[tree], `b-tree ${tree}`).toBeGreaterThan(1);
      noise(pageSize, seed + pages[tree]!).copy(bytes, (pages[tree]! - 1) * pageSize);
    }
    writeFileSync(file, bytes);

    const status = await cli(['status', root], { cacheDir });
    expect(expectOneSentenceError(status, 1)).toMatch(/^error: The index at .* is damaged \(SQLite: .*\); run `reponav index --check` to check it and rebuild it\.$/);
    expect(status.stdout).not.toMatch(/up to date/);
    expect(readFileSync(file)).toEqual(bytes);

    const symbols = await cli(['symbols', 'inventory/pricing.py', '--repo', root], { cacheDir });
    expect(symbols.code, symbols.stderr).toBe(0);
    expect(symbols.stdout).toMatch(/compute_discount/);
    const search = await cli(['search', 'discount', '--repo', root], { cacheDir });
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/inventory\/pricing\.py/);
    // The first command to read a damaged page says so in one line and repairs it; no stack trace, no second repair.
    const warnings = (symbols.stderr + search.stderr).trim().split('\n');
    expect(warnings).toEqual([expect.stringMatching(/^\[reponav\] warn: index at .* is damaged \(SQLite: .*\); rebuilding it$/)]);
    const after = await cli(['status', root], { cacheDir });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/Freshness: {2}up to date/);
  });
});

describe('a folder where the index file belongs', () => {
  it('--index-path naming a folder, or the cached index file replaced by a folder: one sentence naming the path and what to do', async () => {
    const { dir, root, cacheDir } = copyIndexFixture();
    const folder = join(dir, 'not-a-file');
    mkdirSync(folder);
    for (const args of [['index', root, '--index-path', folder], ['symbols', 'inventory/stock.py', '--repo', root, '--index-path', folder]]) {
      const line = expectOneSentenceError(await cli(args, { cacheDir }), 1);
      expect(line, args[0]).toContain(`${folder} is a folder, not an index file; remove or rename that folder, or give --index-path a file path`);
      expect(line, args[0]).not.toMatch(/disk I\/O error|unable to open database file/);
    }
    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const cached = readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith('worktree.db'))!;
    const file = join(cacheDir, cached);
    rmSync(file);
    mkdirSync(file);
    const line = expectOneSentenceError(await cli(['view', 'inventory/stock.py', '--repo', root], { cacheDir }), 1);
    expect(line).toContain(`${file} is a folder, not an index file`);
  });
});
