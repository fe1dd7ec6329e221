import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitExists, commitTimestamps, existingCommits, findRepoGitDir, isGitDir } from './repo-lookup.js';

const git = (args: string[], cwd?: string, env: Record<string, string> = {}) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  }).trim();

describe('findRepoGitDir', () => {
  let root: string;
  let cloneSha: string;
  let oldSha: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'reponav-repos-')));
    git(['init', '--bare', '-q', join(root, 'alpha+bare')]); // owner+name is the git dir
    mkdirSync(join(root, 'beta+mirror'));
    git(['init', '--bare', '-q', join(root, 'beta+mirror', 'repo')]); // owner+name/repo
    git(['init', '--bare', '-q', join(root, 'gamma__under')]); // owner__name
    git(['init', '-q', join(root, 'plain')]); // name, a normal clone
    writeFileSync(join(root, 'plain', 'f.txt'), 'x');
    git(['add', '.'], join(root, 'plain'));
    const dates = { GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' };
    git(['commit', '-q', '-m', 'one'], join(root, 'plain'), dates);
    oldSha = git(['rev-parse', 'HEAD'], join(root, 'plain'));
    writeFileSync(join(root, 'plain', 'f.txt'), 'y');
    const later = { GIT_AUTHOR_DATE: '2021-06-01T00:00:00Z', GIT_COMMITTER_DATE: '2021-06-01T00:00:00Z' };
    git(['commit', '-q', '-am', 'two'], join(root, 'plain'), later);
    cloneSha = git(['rev-parse', 'HEAD'], join(root, 'plain'));
    mkdirSync(join(root, 'not-a-repo'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds every supported layout', () => {
    expect(findRepoGitDir(root, 'alpha/bare')).toEqual({ ok: true, gitDir: join(root, 'alpha+bare') });
    expect(findRepoGitDir(root, 'beta/mirror')).toEqual({ ok: true, gitDir: join(root, 'beta+mirror', 'repo') });
    expect(findRepoGitDir(root, 'gamma/under')).toEqual({ ok: true, gitDir: join(root, 'gamma__under') });
    expect(findRepoGitDir(root, 'someone/plain')).toEqual({ ok: true, gitDir: join(root, 'plain', '.git') });
  });

  it('follows a `.git` file (worktree) to its git dir', () => {
    const worktree = join(root, 'wt');
    git(['worktree', 'add', '-q', worktree], join(root, 'plain'));
    const lookup = findRepoGitDir(root, 'x/wt');
    expect(lookup.ok && lookup.gitDir).toBe(join(root, 'plain', '.git', 'worktrees', 'wt'));
  });

  it('explains a missing repository, a non-repo folder, a bad name and a bad root', () => {
    const missing = findRepoGitDir(root, 'nobody/nothing');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.reason).toMatch(/nobody\+nothing.*nobody__nothing.*nothing/);
    expect(findRepoGitDir(root, 'x/not-a-repo').ok).toBe(false);
    expect(findRepoGitDir(root, '../etc').ok).toBe(false);
    expect(findRepoGitDir(root, 'a/..').ok).toBe(false);
    expect(findRepoGitDir(join(root, 'absent'), 'alpha/bare')).toMatchObject({ ok: false, reason: expect.stringMatching(/repos directory/) });
  });

  it('checks commits and reads their dates', async () => {
    const gitDir = join(root, 'plain', '.git');
    expect(isGitDir(gitDir)).toBe(true);
    expect(await commitExists(gitDir, cloneSha)).toBe(true);
    expect(await commitExists(gitDir, 'f'.repeat(40))).toBe(false);
    expect(await commitExists(gitDir, 'not-hex')).toBe(false);
    const present = await existingCommits(gitDir, [cloneSha, 'f'.repeat(40), oldSha, 'zz']);
    expect([...present].sort()).toEqual([cloneSha, oldSha].sort());
    const stamps = await commitTimestamps(gitDir, [cloneSha, oldSha]);
    expect(stamps.get(oldSha)).toBe(Date.parse('2020-01-01T00:00:00Z') / 1000);
    expect(stamps.get(cloneSha)).toBe(Date.parse('2021-06-01T00:00:00Z') / 1000);
  });

  // A folder of real mirrors (as `eval locbench --repos` takes) is not in the repository: set
  // REPONAV_TEST_MIRRORS to one holding dask/dask to check the lookup against it as well.
  const mirrors = process.env.REPONAV_TEST_MIRRORS;
  it.skipIf(!mirrors)(
    mirrors ? `finds dask/dask in ${mirrors}` : 'finds a real mirror (skipped: REPONAV_TEST_MIRRORS names no folder)',
    () => {
      const lookup = findRepoGitDir(mirrors!, 'dask/dask');
      expect(lookup).toMatchObject({ ok: true });
    },
  );
});
