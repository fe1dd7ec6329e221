import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, git, gitInit, put } from '../../../test/cli/harness.js';
import { GitWorktree, parsePorcelainV2 } from './git-worktree-status.js';
import { gitBlobId } from '../write/indexer.js';
import { indexConnection } from '../store/index-store.js';
import { indexGeneration } from '../store/index-generation.js';
import { RepositoryIndex } from '../repository-index.js';
import { WorktreeSource } from './worktree-source.js';

afterAll(cleanupTempDirs);

/** What a from-scratch listing of the tree says should be indexed: path → blob id. */
async function expectedRows(root: string): Promise<Record<string, string>> {
  const listing = await (await WorktreeSource.open(root, { useGit: false })).list();
  return Object.fromEntries(listing.files.map((f) => [f.path, gitBlobId(readFileSync(join(root, f.path)))]));
}

function indexedRows(repository: RepositoryIndex): Record<string, string> {
  return Object.fromEntries(repository.store.files().map((f) => [f.path, f.blobId]));
}

/** A git repository made from the fixture, indexed once, with a spy counting full listings. */
async function gitRepository(options: { watch?: boolean } = {}) {
  const fixture = copyIndexFixture();
  gitInit(fixture.root);
  commitAll(fixture.root, 'init');
  const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch: options.watch });
  const fullListings = vi.spyOn(repository.source as WorktreeSource, 'list');
  await repository.refresh();
  expect(fullListings).toHaveBeenCalledTimes(1);
  fullListings.mockClear();
  return { ...fixture, repository, fullListings };
}

describe('freshness from git status (no watcher)', () => {
  it('answers edits, adds, deletes and renames without listing the tree, and matches a full listing', async () => {
    const { root, repository, fullListings } = await gitRepository();
    try {
      let report = await repository.refresh();
      expect(report).toMatchObject({ parsed: 0, deleted: 0 });

      put(root, 'inventory/stock.py', readFileSync(join(root, 'inventory/stock.py'), 'utf8') + '\ndef restock():\n    return 1\n');
      report = await repository.refresh();
      expect(report.parsed).toBe(1);
      expect(repository.store.symbolsOf('inventory/stock.py').map((s) => s.name)).toContain('restock');

      put(root, 'inventory/new_module.py', 'def brand_new():\n    pass\n');
      rmSync(join(root, 'tools/report.py'));
      renameSync(join(root, 'web/cart.ts'), join(root, 'web/basket.ts'));
      report = await repository.refresh();
      expect(report.deleted).toBe(2);
      expect(indexedRows(repository)).toEqual(await expectedRows(root));

      // Staged renames too.
      git(root, 'add', '-A');
      git(root, 'mv', 'web/checkout.ts', 'web/pay.ts');
      await repository.refresh();
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      expect(fullListings).not.toHaveBeenCalled();
    } finally {
      repository.close();
    }
  });

  it('sees a file that was dirty at the last run and is now back to HEAD, and a branch switch', async () => {
    const { root, repository, fullListings } = await gitRepository();
    try {
      const original = readFileSync(join(root, 'web/cart.ts'), 'utf8');
      put(root, 'web/cart.ts', original + '\nexport const dirty = 1;\n');
      await repository.refresh();
      put(root, 'web/cart.ts', original);
      await repository.refresh();
      expect(repository.store.fileText('web/cart.ts')).toBe(original);

      git(root, 'checkout', '-q', '-b', 'feature');
      put(root, 'feature/only_here.py', 'def feature_only():\n    pass\n');
      rmSync(join(root, 'inventory/pricing.py'));
      commitAll(root, 'feature');
      git(root, 'checkout', '-q', 'main');
      await repository.refresh();
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      git(root, 'checkout', '-q', 'feature');
      const report = await repository.refresh();
      expect(report.parsed + report.reused).toBeGreaterThan(0);
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      expect(Object.keys(indexedRows(repository))).toContain('feature/only_here.py');
      expect(fullListings).not.toHaveBeenCalled();
    } finally {
      repository.close();
    }
  });

  it('lists the whole tree again after a .gitignore change, and then follows the new rules', async () => {
    const { root, repository, fullListings } = await gitRepository();
    try {
      put(root, '.gitignore', readFileSync(join(root, '.gitignore'), 'utf8') + '\ntools/\n');
      put(root, 'tools/scratch.py', 'x = 1\n'); // untracked below the now-ignored folder
      await repository.refresh();
      expect(fullListings).toHaveBeenCalledTimes(1);
      // git tracks tools/report.py: an ignore pattern does not take it out (as for git); the untracked file stays out.
      expect(Object.keys(indexedRows(repository))).toContain('tools/report.py');
      expect(Object.keys(indexedRows(repository))).not.toContain('tools/scratch.py');
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      // Its edit, reported by git, is followed without a full listing.
      put(root, 'tools/report.py', 'def changed():\n    pass\n');
      await repository.refresh();
      expect(fullListings).toHaveBeenCalledTimes(1);
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
    } finally {
      repository.close();
    }
  });

  it('a new process trusts the stored state: a one-file edit is answered without a full listing', async () => {
    const { root, indexPath, repository } = await gitRepository();
    repository.close();
    put(root, 'web/checkout.ts', 'export function checkoutNow(): number {\n  return 2;\n}\n');
    const next = await RepositoryIndex.open(root, { indexPath });
    const fullListings = vi.spyOn(next.source as WorktreeSource, 'list');
    try {
      const report = await next.refresh();
      expect(report.parsed).toBe(1);
      expect(fullListings).not.toHaveBeenCalled();
      expect(indexedRows(next)).toEqual(await expectedRows(root));
    } finally {
      next.close();
    }
  });
});

