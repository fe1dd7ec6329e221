/**
 * A first search on a large never-indexed tree answers from a focused first
 * index (or, when that fails, provisionally) and builds the index in a
 * background `reponav index`; when that build fails (the
 * disk holding the cache fills up: a 160 KiB tmpfs in a private mount
 * namespace), later searches say it failed, why, and what to run, instead of
 * "being built in the background… search again shortly", and start no build
 * that would fail the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, ensureBuilt, tempDir } from './harness.js';
import { inMountNamespace, mountNamespaceUnavailable, putTreeLargerThanTinyDisk } from './mount-namespace.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

describe.skipIf(mountNamespaceUnavailable !== null)('a background index build that failed', () => {
  it('is named, with its reason and the command that retries it, by the next search (exit 0, provisional files still listed)', () => {
    const dir = tempDir();
    const root = `${dir}/repo`;
    putTreeLargerThanTinyDisk(root);
    const script = `
      mkdir -p "$DIR/cache" && mount -t tmpfs -o size=160k tmpfs "$DIR/cache"
      export REPONAV_CACHE_DIR="$DIR/cache"
      node "$CLI" search "compute total" --repo "$ROOT" > "$DIR/first.txt"
      # The background build ends with its error line; wait for it (at most 2 minutes).
      for i in $(seq 1 240); do grep -qs '^error: ' "$DIR"/cache/*/worktree.db.background-error && break; sleep 0.5; done
      node "$CLI" search "compute total" --repo "$ROOT"
      echo "exit $?"
      node "$CLI" search "order tax" --repo "$ROOT" > "$DIR/third.txt"
      ls "$DIR"/cache/*/
    `;
    const result = inMountNamespace(script, { DIR: dir, ROOT: root });
    expect(result.code, result.stderr).toBe(0);
    const [head, ...rest] = result.stdout.split('\n');
    expect(head).toMatch(
      /^\[PROVISIONAL\] 'repo' has no index: the last background index build failed \(The disk holding the index at .* is full \(database or disk is full\); free some space and run the command again; the index was left as it is\)\. .*Run `reponav index .*\/repo` to retry the build and see its progress\.$/,
    );
    expect(result.stdout).not.toMatch(/being built/);
    expect(rest.join('\n')).toMatch(/\[FILE\] orders\/m\d+\.py/);
    expect(result.stdout).toMatch(/^exit 0$/m);
    // No second build was started (it would have truncated the error and left a writer file).
    expect(result.stdout).not.toMatch(/worktree\.db\.writer/);
    // Only the first search may warn: its focused first index met the full disk too, so it answered from the scan.
    expect(result.stderr).toMatch(/^(\[reponav\] warn: the focused first index of repo failed \(The disk holding the index at .* is full .*\); answering from the text scan\n)?$/);
  }, 300_000);
});
