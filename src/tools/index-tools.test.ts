import { execFileSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, openFixtureSet, openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';
import { callTool } from './call-tool.js';
import { createToolRegistry } from './tool-registry.js';

describe('index_status and reindex', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('index_status reports counts and freshness without re-indexing', async () => {
    const r = await h.call('index_status', {});
    expect(r.text).toContain("Repository 'tools-repo': ");
    expect(r.text).toContain('11 files (python 4, typescript 3, go 2, unknown 2), 36 symbols, ');
    expect(r.text).toContain('Fresh: the index matches the files on disk.');
    writeFileSync(join(h.copy.root, 'shop', 'pricing.py'), 'TAX_RATE = 0.2\n');
    const stale = await h.call('index_status', {});
    expect(stale.text).toContain('Stale (re-indexed on the next tool call): 1 changed, 0 added, 0 deleted');
    expect(stale.text).toContain('  changed: shop/pricing.py');
  });

  it('reindex refreshes now and reports what it did', async () => {
    const r = await h.call('reindex', {});
    expect(r.text).toMatch(/^Re-indexed 'tools-repo' in \d+ ms: 11 files listed, 10 unchanged, 1 parsed, 0 reused, 0 deleted\./);
    expect((await h.call('index_status', {})).text).toContain('Fresh: the index matches the files on disk.');
  });
});

describe('index_status on a git working tree after a timestamp-only change', () => {
  it('says fresh right after reindex when the touched file has its indexed content', async () => {
    const copy = copyFixture();
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: copy.root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'x');
    const registry = createToolRegistry();
    const first = await openFixtureSet(copy);
    await callTool(registry, 'reindex', {}, { repositories: first });
    await first.close();
    // Touched while no server watched the tree: only git's stat cache and the content can tell.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(copy.root, 'shop', 'pricing.py'), later, later);
    const repositories = await openFixtureSet(copy);
    try {
      const call = (name: string) => callTool(registry, name, {}, { repositories });
      expect((await call('reindex')).text).toContain('11 files listed, 11 unchanged, 0 parsed');
      expect((await call('index_status')).text).toContain('Fresh: the index matches the files on disk.');
    } finally {
      await repositories.close();
      copy.cleanup();
    }
  });
});
