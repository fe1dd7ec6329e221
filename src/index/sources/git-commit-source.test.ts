import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, FIXTURE_FILES, git, gitInit, INDEX_FIXTURE, put, tempDir } from '../../../test/cli/harness.js';
import { GitCommitSource } from './git-commit-source.js';
import { RepositoryIndex } from '../repository-index.js';
import { indexConnection } from '../store/index-store.js';
import { indexGeneration } from '../store/index-generation.js';

afterAll(cleanupTempDirs);

/**
 * A repository with three commits:
 *  c1: the fixture (9 files)
 *  c2: pricing.py edited, report.py deleted, web/coupon.ts added, a vendored file added
 *  c3: pricing.py back to its c1 content, checkout.ts edited
 */
let work: string;
let c1: string;
let c2: string;
let c3: string;

beforeAll(() => {
  work = join(tempDir('reponav-git-'), 'work');
  cpSync(INDEX_FIXTURE, work, { recursive: true });
  gitInit(work);
  c1 = commitAll(work, 'one');
  put(work, 'inventory/pricing.py', `${'# pricing v2\n'}${require_('inventory/pricing.py')}\ndef surcharge(total):\n    return total * 2\n`);
  rmSync(join(work, 'tools/report.py'));
  put(work, 'web/coupon.ts', 'export function applyCoupon(code: string): number {\n  return code.length;\n}\n');
  put(work, 'vendor/dep.py', 'x = 1\n');
  c2 = commitAll(work, 'two');
  git(work, 'checkout', '-q', c1, '--', 'inventory/pricing.py');
  put(work, 'web/checkout.ts', `${require_('web/checkout.ts')}\nexport const CHECKOUT_VERSION = 3;\n`);
  c3 = commitAll(work, 'three');
});

function require_(path: string): string {
  return git(work, 'show', `HEAD:${path}`);
}

/** Blobs of `commit` larger than `limit` bytes outside vendor/ (which the tests exclude). */
function blobsOver(commit: string, limit: number): number {
  return git(work, 'ls-tree', '-r', '-l', commit)
    .split('\n')
    .map((line) => line.split(/\s+/))
    .filter(([, type, , size, path]) => type === 'blob' && !path.startsWith('vendor/') && Number(size) > limit).length;
}

function symbolNames(repository: RepositoryIndex, path: string): string[] {
  return repository.store.symbolsOf(path).map((s) => s.qualifiedName);
}

