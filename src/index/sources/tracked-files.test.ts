import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, git, gitInit, put, tempDir } from '../../../test/cli/harness.js';
import { RepositoryIndex } from '../repository-index.js';
import { WorktreeSource } from './worktree-source.js';

afterAll(cleanupTempDirs);

describe('tracked files are repository content', () => {
  it('lists a file git tracks whatever an ignore pattern or a default vendored folder says; untracked ones stay out', async () => {
    const { root, indexPath } = copyIndexFixture();
    gitInit(root);
    put(root, 'mypy/typeshed/stdlib/venv/__init__.pyi', 'class EnvBuilder: ...\n'); // a tracked venv/ folder (typeshed)
    put(root, 'com/google/devtools/build/lib/Main.java', 'class Main {}\n'); // a tracked build/ folder (Bazel)
    put(root, 'notes/keep.log', 'kept\n'); // tracked, then matched by the root's *.log
    commitAll(root, 'init');
    git(root, 'add', '-f', 'notes/keep.log');
    commitAll(root, 'force-add');
    put(root, 'mypy/typeshed/stdlib/venv/scratch.py', 'x = 1\n'); // untracked in the tracked venv/ folder
    put(root, 'venv/lib/site.py', 'x = 1\n'); // an untracked virtualenv
    put(root, 'notes/other.log', 'not kept\n'); // untracked and ignored

    const source = await WorktreeSource.open(root);
    const listing = await source.list();
    const paths = listing.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['mypy/typeshed/stdlib/venv/__init__.pyi', 'com/google/devtools/build/lib/Main.java', 'notes/keep.log']));
    for (const out of ['mypy/typeshed/stdlib/venv/scratch.py', 'venv/lib/site.py', 'notes/other.log']) expect(paths).not.toContain(out);
    expect(source.skipReason('mypy/typeshed/stdlib/venv/__init__.pyi')).toBeNull();
    expect(source.skipReason('notes/keep.log')).toBeNull();
    expect(source.skipReason('mypy/typeshed/stdlib/venv/scratch.py')).toBe('vendored');
    expect(source.skipRule('mypy/typeshed/stdlib/venv/scratch.py')).toBe("the default rule 'venv/'; add '!venv/' to .reponavignore to index it");
    expect(source.skipReason('venv/lib/site.py')).toBe('vendored');
    expect(source.skipReason('notes/other.log')).toBe('ignored');

    // The index and its git-status freshness path agree with the full listing.
    const repository = await RepositoryIndex.open(root, { indexPath });
    try {
      await repository.refresh();
      expect(repository.store.file('mypy/typeshed/stdlib/venv/__init__.pyi')).not.toBeNull();
      put(root, 'com/google/devtools/build/lib/Other.java', 'class Other {}\n');
      git(root, 'add', 'com/google/devtools/build/lib/Other.java');
      await repository.refresh();
      expect(repository.store.file('com/google/devtools/build/lib/Other.java')).not.toBeNull();
    } finally {
      repository.close();
    }
  });

  it('keeps folders the index settings exclude out, tracked or not', async () => {
    const { root } = copyIndexFixture();
    gitInit(root);
    put(root, 'generated/tables.py', 'T = 1\n');
    commitAll(root, 'init');
    const listing = await (await WorktreeSource.open(root, { excludeDirectories: ['generated'] })).list();
    expect(listing.files.map((f) => f.path)).not.toContain('generated/tables.py');
    expect(listing.skipped.vendored).toBe(1);
  });
});

describe('when git cannot list the tracked files', () => {
  it('a skip that would have spared a tracked file says that it could not, and why', async () => {
    const { root } = copyIndexFixture();
    gitInit(root);
    put(root, 'tools/venv/__init__.py', 'class EnvBuilder: ...\n');
    commitAll(root, 'init');
    const saved = process.env.PATH;
    // A PATH without git (node is not needed: the listing runs in this process).
    process.env.PATH = tempDir('reponav-no-git-');
    try {
      const source = await WorktreeSource.open(root);
      const paths = (await source.list()).files.map((f) => f.path);
      expect(paths).not.toContain('tools/venv/__init__.py');
      expect(source.skipRule('tools/venv/__init__.py')).toBe(
        "the default rule 'venv/' (git is not installed, so whether git tracks it could not be checked: a tracked file is left out by this rule too); add '!venv/' to .reponavignore to index it",
      );
    } finally {
      process.env.PATH = saved;
    }
    // With git back, the same tree keeps the tracked file (the set is read again once git's index changes or on a new source).
    const source = await WorktreeSource.open(root);
    expect((await source.list()).files.map((f) => f.path)).toContain('tools/venv/__init__.py');
  });
});