describe('freshness from a file watcher', () => {
  it('a no-change refresh lists and writes nothing; an edit made just before the call is answered', async () => {
    const { root, repository, fullListings } = await gitRepository({ watch: true });
    try {
      const token = repository.store.getMeta('freshness');
      const before = indexConnection(repository.store).pragma('data_version', { simple: true });
      const report = await repository.refresh();
      expect(report).toMatchObject({ parsed: 0, deleted: 0 });
      expect(repository.store.getMeta('freshness')).toBe(token);
      expect(indexConnection(repository.store).pragma('data_version', { simple: true })).toBe(before);

      put(root, 'inventory/pricing.py', 'def price_with_tax():\n    return 1\n');
      await repository.refresh();
      expect(repository.store.symbolsOf('inventory/pricing.py').map((s) => s.name)).toEqual(['price_with_tax']);

      put(root, 'pkg/sub/deep.py', 'def deep():\n    pass\n');
      await repository.refresh();
      expect(Object.keys(indexedRows(repository))).toContain('pkg/sub/deep.py');
      // The new folders are watched from now on.
      put(root, 'pkg/sub/deeper.py', 'def deeper():\n    pass\n');
      await repository.refresh();
      expect(Object.keys(indexedRows(repository))).toContain('pkg/sub/deeper.py');

      renameSync(join(root, 'pkg'), join(root, 'moved'));
      await repository.refresh();
      put(root, 'moved/sub/deep.py', 'def deep_moved():\n    pass\n');
      rmSync(join(root, 'tools'), { recursive: true });
      await repository.refresh();
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      expect(repository.store.symbolsOf('moved/sub/deep.py').map((s) => s.name)).toEqual(['deep_moved']);

      git(root, 'checkout', '-q', '-b', 'other');
      commitAll(root, 'other');
      git(root, 'checkout', '-q', 'main');
      await repository.refresh();
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
      expect(fullListings).not.toHaveBeenCalled();
    } finally {
      repository.close();
    }
  });

  it('after an overflow, and when another process wrote the index, git answers instead of the watcher', async () => {
    const { root, indexPath, repository } = await gitRepository({ watch: true });
    try {
      (repository.source as WorktreeSource).watcher!.markOverflow();
      put(root, 'web/extra.ts', 'export const extra = 1;\n');
      await repository.refresh();
      expect(Object.keys(indexedRows(repository))).toContain('web/extra.ts');
      expect(indexedRows(repository)).toEqual(await expectedRows(root));

      // Another process (no watcher) indexes an edit; this one must not trust its own record any more.
      const original = readFileSync(join(root, 'web/cart.ts'), 'utf8');
      put(root, 'web/cart.ts', original + '\nexport const other = 2;\n');
      const other = await RepositoryIndex.open(root, { indexPath });
      await other.refresh();
      other.close();
      put(root, 'web/cart.ts', original);
      await repository.refresh();
      expect(repository.store.fileText('web/cart.ts')).toBe(original);
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
    } finally {
      repository.close();
    }
  });

  it('a watching process opened on an index another process wrote arms its watches with one full listing, then answers from them', async () => {
    const fixture = copyIndexFixture();
    gitInit(fixture.root);
    commitAll(fixture.root, 'init');
    const writer = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    await writer.refresh();
    writer.close();
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch: true });
    const source = repository.source as WorktreeSource;
    const fullListings = vi.spyOn(source, 'list');
    try {
      await repository.refresh();
      expect(fullListings).toHaveBeenCalledTimes(1);
      expect(source.watcher!.size).toBeGreaterThan(0);
      // No event since: the watcher answers (git would issue a new token).
      const token = repository.store.getMeta('freshness');
      await repository.refresh();
      expect(repository.store.getMeta('freshness')).toBe(token);
      put(fixture.root, 'web/cart.ts', 'export const cart = 2;\n');
      await repository.refresh();
      expect(repository.store.fileText('web/cart.ts')).toBe('export const cart = 2;\n');
      expect(fullListings).toHaveBeenCalledTimes(1);
    } finally {
      repository.close();
    }
  });

  it('a watching process whose first listing was a status (no run of its own) trusts its watcher after one check that finds nothing', async () => {
    const fixture = copyIndexFixture();
    gitInit(fixture.root);
    commitAll(fixture.root, 'init');
    const writer = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    await writer.refresh();
    writer.close();
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch: true });
    const locked = vi.spyOn(repository as unknown as { refreshLocked(): Promise<unknown> }, 'refreshLocked');
    try {
      // The status lists the tree (and so sets the watches) before any refresh.
      expect((await repository.status()).stale).toEqual({ changed: [], added: [], deleted: [] });
      await repository.refresh();
      expect(locked).toHaveBeenCalledTimes(1);
      // One locked check that found nothing writes nothing: the index state (and its warm caches) stays.
      const state = indexGeneration(repository.store);
      for (let i = 0; i < 3; i++) await repository.refresh();
      expect(locked).toHaveBeenCalledTimes(1);
      expect(indexGeneration(repository.store)).toBe(state);
      // And the watcher still answers an edit.
      put(fixture.root, 'web/cart.ts', 'export const cart = 3;\n');
      await repository.refresh();
      expect(repository.store.fileText('web/cart.ts')).toBe('export const cart = 3;\n');
    } finally {
      repository.close();
    }
  });

  it('a folder made between a status and the first check (empty, so git does not see it) is watched from then on', async () => {
    const fixture = copyIndexFixture();
    gitInit(fixture.root);
    commitAll(fixture.root, 'init');
    const writer = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    await writer.refresh();
    writer.close();
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath, watch: true });
    try {
      await repository.status();
      mkdirSync(join(fixture.root, 'later'));
      await repository.refresh();
      put(fixture.root, 'later/module.py', 'def made_later():\n    return 1\n');
      await repository.refresh();
      expect(repository.store.symbolsOf('later/module.py').map((s) => s.name)).toEqual(['made_later']);
    } finally {
      repository.close();
    }
  });

  it('a locked refresh that finds nothing changed leaves the index state as it was', async () => {
    const { repository } = await gitRepository({ watch: false });
    try {
      const state = indexGeneration(repository.store);
      // --check takes the writer lock and runs the integrity check; nothing changed, so nothing is written.
      await repository.refresh({ check: true });
      expect(indexGeneration(repository.store)).toBe(state);
    } finally {
      repository.close();
    }
  });

  it('without git, counts a burst of more events than the limit as an overflow and lists everything', async () => {
    const fixture = copyIndexFixture();
    const repository = await RepositoryIndex.open(fixture.root, { indexPath: fixture.indexPath });
    const source = repository.source as WorktreeSource;
    source.watch({ overflowAt: 3 });
    const fullListings = vi.spyOn(source, 'list');
    try {
      await repository.refresh();
      put(fixture.root, 'web/one.ts', 'export const one = 1;\n');
      await repository.refresh();
      expect(fullListings).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 6; i++) put(fixture.root, `web/burst${i}.ts`, `export const burst${i} = ${i};\n`);
      await repository.refresh();
      expect(fullListings).toHaveBeenCalledTimes(2);
      expect(indexedRows(repository)).toEqual(await expectedRows(fixture.root));
    } finally {
      repository.close();
    }
  });

  it('after a watcher process indexed an edit that was then reverted, a git-only process still sees the revert', async () => {
    const { root, indexPath, repository } = await gitRepository({ watch: true });
    const original = readFileSync(join(root, 'inventory/stock.py'), 'utf8');
    try {
      put(root, 'inventory/stock.py', original + '\nX = 1\n');
      await repository.refresh();
    } finally {
      repository.close();
    }
    put(root, 'inventory/stock.py', original);
    const cli = await RepositoryIndex.open(root, { indexPath });
    try {
      await cli.refresh();
      expect(cli.store.fileText('inventory/stock.py')).toBe(original);
    } finally {
      cli.close();
    }
  });
});

