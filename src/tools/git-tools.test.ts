import { estimateTokens } from '../budget/index.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositorySet } from './repository-set.js';
import { callTool, createToolRegistry } from './tool-registry.js';
import { copyFixture, openToolHarness, type FixtureCopy, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { bareMirror, fixtureGit, makeGitHistory } from '../../test/mcp/git-fixture.js';

describe('git tools on a working tree', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
    makeGitHistory(h.copy.root);
  });
  afterAll(async () => h.close());

  it('refuse paths outside the repository and unknown keys', async () => {
    for (const [tool, args] of [
      ['diff', { file: '../../etc/passwd' }],
      ['file_history', { file: '/etc/passwd' }],
      ['blame_lines', { file: '../x', start: 1 }],
    ] as const) {
      const r = await h.call(tool, args);
      expect(r.isError).toBe(true);
      expect(r.errorCode).toBe('PATH_OUTSIDE_ROOT');
    }
    const strict = await h.call('changed_files', { form: 'HEAD' });
    expect(strict).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
    expect(strict.text).toContain("Unknown argument 'form' (did you mean 'from'?)");
  });

  it('name unknown revisions and refuse option-like ones', async () => {
    expect(await h.call('changed_files', { from: 'no-such-branch' })).toMatchObject({ isError: true, errorCode: 'UNKNOWN_REVISION' });
    expect(await h.call('diff', { file: 'shop/models.py', from: '--output=/tmp/x' })).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
    expect(await h.call('changed_files', { to: 'HEAD' })).toMatchObject({ isError: true, errorCode: 'BAD_INPUT' });
  });

  it('changed_files carries the symbol changes as data', async () => {
    const r = await h.call('changed_files', {});
    const data = r.data as { files: Array<{ path: string; area: string; symbols: Array<{ change: string; qualifiedName: string }> }> };
    expect(data.files.map((f) => `${f.area} ${f.path}`)).toEqual(['staged web/src/cart.ts', 'unstaged shop/pricing.py', 'untracked notes.py']);
    expect(data.files[1].symbols).toContainEqual(expect.objectContaining({ change: 'removed', qualifiedName: 'round_money' }));
    expect(data.files[1].symbols).toContainEqual(expect.objectContaining({ change: 'added', qualifiedName: 'round_cents' }));
  });

  it('cuts a long diff to its budget and says so', async () => {
    // 150: the head and the note alone cost ~90 estimated tokens (o200k with the budget's safety factor).
    const r = await h.call('diff', { file: 'shop/models.py', from: 'HEAD~1', to: 'HEAD', budget_tokens: 150 });
    expect(estimateTokens(r.text)).toBeLessThanOrEqual(150);
    expect(r.text).toMatch(/\ndiff --git .*\n(.*\n)*\[TRUNCATED\] \d+ diff lines left out to stay within 150 tokens/);
  });

  it('blame_lines refuses a start past the end of the file', async () => {
    const r = await h.call('blame_lines', { file: 'shop/models.py', start: 900 });
    expect(r).toMatchObject({ isError: true, errorCode: 'BAD_INPUT' });
    expect(r.text).toContain('past the end');
  });
});

describe('git tools where there is no git or only a bare mirror', () => {
  let plain: FixtureCopy;
  let mirrored: FixtureCopy;
  beforeAll(() => {
    plain = copyFixture('plain');
    mirrored = copyFixture('mirrored');
    makeGitHistory(mirrored.root);
  });
  afterAll(() => {
    plain.cleanup();
    mirrored.cleanup();
  });

  it('say clearly that a folder is not a git repository', async () => {
    const repositories = await RepositorySet.open([{ path: plain.root, indexPath: plain.indexPath }]);
    try {
      const r = await callTool(createToolRegistry(), 'changed_files', {}, { repositories });
      expect(r).toMatchObject({ isError: true, errorCode: 'NOT_A_GIT_REPOSITORY' });
      expect(r.text).toMatch(/is not a git repository/);
    } finally {
      await repositories.close();
    }
  });

  it('answer from a bare mirror read at a commit (--commit)', async () => {
    const bare = bareMirror(mirrored.root, join(mirrored.dir, 'mirror.git'));
    const head = fixtureGit(bare, '--git-dir', bare, 'rev-parse', 'HEAD').trim();
    const repositories = await RepositorySet.open([{ path: bare, commit: head, indexPath: join(mirrored.dir, 'bare.db') }]);
    const call = (name: string, args: unknown) => callTool(createToolRegistry(), name, args, { repositories });
    try {
      const changed = await call('changed_files', {});
      expect(changed.isError, changed.text).toBe(false);
      expect(changed.text).toContain('modified  shop/models.py  ~Order ~Order.total +helper');
      const history = await call('file_history', { file: 'shop/models.py', symbol: 'Order.total' });
      expect(history.text).toContain('Round order totals');
      const blame = await call('blame_lines', { file: 'shop/models.py', start: 37 });
      expect(blame.text).toContain('Ada Lovelace: Round order totals');
      const diff = await call('diff', { file: 'shop/models.py' });
      expect(diff.text).toContain('+        return round(self._apply_discount(gross), 2)');
      const listing = await call('list_files', { path: 'shop' });
      expect(listing.text).toContain('models.py  python');
      expect((await call('changed_files', { to: 'HEAD' })).isError).toBe(true);
    } finally {
      await repositories.close();
    }
  });
});
