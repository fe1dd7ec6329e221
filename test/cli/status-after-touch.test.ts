/**
 * `status` agrees with `index` on a git working tree whose files changed in
 * timestamp only: a file whose content is the indexed content is up to date,
 * whatever its mtime (a `touch`, a branch switch and back). Nothing here is
 * about process start-up: the program runs in this process (in-process-cli.ts).
 */
import { cpSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, commitAll, git, gitInit, PROJECT_ROOT, put, tempDir } from './harness.js';
import { runCliInProcess as runCli } from './in-process-cli.js';

afterAll(cleanupTempDirs);

function bookshop(): { root: string; cacheDir: string } {
  const root = join(tempDir('reponav-touch-'), 'r');
  cpSync(join(PROJECT_ROOT, 'sample/bookshop'), root, { recursive: true });
  gitInit(root);
  commitAll(root, 'x');
  return { root, cacheDir: tempDir('reponav-touch-cache-') };
}

describe('status after a timestamp-only change', () => {
  it('a touched file with unchanged content is up to date in status, as index says', async () => {
    const { root, cacheDir } = bookshop();
    expect((await runCli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'billing/invoice.py'), later, later);
    const index = await runCli(['index', root], { cacheDir });
    expect(index.stderr + index.stdout).toContain('8 unchanged');
    const status = await runCli(['status', root], { cacheDir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Freshness:  up to date');
    const json = JSON.parse((await runCli(['status', root, '--json'], { cacheDir })).stdout) as { stale: Record<string, string[]> };
    expect(json.stale).toEqual({ changed: [], added: [], deleted: [] });
  });

  it('a branch switch and back leaves status up to date', async () => {
    const { root, cacheDir } = bookshop();
    git(root, 'checkout', '-q', '-b', 'other');
    put(root, 'billing/invoice.py', 'def other_branch():\n    return 2\n');
    put(root, 'inventory/stock.py', 'def other_stock():\n    return 3\n');
    commitAll(root, 'other');
    git(root, 'checkout', '-q', 'main');
    expect((await runCli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    git(root, 'checkout', '-q', 'other');
    git(root, 'checkout', '-q', 'main');
    expect((await runCli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    const status = await runCli(['status', root], { cacheDir });
    expect(status.stdout).toContain('Freshness:  up to date');
  });

  it('a real edit is still stale', async () => {
    const { root, cacheDir } = bookshop();
    expect((await runCli(['index', root, '-q'], { cacheDir })).code).toBe(0);
    put(root, 'billing/invoice.py', 'def edited():\n    return 1\n');
    const status = await runCli(['status', root], { cacheDir });
    expect(status.stdout).toContain('STALE: 1 changed');
    expect(status.stdout).toContain('changed: billing/invoice.py');
  });
});
