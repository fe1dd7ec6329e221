import { spawnSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, FIXTURE_FILES, put, tempDir } from '../../../test/cli/harness.js';
import { RepositoryIndex } from '../repository-index.js';
import { WorktreeSource } from './worktree-source.js';
import { indexConnection } from '../store/index-store.js';

afterAll(cleanupTempDirs);

/** Everything the stored blobs contain, joined (to prove a file was never read). */
function allStoredText(repository: RepositoryIndex): string {
  return (indexConnection(repository.store).prepare('SELECT text FROM blobs').all() as { text: string }[]).map((r) => r.text).join('\n');
}

describe('WorktreeSource listing', () => {
  it('lists exactly the fixture files of a clean copy', async () => {
    const { root } = copyIndexFixture();
    const listing = await (await WorktreeSource.open(root)).list();
    expect(listing.files.map((f) => f.path)).toEqual(FIXTURE_FILES);
    expect(listing.skipped).toEqual({});
    for (const f of listing.files) {
      expect(f.blobId).toBeNull();
      expect(typeof f.mtimeMs).toBe('number');
    }
  });

  it('countUpTo counts the files list() would list, stopping at the limit', async () => {
    const { root } = copyIndexFixture();
    put(root, 'debug.log', 'log line\n'); // ignored by the fixture's .gitignore
    put(root, 'node_modules/dep/index.js', 'module.exports = 1;\n'); // vendored
    put(root, 'logo.png', 'not really a png'); // binary by extension
    const source = await WorktreeSource.open(root);
    const listed = (await source.list()).files.length;
    expect(listed).toBe(FIXTURE_FILES.length);
    expect(await source.countUpTo(listed + 10)).toBe(listed);
    expect(await source.countUpTo(listed)).toBe(listed);
    expect(await source.countUpTo(2)).toBe(2);
    // A partial walk leaves the next full listing whole.
    expect((await source.list()).files.map((f) => f.path)).toEqual(FIXTURE_FILES);
  });

  it('honours the root .gitignore and nested .gitignore files, and counts what they hide', async () => {
    const { root } = copyIndexFixture();
    put(root, 'debug.log', 'log line\n'); // root: *.log
    put(root, 'web/deep/trace.log', 'log line\n'); // root *.log applies at any depth
    put(root, 'build_output/app.py', 'x = 1\n'); // root: build_output/
    put(root, 'local_settings.py', 'SECRET = 1\n'); // root: /local_settings.py (anchored)
    put(root, 'web/local_settings.py', 'NOT_SECRET = 1\n'); // anchored pattern must not hide this one
    put(root, 'inventory/generated_tables.py', 'TABLE = []\n'); // nested: generated_*.py
    put(root, 'tools/generated_tables.py', 'TABLE = []\n'); // nested rule must not leak to a sibling folder
    const listing = await (await WorktreeSource.open(root)).list();
    const paths = listing.files.map((f) => f.path);
    expect(paths).toContain('web/local_settings.py');
    expect(paths).toContain('tools/generated_tables.py');
    for (const hidden of ['debug.log', 'web/deep/trace.log', 'build_output/app.py', 'local_settings.py', 'inventory/generated_tables.py']) {
      expect(paths).not.toContain(hidden);
    }
    // Ignored directories count once (build_output/), files once each.
    expect(listing.skipped.ignored).toBe(5);
  });

  it('follows git semantics for a negation in a nested .gitignore (!keep.log re-includes a parent-ignored file)', async () => {
    // git check-ignore agrees: sub/keep.log is NOT ignored, sub/drop.log is.
    const { root } = copyIndexFixture();
    put(root, 'logs/.gitignore', '!keep.log\n');
    put(root, 'logs/keep.log', 'keep me\n');
    put(root, 'logs/drop.log', 'drop me\n');
    const listing = await (await WorktreeSource.open(root)).list();
    const paths = listing.files.map((f) => f.path);
    expect(paths).not.toContain('logs/drop.log');
    expect(paths).toContain('logs/keep.log');
  });

  it('sees an edited, added or removed .gitignore on the next listing of the same source', async () => {
    const { root } = copyIndexFixture();
    put(root, 'notes/a.py', 'A = 1\n');
    put(root, 'notes/b.py', 'B = 1\n');
    const source = await WorktreeSource.open(root);
    const paths = async () => (await source.list()).files.map((f) => f.path).filter((p) => p.startsWith('notes/'));
    expect(await paths()).toEqual(['notes/a.py', 'notes/b.py']);
    put(root, 'notes/.gitignore', 'a.py\n');
    expect(await paths()).toEqual(['notes/.gitignore', 'notes/b.py']);
    put(root, 'notes/.gitignore', 'b.py\n');
    expect(await paths()).toEqual(['notes/.gitignore', 'notes/a.py']);
    rmSync(join(root, 'notes/.gitignore'));
    expect(await paths()).toEqual(['notes/a.py', 'notes/b.py']);
  });

  it('honours .git/info/exclude', async () => {
    const { root } = copyIndexFixture();
    put(root, '.git/info/exclude', 'tools/\n');
    const listing = await (await WorktreeSource.open(root)).list();
    expect(listing.files.map((f) => f.path).some((p) => p.startsWith('tools/'))).toBe(false);
  });

  it('skips vendored folders at any depth and counts them', async () => {
    const { root } = copyIndexFixture();
    put(root, 'node_modules/left-pad/index.js', 'module.exports = 1;\n');
    put(root, 'web/node_modules/react/index.js', 'module.exports = 2;\n');
    put(root, 'vendor/lib/thing.py', 'x = 1\n');
    put(root, 'inventory/__pycache__/stock.cpython-311.opt', 'junk\n');
    const listing = await (await WorktreeSource.open(root)).list();
    expect(listing.files.map((f) => f.path)).toEqual(FIXTURE_FILES);
    expect(listing.skipped.vendored).toBe(4);
    expect(listing.skippedExamples.vendored).toContain('node_modules/');
  });

  it('skips binaries by extension at listing time and by NUL bytes at read time, counting both', async () => {
    const { dir, root } = copyIndexFixture();
    put(root, 'web/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    put(root, 'inventory/cache.pyc', Buffer.from('not really bytecode but a .pyc'));
    // A text-looking name with a NUL byte inside: only sniffing can tell.
    put(root, 'tools/blob.py', Buffer.concat([Buffer.from('x = 1\n'), Buffer.from([0, 1, 2, 0]), Buffer.from('\ny = 2\n')]));
    const listing = await (await WorktreeSource.open(root)).list();
    expect(listing.skipped.binary).toBe(2);
    expect(listing.files.map((f) => f.path)).toContain('tools/blob.py'); // not known to be binary until read

    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    try {
      const report = await repository.refresh();
      expect(report.skipped.binary).toBe(3);
      expect(repository.store.file('tools/blob.py')).toBeNull();
      expect(repository.store.file('web/logo.png')).toBeNull();
      // The report counts what the index holds (as status does): the file skipped on reading is not one.
      expect(report.listed).toBe(FIXTURE_FILES.length);
      expect(repository.store.files()).toHaveLength(FIXTURE_FILES.length);
    } finally {
      repository.close();
    }
  });

  it('skips files over maxFileBytes and counts them; a file that grows over the limit leaves the index', async () => {
    const { dir, root } = copyIndexFixture();
    put(root, 'inventory/huge.py', `DATA = "${'x'.repeat(5000)}"\n`);
    const listing = await (await WorktreeSource.open(root, { maxFileBytes: 4096 })).list();
    expect(listing.skipped['too-large']).toBe(1);
    expect(listing.skippedExamples['too-large']).toEqual(['inventory/huge.py']);
    expect(listing.files.map((f) => f.path)).not.toContain('inventory/huge.py');

    const indexPath = join(dir, 'index.db');
    let repository = await RepositoryIndex.open(root, { indexPath, maxFileBytes: 4096 });
    try {
      await repository.refresh();
      expect(repository.store.file('web/cart.ts')).not.toBeNull();
    } finally {
      repository.close();
    }
    put(root, 'web/cart.ts', `// ${'y'.repeat(5000)}\n`);
    repository = await RepositoryIndex.open(root, { indexPath, maxFileBytes: 4096 });
    try {
      const report = await repository.refresh();
      expect(report.skipped['too-large']).toBe(2);
      expect(report.deleted).toBe(1);
      expect(repository.store.file('web/cart.ts')).toBeNull();
      expect(repository.store.symbolsOf('web/cart.ts')).toEqual([]);
    } finally {
      repository.close();
    }
  });

  it('never follows a symlink that leaves the root, and never reads its target', async () => {
    const { dir, root } = copyIndexFixture();
    const outside = tempDir('reponav-outside-');
    writeFileSync(join(outside, 'secret.py'), 'OUTSIDE_SECRET_TOKEN_4711 = "do not index"\n');
    symlinkSync(join(outside, 'secret.py'), join(root, 'inventory', 'leak.py'));
    symlinkSync(outside, join(root, 'outside-dir'));
    symlinkSync('../../..', join(root, 'web', 'up')); // relative link climbing out
    // A FIFO outside the root: reading it would block forever, so a read would time the test out.
    const fifo = join(outside, 'pipe.py');
    const mkfifo = spawnSync('mkfifo', [fifo]);
    if (mkfifo.status === 0) symlinkSync(fifo, join(root, 'tools', 'pipe.py'));

    const listing = await (await WorktreeSource.open(root)).list();
    const paths = listing.files.map((f) => f.path);
    expect(paths).not.toContain('inventory/leak.py');
    expect(paths.some((p) => p.startsWith('outside-dir/') || p.startsWith('web/up/'))).toBe(false);
    expect(listing.skipped['symlink-outside-root']).toBe(mkfifo.status === 0 ? 4 : 3);

    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    try {
      const report = await repository.refresh();
      expect(report.skipped['symlink-outside-root']).toBe(mkfifo.status === 0 ? 4 : 3);
      expect(allStoredText(repository)).not.toContain('OUTSIDE_SECRET_TOKEN_4711');
      expect(() => repository.resolveFile('inventory/leak.py')).toThrow(/outside the repository root/);
    } finally {
      repository.close();
    }
  });

  it('labels a symlink loop and a dangling link as such, not as leaving the root', async () => {
    const { root } = copyIndexFixture();
    symlinkSync('loop-b.py', join(root, 'loop-a.py'));
    symlinkSync('loop-a.py', join(root, 'loop-b.py'));
    symlinkSync('self.py', join(root, 'self.py'));
    symlinkSync('no-such-file.py', join(root, 'dangling.py'));
    const listing = await (await WorktreeSource.open(root)).list();
    expect(listing.skipped).toMatchObject({ 'symlink-loop': 3, 'symlink-dangling': 1 });
    expect(listing.skipped['symlink-outside-root']).toBeUndefined();
    expect(listing.skippedExamples['symlink-dangling']).toEqual(['dangling.py']);
  });

  it('does not read a file that became an outside symlink between listing and reading', async () => {
    const { root } = copyIndexFixture();
    const outside = tempDir('reponav-outside-');
    writeFileSync(join(outside, 'secret.py'), 'RACE_SECRET = 1\n');
    const source = await WorktreeSource.open(root);
    const listing = await source.list();
    rmSync(join(root, 'tools/report.py'));
    symlinkSync(join(outside, 'secret.py'), join(root, 'tools/report.py'));
    const read = new Map<string, Buffer | null>();
    for await (const { file, bytes } of source.readMany(listing.files)) read.set(file.path, bytes);
    expect(read.get('tools/report.py')).toBeNull();
    expect(read.get('web/cart.ts')?.toString('utf8')).toContain('class Cart');
  });

  it('indexes a symlink inside the root that points to a file inside the root', async () => {
    const { dir, root } = copyIndexFixture();
    symlinkSync('stock.py', join(root, 'inventory', 'stock_alias.py'));
    symlinkSync(join(root, 'web'), join(root, 'web_link')); // directory links are not followed (no double indexing)
    const repository = await RepositoryIndex.open(root, { indexPath: join(dir, 'index.db') });
    try {
      const report = await repository.refresh();
      expect(report.skipped['symlink-outside-root'] ?? 0).toBe(0);
      const alias = repository.store.file('inventory/stock_alias.py');
      expect(alias).not.toBeNull();
      expect(alias!.blobId).toBe(repository.store.file('inventory/stock.py')!.blobId);
      expect(repository.store.symbolsOf('inventory/stock_alias.py').map((s) => s.qualifiedName)).toContain('StockLedger.reserve_items');
      expect(repository.store.files().some((f) => f.path.startsWith('web_link/'))).toBe(false);
    } finally {
      repository.close();
    }
  });

  it('refuses a root that does not exist or is a file', async () => {
    const dir = tempDir();
    await expect(WorktreeSource.open(join(dir, 'nope'))).rejects.toMatchObject({ code: 'BAD_INPUT' });
    writeFileSync(join(dir, 'file.txt'), 'x');
    await expect(WorktreeSource.open(join(dir, 'file.txt'))).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
