/**
 * What is indexed, and why not: a file git tracks under a default folder
 * (venv/, build/) is indexed; `.reponavignore` brings back a default-excluded
 * folder with a `!` line; `--include` / `--exclude` are stored with the index
 * and used by later commands without the flags; `status`, `ls` and a lookup
 * that finds nothing name the rule that left a file out and how to bring it back.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, copyIndexFixture, gitInit, put } from './harness.js';
import { runCliInProcess as cli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

describe('path rules', () => {
  it('index tracked files under default folders, bring back an untracked venv/ with .reponavignore, and explain what is left out', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    gitInit(root);
    put(root, 'mypy/typeshed/stdlib/venv/__init__.pyi', 'class EnvBuilder:\n    def create(self, env_dir): ...\n');
    put(root, 'com/google/devtools/build/lib/Main.java', 'class BazelMain {}\n');
    commitAll(root, 'init');
    put(root, 'src/venv/lib/site.py', 'class SiteBuilder:\n    pass\n'); // an untracked virtualenv

    expect((await cli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    expect((await cli(['find', 'class', 'EnvBuilder', '--repo', root], { cacheDir })).stdout).toContain('mypy/typeshed/stdlib/venv/__init__.pyi');
    expect((await cli(['find', 'class', 'BazelMain', '--repo', root], { cacheDir })).stdout).toContain('com/google/devtools/build/lib/Main.java');

    // A lookup that finds nothing says where the name is and which rule left it out.
    const miss = await cli(['find', 'class', 'SiteBuilder', '--repo', root], { cacheDir });
    expect(miss.code).toBe(1);
    expect(miss.stderr).toContain("src/venv/lib/site.py names it but is not indexed: it is left out by the default rule 'venv/'; add '!venv/' to .reponavignore to index it.");
    // status and ls say the same.
    const status = await cli(['status', root], { cacheDir });
    expect(status.stdout).toMatch(/Left out: {3}1 file or folder by rules \(1 vendored\), e\.g\.\n {2}src\/venv\/: the default rule 'venv\/'; add '!venv\/' to \.reponavignore to index it/);
    const ls = await cli(['ls', 'src', '--repo', root], { cacheDir });
    expect(ls.stdout).toContain("the default rule 'venv/'; add '!venv/' to .reponavignore to index it");

    // A ! line brings it back, and the next command sees it (the rule file's change forces a full listing).
    put(root, '.reponavignore', '!venv/\n');
    const found = await cli(['find', 'class', 'SiteBuilder', '--repo', root], { cacheDir });
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('src/venv/lib/site.py');
  });

  it('stores --include and --exclude with the index: later commands use them, a new list replaces the stored one', async () => {
    const { dir, root } = copyIndexFixture();
    const cacheDir = join(dir, 'cache');
    gitInit(root);
    put(root, 'docs/guide.py', 'class GuideHelper:\n    pass\n');
    commitAll(root, 'init');
    put(root, 'build/gen/out.py', 'class Generated:\n    pass\n'); // untracked build output

    expect((await cli(['index', root, '-q', '--exclude', 'docs/', '--include', 'build/'], { cacheDir })).code).toBe(0);
    // No flags: the stored rules hold (a tracked file is left out by --exclude; an untracked build/ is brought back).
    const guide = await cli(['find', 'class', 'GuideHelper', '--repo', root], { cacheDir });
    expect(guide.code).toBe(1);
    expect(guide.stderr).toContain("docs/guide.py names it but is not indexed: it is left out by --exclude 'docs/' (stored with the index)");
    expect((await cli(['find', 'class', 'Generated', '--repo', root], { cacheDir })).code).toBe(0);
    const status = await cli(['status', root], { cacheDir });
    expect(status.stdout).toContain("--include 'build/', --exclude 'docs/'");
    expect(JSON.parse((await cli(['status', root, '--json'], { cacheDir })).stdout).settings).toMatchObject({ include: ['build/'], exclude: ['docs/'] });

    // --exclude '' clears the stored list (the include stays): the next run indexes docs/ again.
    expect((await cli(['index', root, '-q', '--exclude', ''], { cacheDir })).code).toBe(0);
    expect((await cli(['find', 'class', 'GuideHelper', '--repo', root], { cacheDir })).code).toBe(0);
    expect((await cli(['find', 'class', 'Generated', '--repo', root], { cacheDir })).code).toBe(0);
  });
});
