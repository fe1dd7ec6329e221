/**
 * The first search on a never-indexed working tree answers from a focused
 * partial index (the files a text scan ranks first and their imports) while
 * `reponav index` builds the rest in the background; a search while that
 * build runs answers from a provisional text scan; once the index is
 * complete, searches use it. The first search starts that build as a detached
 * `reponav index` process of the built CLI, so it runs the built CLI; the
 * provisional answers (the lock held by this test) run in this process.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryIndex } from '../../src/index/repository-index.js';
import { WriterLock } from '../../src/index/store/writer-lock.js';
import { PROVISIONAL_MIN_FILES } from '../../src/cli/provisional-answer.js';
import { estimateTokens } from '../../src/budget/index.js';
import { cleanupTempDirs, copyIndexFixture, ensureBuilt, put, runCli } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

async function waitForIndex(root: string, indexPath: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (!new WriterLock(indexPath).isHeld()) {
      const repository = await RepositoryIndex.open(root, { indexPath });
      const done = repository.store.getMeta('indexed') !== null;
      repository.close();
      if (done) return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the background index did not finish');
}

describe('reponav search on a never-indexed tree', () => {
  it('answers from a focused partial index (the real scaffold, labelled with its coverage), builds the rest in the background, then answers in full', async () => {
    const fixture = copyIndexFixture();
    // Large enough for a focused first index: small trees are indexed whole before the first answer.
    for (let i = 0; i < PROVISIONAL_MIN_FILES; i++) put(fixture.root, `gen/module_${i}.py`, `def helper_${i}():\n    return ${i}\n`);
    const indexPath = join(fixture.dir, 'index', 'index.db');
    const first = runCli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath, '--json'], { cacheDir: fixture.cacheDir });
    expect(first.code, first.stderr).toBe(0);
    const data = JSON.parse(first.stdout) as { partialIndex?: { indexedFiles: number; totalFiles: number; complete: boolean }; files: { path: string }[]; scaffold: string };
    expect(data.partialIndex).toMatchObject({ totalFiles: PROVISIONAL_MIN_FILES + 9, complete: false });
    expect(data.partialIndex!.indexedFiles).toBeLessThan(20);
    expect(data.files[0].path).toBe('inventory/stock.py');

    await waitForIndex(fixture.root, indexPath);
    const later = runCli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath], { cacheDir: fixture.cacheDir });
    expect(later.code).toBe(0);
    expect(later.stdout).not.toMatch(/\[PARTIAL INDEX\]|\[PROVISIONAL\]/);
    expect(later.stdout).toContain('[FILE] inventory/stock.py');
    expect(later.stdout).toContain('[ANCHORS]');
  }, 120_000);

  it('says in its first line how much the partial answer covers, above the scaffold', () => {
    const fixture = copyIndexFixture();
    for (let i = 0; i < PROVISIONAL_MIN_FILES; i++) put(fixture.root, `gen/module_${i}.py`, `def helper_${i}():\n    return ${i}\n`);
    const indexPath = join(fixture.dir, 'index', 'index.db');
    const first = runCli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath], { cacheDir: fixture.cacheDir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(
      new RegExp(`^\\[PARTIAL INDEX\\] 'shop' is being indexed: this answer covers \\d+ of its ${PROVISIONAL_MIN_FILES + 9} files .*search again shortly for the full answer\\.$`),
    );
    expect(first.stdout).toContain('[FILE] inventory/stock.py');
    expect(first.stdout).toContain('[ANCHORS]');
  }, 120_000);

  it('answers provisionally (text and --json, within --budget-tokens) while another process builds the first index', async () => {
    const fixture = copyIndexFixture();
    for (let i = 0; i < PROVISIONAL_MIN_FILES; i++) put(fixture.root, `gen/module_${i}.py`, `def helper_${i}():\n    return ${i}\n`);
    const indexPath = join(fixture.dir, 'index', 'index.db');
    mkdirSync(dirname(indexPath), { recursive: true });
    // This test stands for the other process: it holds the writer lock.
    const lease = await new WriterLock(indexPath).acquire();
    try {
      const first = await cli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath], { cacheDir: fixture.cacheDir });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.split('\n')[0]).toMatch(/^\[PROVISIONAL\]/);
      expect(first.stdout).toContain('[FILE] inventory/stock.py');

      const json = await cli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath, '--json'], { cacheDir: fixture.cacheDir });
      expect(json.code).toBe(0);
      const data = JSON.parse(json.stdout) as { provisional?: boolean; provisionalFiles?: { path: string }[] };
      expect(data.provisional).toBe(true);
      expect(data.provisionalFiles?.[0]?.path).toBe('inventory/stock.py');

      // Every --format keeps its own shape, labelled provisional in its first line.
      const fileOnly = await cli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath, '--format', 'file-only'], { cacheDir: fixture.cacheDir });
      expect(fileOnly.code, fileOnly.stderr).toBe(0);
      const [label, header, firstFile] = fileOnly.stdout.split('\n');
      expect(label).toMatch(/^\[PROVISIONAL\]/);
      expect(header).toMatch(/^\[FILES\] \d+ of \d+ candidate files \(text scan\)$/);
      expect(firstFile).toMatch(/^1\. inventory\/stock\.py \(matches: \d+\)$/);
      expect(fileOnly.stdout).not.toContain('[FILE] ');
      const inline = await cli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath, '--format', 'inline'], { cacheDir: fixture.cacheDir });
      expect(inline.stdout.split('\n').slice(2, 4).join('\n')).toMatch(/^1\. inventory\/stock\.py \(matches: \d+\)\n {3}- L\d+: /);
      const snippet = await cli(['search', 'reserve stock copies', '--repo', fixture.root, '--index-path', indexPath, '--format', 'snippet'], { cacheDir: fixture.cacheDir });
      expect(snippet.stdout.split('\n').slice(1, 3).join('\n')).toMatch(/^inventory\/stock\.py:\d+ \(matches: \d+\)\n {2}\d+ \| /);

      // The provisional answer is the search tool's, through callTool: it honours --budget-tokens.
      const small = await cli(['search', 'reserve stock copies helper', '--repo', fixture.root, '--index-path', indexPath, '--budget-tokens', '100'], { cacheDir: fixture.cacheDir });
      expect(small.code).toBe(0);
      expect(small.stdout).toMatch(/^\[PROVISIONAL\]/);
      expect(estimateTokens(small.stdout.trimEnd())).toBeLessThanOrEqual(100);
      expect(small.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\[TRUNCATED\] \d+ files left out to stay within 100 tokens$/);
    } finally {
      lease.release();
    }
  }, 120_000);
});