describe('parsePorcelainV2', () => {
  it('reads HEAD, ordinary, unmerged and untracked entries, paths with spaces, submodules and nested repositories', () => {
    const head = 'a'.repeat(40);
    const out = [
      `# branch.oid ${head}`,
      '# branch.head main',
      '1 .M N... 100644 100644 100644 abc abc src/a file.py',
      '1 .M SC.. 160000 160000 160000 abc abc vendor/sub',
      'u UU N... 100644 100644 100644 100644 a b c src/conflict.py',
      '? notes/new.py',
      '? nested/',
      '',
    ].join('\0');
    expect(parsePorcelainV2(out)).toEqual({
      head,
      dirty: ['src/a file.py', 'src/conflict.py', 'notes/new.py'],
      dirtyFolders: ['vendor/sub', 'nested'],
    });
    expect(parsePorcelainV2('# branch.oid (initial)\0? a.py\0').head).toBeNull();
  });

  it('reads HEAD of a clone behind its upstream (branch lines without ahead/behind counts)', async () => {
    const origin = copyIndexFixture();
    gitInit(origin.root);
    commitAll(origin.root, 'one');
    put(origin.root, 'later.py', 'x = 1\n');
    commitAll(origin.root, 'two');
    const clone = join(origin.dir, 'clone');
    git(origin.dir, 'clone', '-q', origin.root, clone);
    git(clone, 'reset', '-q', '--hard', 'HEAD~1');
    put(clone, 'local.py', 'y = 2\n');
    const state = await (await GitWorktree.open(clone))!.state();
    expect(state).toMatchObject({ head: git(clone, 'rev-parse', 'HEAD'), dirty: ['local.py'] });
  });
});

