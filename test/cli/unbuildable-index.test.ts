/**
 * A first search whose index cannot be written (the disk holding the cache is
 * full: a 160 KiB tmpfs in a private mount namespace) must not promise an
 * index "being built in the background": its focused first index already met
 * the full disk, so the whole build would too. Its answer says the index
 * cannot be built, why and what to run; it starts no build; the next search
 * and `status` know the failure without writing anything; a search with no
 * answer at all exits non-zero.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, ensureBuilt, tempDir } from './harness.js';
import { inMountNamespace, mountNamespaceUnavailable, putTreeLargerThanTinyDisk } from './mount-namespace.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

describe.skipIf(mountNamespaceUnavailable !== null)('a first index that cannot be written', () => {
  it('is said to be unbuildable (why, what to run) by the first search, the next one and status; nothing found exits 1', () => {
    const dir = tempDir();
    const root = `${dir}/repo`;
    putTreeLargerThanTinyDisk(root);
    const script = `
      mkdir -p "$DIR/cache" && mount -t tmpfs -o size=160k tmpfs "$DIR/cache"
      export REPONAV_CACHE_DIR="$DIR/cache"
      set +e
      node "$CLI" search "compute total" --repo "$ROOT" > "$DIR/first.out" 2> "$DIR/first.err"; echo "first $?"
      node "$CLI" search "compute total" --repo "$ROOT" > "$DIR/second.out" 2> "$DIR/second.err"; echo "second $?"
      node "$CLI" search "zzqqxx nothing" --repo "$ROOT" > "$DIR/none.out" 2> "$DIR/none.err"; echo "none $?"
      node "$CLI" status "$ROOT" > "$DIR/status.out" 2> "$DIR/status.err"; echo "status $?"
      ls "$DIR"/cache/*/
    `;
    const result = inMountNamespace(script, { DIR: dir, ROOT: root });
    expect(result.code, result.stderr).toBe(0);
    const read = (name: string) => inMountNamespace(`cat "$DIR/${name}"`, { DIR: dir }).stdout;
    const full = /The disk holding the index at .* is full \(database or disk is full\); free some space and run the command again; the index was left as it is/;

    // The first search: its focused index met the full disk; the answer says so, with the scan's files.
    expect(result.stdout).toMatch(/^first 0$/m);
    const first = read('first.out');
    expect(first.split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'repo' has no index: the index cannot be built \(The disk holding the index at .* is full .*\)\. .*Run `reponav index .*\/repo` to build it once that is fixed\.$/);
    expect(first).not.toMatch(/being built|search again shortly/);
    expect(first).toMatch(/\[FILE\] orders\/m\d+\.py/);
    // No background build was started (it would fail the same way): no writer file, no lock held by a child.
    expect(result.stdout).not.toMatch(/worktree\.db\.writer/);

    // The next search knows, without trying again.
    expect(result.stdout).toMatch(/^second 0$/m);
    const second = read('second.out');
    expect(second.split('\n')[0]).toMatch(/^\[PROVISIONAL\] 'repo' has no index: the last background index build failed \(/);
    expect(second.split('\n')[0]).toMatch(full);
    expect(second).not.toMatch(/being built|search again shortly/);
    expect(read('second.err')).toBe('');

    // No answer at all: exit 1, and the reason is still there.
    expect(result.stdout).toMatch(/^none 1$/m);
    expect(read('none.out')).toBe('');
    expect(read('none.err')).toMatch(full);

    // status says the build failed and why, not "never".
    expect(result.stdout).toMatch(/^status 0$/m);
    const indexed = read('status.out').split('\n').find((line) => line.startsWith('Indexed:'));
    expect(indexed).toMatch(/^Indexed: {4}not yet: the last background build failed \(The disk holding the index .* is full .*\); run `reponav index` to retry it$/);
  }, 300_000);
});