describe('GitCommitSource', () => {
  it('lists a commit from ls-tree with blob ids and no mtimes; a committed vendor/ folder is content unless --exclude names it', async () => {
    // Every file of a commit is tracked: the default folder rules (vendor/, build/ …) leave none out.
    expect((await (await GitCommitSource.open(work, c2)).list()).files.map((f) => f.path)).toContain('vendor/dep.py');
    const source = await GitCommitSource.open(work, c2, { exclude: ['vendor/'] });
    expect(source.commit).toBe(c2);
    const listing = await source.list();
    const paths = listing.files.map((f) => f.path);
    expect(paths).toContain('web/coupon.ts');
    expect(paths).not.toContain('tools/report.py');
    expect(paths).not.toContain('vendor/dep.py');
    expect(listing.skipped.excluded).toBe(1);
    expect(source.skipReason('vendor/dep.py')).toBe('excluded');
    expect(source.skipRule('vendor/dep.py')).toBe("--exclude 'vendor/' (stored with the index); index again with --exclude given without 'vendor/' (--exclude '' clears the list) to index it");
    for (const f of listing.files) {
      expect(f.blobId).toMatch(/^[0-9a-f]{40}$/);
      expect(f.mtimeMs).toBeNull();
    }
  });

  it('stops reading early without an unhandled EPIPE from git cat-file (a consumer that breaks off, a stopped build)', async () => {
    const source = await GitCommitSource.open(work, c3);
    const files = (await source.list()).files;
    // Far more requests than a pipe holds, so the writer is still writing when the reader stops and git is killed.
    const many = Array.from({ length: 40_000 }, (_, i) => files[i % files.length]);
    let read = 0;
    for await (const { bytes } of source.readMany(many)) {
      expect(bytes).not.toBeNull();
      if (++read === 2) break;
    }
    // The killed git's pipe fails the pending write a little later: give it the turns it needs.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 10));
    expect(read).toBe(2);
  });

  it('accepts abbreviated ids, branch names and HEAD~n, and refuses unknown revisions and non-repositories', async () => {
    expect((await GitCommitSource.open(work, c1.slice(0, 8))).commit).toBe(c1);
    expect((await GitCommitSource.open(work, 'HEAD~2')).commit).toBe(c1);
    expect((await GitCommitSource.open(work, 'main')).commit).toBe(c3);
    await expect(GitCommitSource.open(work, 'no-such-branch')).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    // A tree or blob id is not a commit.
    const tree = git(work, 'rev-parse', `${c1}^{tree}`);
    await expect(GitCommitSource.open(work, tree)).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    await expect(GitCommitSource.open(tempDir(), 'HEAD')).rejects.toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
    await expect(GitCommitSource.open(join(tempDir(), 'missing'), 'HEAD')).rejects.toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
  });

  it('re-parses only the files that differ when switching commits; deleted files leave the index with their symbols', async () => {
    const indexPath = join(tempDir(), 'commit.db');
    const repository = await RepositoryIndex.open(work, { commit: c1, indexPath, exclude: ['vendor/'] });
    try {
      const first = await repository.refresh();
      expect(first).toMatchObject({ mode: 'commit', commit: c1, listed: FIXTURE_FILES.length, parsed: FIXTURE_FILES.length, unchanged: 0, deleted: 0 });
      expect(symbolNames(repository, 'tools/report.py')).toContain('low_stock_skus');

      await repository.switchCommit(c2);
      const second = await repository.refresh();
      // pricing.py changed, coupon.ts added: 2 parsed; report.py deleted; the other 7 untouched.
      expect(second).toMatchObject({ commit: c2, listed: FIXTURE_FILES.length, unchanged: FIXTURE_FILES.length - 2, deleted: 1 });
      expect(second.parsed + second.reused).toBe(2);
      expect(repository.store.file('tools/report.py')).toBeNull();
      expect(symbolNames(repository, 'tools/report.py')).toEqual([]);
      expect(indexConnection(repository.store).prepare('SELECT * FROM symbols WHERE name = ?').all('low_stock_skus')).toEqual([]);
      expect(symbolNames(repository, 'inventory/pricing.py')).toContain('surcharge');
      expect(symbolNames(repository, 'web/coupon.ts')).toContain('applyCoupon');

      await repository.switchCommit(c3);
      const third = await repository.refresh();
      // pricing.py back to c1 content, checkout.ts edited; nothing deleted (coupon.ts stays).
      expect(third).toMatchObject({ commit: c3, unchanged: FIXTURE_FILES.length - 2, deleted: 0 });
      expect(third.parsed + third.reused).toBe(2);
      expect(symbolNames(repository, 'inventory/pricing.py')).not.toContain('surcharge');
      expect(repository.store.fileText('inventory/pricing.py')).toBe(git(work, 'show', `${c3}:inventory/pricing.py`) + '\n');

      // Same commit again: nothing to do.
      const again = await repository.refresh();
      expect(again).toMatchObject({ parsed: 0, reused: 0, deleted: 0, unchanged: again.listed });

      const status = await repository.status();
      expect(status.commit).toBe(c3);
      expect(status.stale).toEqual({ changed: [], added: [], deleted: [] });
      expect(status.complete).toBe(true);
    } finally {
      repository.close();
    }
  });

  it('a refresh of the same commit with the same settings writes nothing, in this process or another; other settings list it again', async () => {
    const indexPath = join(tempDir(), 'commit-same.db');
    const open = (options: { maxFileBytes?: number } = {}) => RepositoryIndex.open(work, { commit: c2, indexPath, exclude: ['vendor/'], ...options });
    const first = await open();
    try {
      await first.refresh();
      const state = indexGeneration(first.store);
      const again = await first.refresh();
      expect(again).toMatchObject({ commit: c2, parsed: 0, reused: 0, deleted: 0, unchanged: again.listed });
      // No write: the index state, and every value derived from it, stays (a new state before: the marks were rewritten).
      expect(indexGeneration(first.store)).toBe(state);
    } finally {
      first.close();
    }
    const second = await open();
    try {
      const before = indexConnection(second.store).prepare('SELECT value FROM meta WHERE key = ?').pluck().get('indexed');
      await second.refresh();
      expect(indexConnection(second.store).prepare('SELECT value FROM meta WHERE key = ?').pluck().get('indexed')).toBe(before);
    } finally {
      second.close();
    }
    const limited = await open({ maxFileBytes: 400 });
    try {
      const report = await limited.refresh();
      expect(report.skipped['too-large']).toBe(blobsOver(c2, 400));
    } finally {
      limited.close();
    }
  });

  it('keeps --max-file-size (and other source options) when switching commits', async () => {
    const indexPath = join(tempDir(), 'commit-limit.db');
    const repository = await RepositoryIndex.open(work, { commit: c1, indexPath, maxFileBytes: 400, exclude: ['vendor/'] });
    try {
      const first = await repository.refresh();
      expect(first.skipped['too-large']).toBe(blobsOver(c1, 400));
      expect(first.skipped['too-large']).toBeGreaterThan(0);
      await repository.switchCommit(c2);
      const second = await repository.refresh();
      expect(second.skipped['too-large']).toBe(blobsOver(c2, 400));
      for (const f of repository.store.files()) expect(f.size, f.path).toBeLessThanOrEqual(400);
    } finally {
      repository.close();
    }
  });

  it('works on a bare clone', async () => {
    const bare = join(tempDir(), 'mirror.git');
    git(work, 'clone', '-q', '--bare', work, bare);
    const repository = await RepositoryIndex.open(bare, { commit: c2, indexPath: join(tempDir(), 'bare.db'), exclude: ['vendor/'] });
    try {
      const report = await repository.refresh();
      expect(report).toMatchObject({ mode: 'commit', commit: c2, listed: FIXTURE_FILES.length, parsed: FIXTURE_FILES.length });
      expect(repository.root).toBe(bare);
      expect(repository.readText('web/coupon.ts').text).toContain('applyCoupon');
    } finally {
      repository.close();
    }
  });

  it('skips a blob missing from a partial mirror as missing-blob and indexes the rest', async () => {
    const bare = join(tempDir(), 'partial.git');
    git(work, 'clone', '-q', '--bare', work, bare);
    // A local clone hard-links loose objects; if they were packed, unpack them so one blob can be removed.
    const pack = join(bare, 'objects', 'pack');
    const packs = readdirSync(pack).filter((name) => name.endsWith('.pack'));
    if (packs.length) {
      const moved = tempDir('reponav-packs-');
      for (const name of readdirSync(pack)) cpSync(join(pack, name), join(moved, name));
      rmSync(pack, { recursive: true });
      for (const name of packs) {
        const result = spawnSync('git', ['--git-dir', bare, 'unpack-objects', '-q'], { input: readFileSync(join(moved, name)) });
        if (result.status !== 0) throw new Error(String(result.stderr));
      }
    }
    const blob = git(bare, 'rev-parse', `${c2}:inventory/stock.py`);
    const loose = join(bare, 'objects', blob.slice(0, 2), blob.slice(2));
    expect(existsSync(loose)).toBe(true);
    const kept = join(tempDir('reponav-blob-'), 'blob');
    cpSync(loose, kept);
    rmSync(loose);

    const repository = await RepositoryIndex.open(bare, { commit: c2, indexPath: join(tempDir(), 'partial.db'), exclude: ['vendor/'] });
    try {
      const report = await repository.refresh();
      expect(report.skipped['missing-blob']).toBe(1);
      expect(report.skippedExamples['missing-blob']).toEqual(['inventory/stock.py']);
      expect(report.parsed).toBe(FIXTURE_FILES.length - 1);
      expect(repository.store.file('inventory/stock.py')).toBeNull();
      expect(repository.store.file('inventory/pricing.py')).not.toBeNull();
      expect(repository.store.file('web/coupon.ts')).not.toBeNull();
      // Not fatal on a second run either.
      const again = await repository.refresh();
      expect(again.skipped['missing-blob']).toBe(1);
      expect(repository.store.files()).toHaveLength(FIXTURE_FILES.length - 1);
      // Status tells the truth: skipped, not stale (it used to be listed as "added" forever).
      const status = await repository.status();
      expect(status.stale).toEqual({ changed: [], added: [], deleted: [] });
      expect(status.skipped['missing-blob']).toBe(1);
      // The blob arrives (the mirror fetched it): the next refresh of the same commit reads it.
      cpSync(kept, loose);
      const fetched = await repository.refresh();
      expect(fetched.skipped['missing-blob'] ?? 0).toBe(0);
      expect(repository.store.file('inventory/stock.py')).not.toBeNull();
      expect((await repository.status()).skipped['missing-blob'] ?? 0).toBe(0);
      // Whole again: the next refresh of this process has nothing to do and lists nothing.
      const listings = vi.spyOn(repository.source, 'list');
      const settled = await repository.refresh();
      expect(settled).toMatchObject({ parsed: 0, deleted: 0 });
      expect(listings).not.toHaveBeenCalled();
    } finally {
      repository.close();
    }
  });
});
