/**
 * A cache folder on a read-only file system (a read-only bind mount in a
 * private mount namespace, so even root meets EROFS): with no index there, a
 * command says so in one sentence (not a stack trace or a misleading ENOENT
 * from mkdir); a complete, up-to-date index there is used read-only by
 * search, symbols and status; once the tree changes, one sentence says what
 * to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, copyIndexFixture, ensureBuilt } from './harness.js';
import { inMountNamespace, mountNamespaceUnavailable } from './mount-namespace.js';

beforeAll(ensureBuilt, 300_000);
afterAll(cleanupTempDirs);

describe.skipIf(mountNamespaceUnavailable !== null)('a read-only cache folder', () => {
  it('with no index: one sentence naming the read-only folder and REPONAV_CACHE_DIR, for search, symbols and status', () => {
    const { dir, root } = copyIndexFixture();
    const script = `
      mkdir -p "$DIR/cache" && mount --bind "$DIR/cache" "$DIR/cache" && mount -o remount,ro,bind "$DIR/cache"
      export REPONAV_CACHE_DIR="$DIR/cache"
      set +e
      node "$CLI" search discount --repo "$ROOT"; echo "exit $?"
      node "$CLI" symbols inventory/pricing.py --repo "$ROOT"; echo "exit $?"
      node "$CLI" status "$ROOT"; echo "exit $?"
    `;
    const result = inMountNamespace(script, { DIR: dir, ROOT: root });
    expect(result.stdout.trim().split('\n').slice(0, 2)).toEqual(['exit 1', 'exit 1']);
    const errors = result.stderr.trim().split('\n');
    expect(errors).toHaveLength(2);
    for (const line of errors) {
      expect(line).toMatch(/^error: Cannot create the index at .*: the folder .*cache is on a read-only file system; set REPONAV_CACHE_DIR \(or --index-path\) to a writable folder\.$/);
    }
    expect(result.stderr).not.toMatch(/ENOENT|\n\s+at /);
    // status builds nothing, so it says there is no index (exit 0), as it does anywhere.
    expect(result.stdout).toMatch(/Indexed: {4}never \(run `reponav index`\)\nContents/);
  });

  it('with a complete, up-to-date index: search, symbols and status answer from it; after an edit, one sentence says what to do', () => {
    const { dir, root } = copyIndexFixture();
    const script = `
      export REPONAV_CACHE_DIR="$DIR/cache"
      node "$CLI" index "$ROOT" -q
      mount --bind "$DIR/cache" "$DIR/cache" && mount -o remount,ro,bind "$DIR/cache"
      node "$CLI" search discount --repo "$ROOT" | head -3
      node "$CLI" symbols inventory/pricing.py --repo "$ROOT" | grep compute_discount
      node "$CLI" status "$ROOT" | grep Freshness
      echo "def added(): pass" >> "$ROOT/inventory/pricing.py"
      set +e
      node "$CLI" search discount --repo "$ROOT"; echo "exit $?"
    `;
    const result = inMountNamespace(script, { DIR: dir, ROOT: root });
    expect(result.stdout).toMatch(/inventory\/pricing\.py/);
    expect(result.stdout).toMatch(/compute_discount/);
    expect(result.stdout).toMatch(/Freshness: {2}up to date/);
    expect(result.stdout).toMatch(/^exit 1$/m);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^error: The index at .* cannot be updated \(the folder .* is on a read-only file system\) and it no longer matches .*; run `reponav index` where the folder is writable, or set REPONAV_CACHE_DIR \(or --index-path\) to a writable folder\.$/),
    ]);
  });
});
