import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

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
