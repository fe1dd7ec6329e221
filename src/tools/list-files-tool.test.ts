import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openToolHarness, type ToolHarness } from '../../test/mcp/fixture-repo.js';

describe('list_files', () => {
  let h: ToolHarness;
  beforeAll(async () => {
    h = await openToolHarness();
    const root = h.copy.root;
    mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(root, 'node_modules/pkg/index.js'), 'module.exports = 1;\n');
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]));
    writeFileSync(join(root, '.gitignore'), 'out/\n');
    mkdirSync(join(root, 'out'));
    writeFileSync(join(root, 'out/bundle.js'), 'x();\n');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(2 * 1024 * 1024));
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    symlinkSync('.', join(root, 'shop', 'again')); // a folder link that loops back into its own folder
    await h.repositories.select().refresh();
  });
  afterAll(async () => h.close());

  it('says a symlink loop is one, never "not indexed yet" beside an up-to-date index', async () => {
    const r = await h.call('list_files', {});
    expect(r.text).toContain('loop-a  not indexed: symlink-loop');
    expect(r.text).not.toContain('not indexed yet');
    const shop = await h.call('list_files', { path: 'shop' });
    expect(shop.text).toContain('again  not indexed: symlink-folder');
    expect(shop.text).not.toContain('not indexed yet');
  });

  it('lists one file when given a file: its own row under its name, not a folder', async () => {
    const r = await h.call('list_files', { path: 'shop/models.py' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.split('\n')).toEqual(['[LS] shop/models.py (a file): 1 entry', expect.stringMatching(/^models\.py {2}python {2}[\d.]+ KiB {2}\d+ symbols$/)]);
  });

  it('says why an entry is not indexed', async () => {
    const r = await h.call('list_files', {});
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('logo.png  5 B  not indexed: binary');
    expect(r.text).toContain('big.txt  2097152 B'.replace('2097152 B', '2.0 MiB  not indexed: too-large'));
    expect(r.text).toContain("node_modules/  0 indexed files  not indexed: vendored (the default rule 'node_modules/'; add '!node_modules/' to .reponavignore to index it)");
    expect(r.text).toContain("out/  0 indexed files  not indexed: ignored ('out/' in .gitignore; add '!out/' to .reponavignore to index it)");
    const entries = (r.data as { entries: Array<{ path: string; indexed: boolean; reason: string | null }> }).entries;
    expect(entries.find((e) => e.path === 'shop')).toMatchObject({ indexed: true, reason: null });
  });

  it('pages and names the next offset', async () => {
    const first = await h.call('list_files', { depth: 2, limit: 3 });
    expect(first.data).toMatchObject({ offset: 0, nextOffset: 3 });
    expect(first.text).toContain('call list_files with offset=3');
    const second = await h.call('list_files', { depth: 2, limit: 3, offset: 3 });
    const paths = (d: unknown) => (d as { entries: Array<{ path: string }> }).entries.map((e) => e.path);
    expect(paths(second.data)).not.toContain(paths(first.data)[0]);
  });

  it('never lists outside the root, and refuses unknown keys and missing folders', async () => {
    expect(await h.call('list_files', { path: '../' })).toMatchObject({ isError: true, errorCode: 'PATH_OUTSIDE_ROOT' });
    expect(await h.call('list_files', { path: '/etc' })).toMatchObject({ isError: true, errorCode: 'PATH_OUTSIDE_ROOT' });
    expect(await h.call('list_files', { path: 'nope' })).toMatchObject({ isError: true, errorCode: 'FILE_NOT_FOUND' });
    const strict = await h.call('list_files', { dept: 2 });
    expect(strict).toMatchObject({ isError: true, errorCode: 'INVALID_ARGUMENTS' });
    expect(strict.text).toContain("Unknown argument 'dept' (did you mean 'depth'?)");
  });

  it('stays within a small budget', async () => {
    const r = await h.call('list_files', { depth: 5, budget_tokens: 100 });
    expect(r.text.length).toBeLessThanOrEqual(400);
    expect(r.text).toMatch(/\[TRUNCATED\]/);
  });
});
