/**
 * The CLI's `ls`, `map`, `changes`, `diff`, `history` and `blame`: each prints
 * its tool's text, or its JSON with --json, and fails with one sentence and an
 * exit code. Nothing here is about a process: the program runs in this
 * process (in-process-cli.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from './in-process-cli.js';
import { copyFixture, type FixtureCopy } from '../mcp/fixture-repo.js';
import { bareMirror, makeGitHistory } from '../mcp/git-fixture.js';

describe('reponav ls / map / changes / diff / history / blame', () => {
  let copy: FixtureCopy;
  let plain: FixtureCopy;

  beforeAll(() => {
    copy = copyFixture();
    plain = copyFixture('plain');
    makeGitHistory(copy.root);
  });
  afterAll(() => {
    copy?.cleanup();
    plain?.cleanup();
  });

  const run = (repo: string, ...args: string[]) => runCliInProcess([...args, '--repo', repo], { cacheDir: join(copy.dir, 'cache') });

  it('ls lists a folder, or JSON', async () => {
    const r = await run(copy.root, 'ls', 'shop', '--pattern', '*.py');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('[LS] shop/ depth 1, matching *.py: 1-4 of 4 entries\n');
    const json = JSON.parse((await run(copy.root, 'ls', '--depth', '2', '--json')).stdout);
    expect(json).toMatchObject({ path: '', depth: 2, nextOffset: null });
    expect((await run(copy.root, 'ls', '../')).code).toBe(1);
  });

  it('map prints the ranked map, or JSON', async () => {
    const r = await run(copy.root, 'map', '--budget-tokens', '300');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\[MAP\] tools-repo: 10 files ranked/);
    const json = JSON.parse((await run(copy.root, 'map', '--focus', 'Cart', '--json')).stdout);
    expect(json.files[0].path).toBe('web/src/cart.ts');
  });

  it('changes, diff, history and blame answer from git', async () => {
    expect((await run(copy.root, 'changes')).stdout).toContain('untracked  added     notes.py  +note');
    const changes = JSON.parse((await run(copy.root, 'changes', '--from', 'HEAD~1', '--to', 'HEAD', '--json')).stdout);
    expect(changes.files).toHaveLength(1);
    expect((await run(copy.root, 'diff', 'shop/models.py', '--from', 'HEAD~1', '--to', 'HEAD')).stdout).toContain('changed symbols: ~Order ~Order.total +helper');
    expect((await run(copy.root, 'history', 'shop/models.py', '--symbol', 'Order.total')).stdout).toContain('Round order totals');
    expect((await run(copy.root, 'history', 'shop/models.py:1-3', '--json')).stdout).toContain('"span"');
    expect((await run(copy.root, 'blame', 'shop/models.py:37')).stdout).toContain('Ada Lovelace: Round order totals');
  });

  it('works on a bare mirror with --commit', async () => {
    const bare = bareMirror(copy.root, join(copy.dir, 'mirror.git'));
    const r = await run(bare, 'changes', '--commit', 'HEAD');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('modified  shop/models.py  ~Order ~Order.total +helper');
  });

  it('says in one sentence when the folder is not a git repository', async () => {
    const r = await run(plain.root, 'changes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .* is not a git repository, so there is no history or change to show; the other tools work without git\.\n$/);
    expect((await run(plain.root, 'blame', 'shop/models.py')).code).toBe(2);
  });
});