describe('GitWorktree.startEarly (the CLI starts git status before its index opens)', () => {
  /** Counts `git status` runs (GitWorktree's private readState). */
  const spyGitStatus = () => vi.spyOn(GitWorktree.prototype as unknown as { readState: () => Promise<unknown> }, 'readState');

  it('hands its state to the first check of that root only: a no-change refresh runs no other git status, the next call sees a later edit', async () => {
    const { root, repository } = await gitRepository();
    const gitStatus = spyGitStatus();
    try {
      // Given a path that is not the real one (a trailing slash): the state is kept by real root.
      GitWorktree.startEarly(root + '/');
      expect(gitStatus).toHaveBeenCalledTimes(1);
      expect(await repository.refresh()).toMatchObject({ parsed: 0, deleted: 0 });
      expect(gitStatus).toHaveBeenCalledTimes(1);

      put(root, 'inventory/stock.py', readFileSync(join(root, 'inventory/stock.py'), 'utf8') + '\ndef later_edit():\n    return 1\n');
      expect((await repository.refresh()).parsed).toBe(1);
      expect(gitStatus.mock.calls.length).toBeGreaterThan(1);
      expect(repository.store.symbolsOf('inventory/stock.py').map((s) => s.name)).toContain('later_edit');
    } finally {
      gitStatus.mockRestore();
      repository.close();
    }
  });

  it('an edit made before the early start is answered by the check that takes it', async () => {
    const { root, repository } = await gitRepository();
    try {
      put(root, 'web/cart.ts', readFileSync(join(root, 'web/cart.ts'), 'utf8') + '\nexport function earlyEdit(): number {\n  return 1;\n}\n');
      GitWorktree.startEarly(root);
      expect((await repository.refresh()).parsed).toBe(1);
      expect(repository.store.symbolsOf('web/cart.ts').map((s) => s.name)).toContain('earlyEdit');
      expect(indexedRows(repository)).toEqual(await expectedRows(root));
    } finally {
      repository.close();
    }
  });

  it('a writing run never takes the early state: an edit made after the early start is indexed by it', async () => {
    const { root, repository } = await gitRepository();
    try {
      // Another writer may run between the early start and this run: its token would be newer than that state.
      await GitWorktree.startEarly(root);
      put(root, 'inventory/pricing.py', readFileSync(join(root, 'inventory/pricing.py'), 'utf8') + '\ndef after_the_start():\n    return 2\n');
      expect((await repository.refresh({ check: true })).parsed).toBe(1);
      expect(repository.store.symbolsOf('inventory/pricing.py').map((s) => s.name)).toContain('after_the_start');
    } finally {
      repository.close();
    }
  });

  it('does nothing below the top of a git working tree or for a missing folder', async () => {
    const { root, repository } = await gitRepository();
    repository.close();
    const gitStatus = spyGitStatus();
    try {
      GitWorktree.startEarly(join(root, 'inventory'));
      GitWorktree.startEarly(join(root, 'no-such-folder'));
      expect(gitStatus).not.toHaveBeenCalled();
    } finally {
      gitStatus.mockRestore();
    }
  });
});
