import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('repo_map', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
  });
  afterAll(async () => h.close());

  it('is deterministic and ranks every parsed file once', async () => {
    const a = await h.call('repo_map', { budget_tokens: 3000 });
    const b = await h.call('repo_map', { budget_tokens: 3000 });
    expect(a.text).toBe(b.text);
    const data = a.data as { files: Array<{ path: string; rank: number }>; totalFiles: number; truncated: boolean };
    expect(data.truncated).toBe(false);
    expect(new Set(data.files.map((f) => f.path)).size).toBe(data.totalFiles);
    expect(data.files.map((f) => f.rank)).toEqual(data.files.map((_, i) => i + 1));
  });

  it('centres on a focus file or symbol and names what it could not find', async () => {
    const byFile = await h.call('repo_map', { focus: ['web/src/cart.ts'] });
    expect((byFile.data as { files: Array<{ path: string }> }).files[0].path).toBe('web/src/cart.ts');
    const bySymbol = await h.call('repo_map', { focus: ['OrderService', 'NoSuchThing'] });
    expect((bySymbol.data as { files: Array<{ path: string }> }).files[0].path).toBe('shop/service.py');
    expect(bySymbol.text).toContain('(focus not found, ignored: NoSuchThing)');
  });

  it('stays within its budget, summarises folders and says it truncated', async () => {
    const r = await h.call('repo_map', { budget_tokens: 120 });
    expect(r.text.length).toBeLessThanOrEqual(480);
    expect(r.text).toMatch(/\[TRUNCATED\] \d+ files left out to stay within 120 tokens/);
    expect(r.data).toMatchObject({ truncated: true });
  });

  it('refuses unknown keys', async () => {
    expect(await h.call('repo_map', { fokus: ['x'] })).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
  });
});
